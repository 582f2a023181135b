package io.topobridge.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether requests an API server saw (method and path) are allowed by RBAC rules, the way the API server decides:
 * verb from method and path, API group, resource (with subresource), namespace and resource name. For checking that
 * a Role and ClusterRole cover exactly what a process did against the mock API server.
 */
public final class RbacRules {

    private static final Pattern PATH = Pattern.compile(
            "^/(?:api/v1|apis/([^/]+)/[^/]+)(?:/namespaces/([^/]+))?/([^/?]+)(?:/([^/?]+))?(?:/([^/?]+))?(?:\\?(.*))?$");

    /** One request as RBAC sees it. */
    public record Access(String verb, String group, String resource, String namespace, String name, String request) {}

    private RbacRules() {}

    public static Access access(String method, String path) {
        Matcher m = PATH.matcher(path);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a resource request: " + method + " " + path);
        }
        String group = m.group(1) == null ? "" : m.group(1);
        String resource = m.group(3);
        String name = m.group(4);
        if (m.group(5) != null) {
            resource = resource + "/" + m.group(5);
        }
        String query = m.group(6) == null ? "" : m.group(6);
        String verb = switch (method) {
            case "GET" -> name == null ? (query.contains("watch=true") ? "watch" : "list") : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name == null ? "deletecollection" : "delete";
            default -> throw new IllegalArgumentException("method " + method);
        };
        return new Access(verb, group, resource, m.group(2), name, method + " " + path);
    }

    /**
     * The requests that neither the cluster-wide rules nor (for requests in {@code namespace}) the namespaced rules
     * allow.
     */
    public static List<Access> denied(List<Access> requests, JsonNode clusterRole, JsonNode role, String namespace) {
        List<Access> out = new ArrayList<>();
        for (Access access : requests) {
            boolean allowed = allows(clusterRole, access)
                    || (role != null && namespace.equals(access.namespace()) && allows(role, access));
            if (!allowed) {
                out.add(access);
            }
        }
        return out;
    }

    private static boolean allows(JsonNode role, Access access) {
        for (JsonNode rule : role.path("rules")) {
            if (matches(rule.path("apiGroups"), access.group())
                    && matches(rule.path("resources"), access.resource())
                    && matches(rule.path("verbs"), access.verb())
                    && (!rule.has("resourceNames")
                            || rule.path("resourceNames").isEmpty()
                            || (access.name() != null && matches(rule.path("resourceNames"), access.name())))) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(JsonNode list, String value) {
        for (JsonNode item : list) {
            if (item.asText().equals("*") || item.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }
}

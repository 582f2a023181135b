package io.topobridge.devcluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.HttpURLConnection;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fabric8 CRUD mock API server, extended with what the bridge relies on from a real API server (the tests'
 * {@code RecordingDispatcher} adds a request log and API groups an older server lacks):
 *
 * <ul>
 *   <li><b>Server-side apply</b> ({@code application/apply-patch+yaml}), which the stock mock answers with 415.
 *       Per field manager it remembers the last applied configuration, removes fields that manager applied
 *       before and no longer applies, merges maps recursively, replaces lists (Volcano's lists are atomic),
 *       merges {@code metadata.ownerReferences} by uid, and writes nothing when the result is unchanged.</li>
 *   <li><b>Custom resources only when their CRD exists</b>: a request for a custom resource whose
 *       CustomResourceDefinition is not stored answers 404, as a real server does.</li>
 * </ul>
 *
 * It serves the embedded demo cluster and the integration tests; it is never used against a real cluster.
 */
public class ApplyingCrudDispatcher extends KubernetesCrudDispatcher {

    public static final String APPLY_PATCH = "application/apply-patch+yaml";
    private static final Pattern CUSTOM_RESOURCE_PATH =
            Pattern.compile("^/apis/([^/]+)/([^/]+)/(?:namespaces/[^/]+/)?([^/?]+)(?:/[^?]*)?(?:\\?.*)?$");
    private static final Set<String> BUILT_IN_GROUPS = Set.of(
            "apps",
            "batch",
            "autoscaling",
            "policy",
            "coordination.k8s.io",
            "events.k8s.io",
            "apiextensions.k8s.io",
            "admissionregistration.k8s.io",
            "rbac.authorization.k8s.io",
            "networking.k8s.io",
            "storage.k8s.io",
            "scheduling.k8s.io",
            "discovery.k8s.io",
            "certificates.k8s.io",
            "node.k8s.io",
            "authentication.k8s.io",
            "authorization.k8s.io",
            "resource.k8s.io");

    private final ObjectMapper json = new ObjectMapper();
    private final YAMLMapper yaml = new YAMLMapper();
    private final Map<String, Map<String, JsonNode>> appliedByPath = new ConcurrentHashMap<>();

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if (!crdServes(request.getPath())) {
            return notFound();
        }
        String contentType = request.getHeader("Content-Type");
        if ("PATCH".equals(request.getMethod()) && contentType != null && contentType.startsWith(APPLY_PATCH)) {
            synchronized (this) {
                return apply(request);
            }
        }
        return super.dispatch(request);
    }

    protected MockResponse notFound() {
        return status(HttpURLConnection.HTTP_NOT_FOUND, "NotFound", "the server could not find the requested resource");
    }

    // ---- custom resources need their CRD -------------------------------------------------------

    private boolean crdServes(String path) {
        Matcher m = CUSTOM_RESOURCE_PATH.matcher(path);
        if (!m.matches() || BUILT_IN_GROUPS.contains(m.group(1))) {
            return true;
        }
        String crdName = m.group(3) + "." + m.group(1);
        MockResponse crd = super.handleGet("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + crdName);
        return crd.code() == HttpURLConnection.HTTP_OK;
    }

    // ---- server-side apply -------------------------------------------------------------------

    private MockResponse apply(RecordedRequest request) {
        String fullPath = request.getPath();
        int q = fullPath.indexOf('?');
        String path = q < 0 ? fullPath : fullPath.substring(0, q);
        Map<String, String> query = q < 0 ? Map.of() : parseQuery(fullPath.substring(q + 1));
        String manager = query.get("fieldManager");
        if (manager == null || manager.isBlank()) {
            return status(422, "Invalid", "PATCH requests of type apply require a fieldManager");
        }
        ObjectNode applied;
        try {
            JsonNode parsed = yaml.readTree(request.getUtf8Body());
            if (!(parsed instanceof ObjectNode object)) {
                return status(400, "BadRequest", "apply body is not an object");
            }
            applied = object;
        } catch (JsonProcessingException e) {
            return status(400, "BadRequest", "apply body is not YAML: " + e.getOriginalMessage());
        }
        stripServerFields(applied);

        Map<String, JsonNode> managers = appliedByPath.computeIfAbsent(path, k -> new ConcurrentHashMap<>());
        MockResponse current = super.handleGet(path);
        if (current.code() == HttpURLConnection.HTTP_NOT_FOUND) {
            String collection = path.substring(0, path.lastIndexOf('/'));
            managers.clear();
            managers.put(manager, applied.deepCopy());
            ObjectNode toCreate = applied.deepCopy();
            stampManagedFields(toCreate, managers);
            return super.handleCreate(request(HttpMethod.POST, collection, toCreate));
        }
        if (current.code() != HttpURLConnection.HTTP_OK) {
            return current;
        }
        ObjectNode existing;
        try {
            existing = (ObjectNode) json.readTree(current.getBody().readUtf8());
        } catch (JsonProcessingException e) {
            return status(500, "InternalError", e.getOriginalMessage());
        }
        ObjectNode merged = existing.deepCopy();
        JsonNode previous = managers.get(manager);
        if (previous != null) {
            List<JsonNode> others = managers.entrySet().stream()
                    .filter(e -> !e.getKey().equals(manager))
                    .map(Map.Entry::getValue)
                    .toList();
            removeDropped(merged, previous, applied, others);
        }
        mergeInto(merged, applied, "");
        managers.put(manager, applied.deepCopy());
        stampManagedFields(merged, managers);
        if (merged.equals(existing)) {
            return new MockResponse().setResponseCode(200).setBody(existing.toString());
        }
        return super.handleUpdate(request(HttpMethod.PUT, path, merged));
    }

    /**
     * Records each manager's applied fields in {@code metadata.managedFields} in the API server's notation
     * ({@code f:} fields, {@code k:} entries of keyed lists, {@code "."} for a map or entry the manager created),
     * written independently of the bridge's own reader so the two check each other.
     */
    private void stampManagedFields(ObjectNode object, Map<String, JsonNode> managers) {
        ObjectNode meta = object.with("metadata");
        ArrayNode entries = meta.putArray("managedFields");
        managers.forEach((name, config) -> entries.addObject()
                .put("manager", name)
                .put("operation", "Apply")
                .put("apiVersion", object.path("apiVersion").asText())
                .put("fieldsType", "FieldsV1")
                .set("fieldsV1", fieldsV1(config, "")));
    }

    private ObjectNode fieldsV1(JsonNode config, String place) {
        ObjectNode out = json.createObjectNode();
        config.fields().forEachRemaining(e -> {
            String here = place + "/" + e.getKey();
            if (Set.of("/apiVersion", "/kind", "/metadata/name", "/metadata/namespace")
                            .contains(here)
                    || e.getValue().isNull()) {
                return;
            }
            JsonNode value = e.getValue();
            String key = KEYED_LISTS.get(here.replaceAll("/[0-9]+", ""));
            if (value.isArray() && key != null) {
                ObjectNode list = out.putObject("f:" + e.getKey());
                for (JsonNode item : value) {
                    ObjectNode entry =
                            list.putObject("k:" + json.createObjectNode().set(key, item.get(key)));
                    entry.putObject(".");
                    entry.setAll(fieldsV1(item, here + "/0"));
                }
            } else if (value.isObject() && !value.isEmpty()) {
                ObjectNode fields = fieldsV1(value, here);
                if (here.equals("/metadata") || here.equals("/spec")) {
                    // the server records these parents only through the fields under them
                    if (!fields.isEmpty()) {
                        out.putObject("f:" + e.getKey()).setAll(fields);
                    }
                } else {
                    ObjectNode child = out.putObject("f:" + e.getKey());
                    child.putObject(".");
                    child.setAll(fields);
                }
            } else {
                out.putObject("f:" + e.getKey());
            }
        });
        return out;
    }

    /** Lists a real API server merges by key for the objects the bridge applies: place → key field. */
    private static final Map<String, String> KEYED_LISTS = Map.of(
            "/metadata/ownerReferences", "uid",
            "/webhooks", "name");

    private static void stripServerFields(ObjectNode object) {
        if (object.get("metadata") instanceof ObjectNode meta) {
            meta.remove(List.of("resourceVersion", "managedFields", "creationTimestamp", "uid", "generation"));
        }
        object.remove("status");
    }

    /**
     * Fields this manager applied before and no longer applies are released, and removed unless another manager
     * ({@code others}: their applied configurations at the same place) still applies them.
     */
    private static void removeDropped(ObjectNode target, JsonNode previous, JsonNode now, List<JsonNode> others) {
        List<String> fields = new ArrayList<>();
        previous.fieldNames().forEachRemaining(fields::add);
        fields.forEach(field -> {
            JsonNode before = previous.get(field);
            JsonNode after = now == null ? null : now.get(field);
            List<JsonNode> othersHere = new ArrayList<>();
            for (JsonNode other : others) {
                if (other.hasNonNull(field)) {
                    othersHere.add(other.get(field));
                }
            }
            if (after == null || after.isNull()) {
                if (before.isObject() && target.get(field) instanceof ObjectNode child) {
                    // release only the keys this manager owned; other managers' keys stay
                    removeDropped(child, before, null, othersHere);
                    if (child.isEmpty() && othersHere.isEmpty()) {
                        target.remove(field);
                    }
                } else if (othersHere.isEmpty()) {
                    target.remove(field);
                }
            } else if (before.isObject() && after.isObject() && target.get(field) instanceof ObjectNode child) {
                removeDropped(child, before, after, othersHere);
            } else if ("ownerReferences".equals(field)
                    && before.isArray()
                    && after.isArray()
                    && target.get(field) instanceof ArrayNode list) {
                // owner references are a map keyed by uid: entries this manager no longer applies go
                Set<String> kept = new HashSet<>();
                after.forEach(o -> kept.add(o.path("uid").asText()));
                othersHere.forEach(l -> l.forEach(o -> kept.add(o.path("uid").asText())));
                Set<String> dropped = new HashSet<>();
                before.forEach(o -> dropped.add(o.path("uid").asText()));
                dropped.removeAll(kept);
                for (int i = list.size() - 1; i >= 0; i--) {
                    if (dropped.contains(list.get(i).path("uid").asText())) {
                        list.remove(i);
                    }
                }
            }
        });
    }

    private static void mergeInto(ObjectNode target, ObjectNode source, String path) {
        source.fields().forEachRemaining(e -> {
            String here = path + "/" + e.getKey();
            JsonNode value = e.getValue();
            JsonNode existing = target.get(e.getKey());
            if ("/metadata/ownerReferences".equals(here) && value.isArray() && existing instanceof ArrayNode list) {
                target.set(e.getKey(), mergeByUid(list, (ArrayNode) value));
            } else if (value.isObject() && existing instanceof ObjectNode child) {
                mergeInto(child, (ObjectNode) value, here);
            } else {
                target.set(e.getKey(), value.deepCopy());
            }
        });
    }

    private static ArrayNode mergeByUid(ArrayNode existing, ArrayNode applied) {
        Map<String, JsonNode> byUid = new java.util.LinkedHashMap<>();
        existing.forEach(o -> byUid.put(o.path("uid").asText(), o));
        applied.forEach(o -> byUid.put(o.path("uid").asText(), o));
        ArrayNode out = existing.arrayNode();
        byUid.values().forEach(out::add);
        return out;
    }

    private RecordedRequest request(HttpMethod method, String path, JsonNode body) {
        Headers headers =
                Headers.builder().add("Content-Type", "application/json").build();
        return new RecordedRequest(
                "HTTP/1.1", method, path, headers, new Buffer(body.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static Map<String, String> parseQuery(String query) {
        Map<String, String> out = new HashMap<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(key, value);
        }
        return out;
    }

    private MockResponse status(int code, String reason, String message) {
        ObjectNode status = json.createObjectNode()
                .put("apiVersion", "v1")
                .put("kind", "Status")
                .put("status", "Failure")
                .put("message", message)
                .put("reason", reason)
                .put("code", code);
        return new MockResponse().setResponseCode(code).setBody(status.toString());
    }

    @Override
    public void reset() {
        super.reset();
        appliedByPath.clear();
    }
}

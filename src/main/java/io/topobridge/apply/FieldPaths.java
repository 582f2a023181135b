package io.topobridge.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Field paths in the notation of server-side apply's {@code managedFields} ({@code FieldsV1}): {@code f:name}
 * for an object field, {@code k:{"uid":"…"}} for an owner reference. Lists other than owner references are
 * atomic (Volcano declares its lists atomic), so a list is one leaf. Used to decide whether an apply would
 * change anything, without ever sending it.
 */
public final class FieldPaths {

    private static final List<String> IDENTITY = List.of("f:apiVersion", "f:kind");
    private static final List<String> OWNER_REFERENCES = List.of("f:metadata", "f:ownerReferences");

    private FieldPaths() {
    }

    /** Leaf paths of an applied object and their values; identity fields (name, namespace, kind) excluded. */
    public static Map<List<String>, JsonNode> leaves(JsonNode object) {
        Map<List<String>, JsonNode> out = new LinkedHashMap<>();
        collect(object, new ArrayList<>(), out);
        out.keySet().removeIf(p -> IDENTITY.contains(p.get(0)) || p.equals(List.of("f:metadata", "f:name"))
                || p.equals(List.of("f:metadata", "f:namespace")) || p.get(0).equals("f:status"));
        return out;
    }

    private static void collect(JsonNode node, List<String> path, Map<List<String>, JsonNode> out) {
        if (node.isObject() && !node.isEmpty()) {
            node.fields().forEachRemaining(e -> {
                if (!e.getValue().isNull()) {
                    path.add("f:" + e.getKey());
                    collect(e.getValue(), path, out);
                    path.remove(path.size() - 1);
                }
            });
        } else if (node.isArray() && path.equals(OWNER_REFERENCES)) {
            for (JsonNode ref : node) {
                path.add(ownerKey(ref.path("uid").asText()));
                out.put(List.copyOf(path), ref);
                path.remove(path.size() - 1);
            }
        } else if (!node.isObject()) {
            out.put(List.copyOf(path), node);
        }
    }

    static String ownerKey(String uid) {
        return "k:{\"uid\":\"" + uid + "\"}";
    }

    /** Leaf paths of a {@code fieldsV1} tree ({@code "."} markers dropped; a {@code k:} entry is one leaf). */
    public static Set<List<String>> fromFieldsV1(JsonNode fieldsV1) {
        Set<List<String>> out = new LinkedHashSet<>();
        walkFields(fieldsV1, new ArrayList<>(), out);
        return out;
    }

    private static void walkFields(JsonNode node, List<String> path, Set<List<String>> out) {
        List<String> children = new ArrayList<>();
        node.fieldNames().forEachRemaining(n -> {
            if (!".".equals(n)) {
                children.add(n);
            }
        });
        boolean keyed = !path.isEmpty() && path.get(path.size() - 1).startsWith("k:");
        if (children.isEmpty() || keyed) {
            if (!path.isEmpty()) {
                out.add(List.copyOf(path));
            }
            return;
        }
        for (String child : children) {
            path.add(child);
            walkFields(node.get(child), path, out);
            path.remove(path.size() - 1);
        }
    }

    /** A {@code fieldsV1} tree for a set of leaf paths. */
    public static ObjectNode toFieldsV1(Set<List<String>> paths) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        for (List<String> path : paths) {
            ObjectNode node = root;
            for (String segment : path) {
                node = node.has(segment) ? (ObjectNode) node.get(segment) : node.putObject(segment);
            }
        }
        return root;
    }

    /** The value at a path in an object, or {@code null}. */
    public static JsonNode at(JsonNode root, List<String> path) {
        JsonNode node = root;
        for (String segment : path) {
            if (node == null) {
                return null;
            }
            if (segment.startsWith("f:")) {
                node = node.get(segment.substring(2));
            } else if (segment.startsWith("k:") && node.isArray()) {
                String uid = segment.substring(segment.indexOf(":\"", 3) + 2, segment.length() - 2);
                JsonNode found = null;
                for (JsonNode item : node) {
                    if (uid.equals(item.path("uid").asText())) {
                        found = item;
                    }
                }
                node = found;
            } else {
                return null;
            }
        }
        return node;
    }

    /** Deep equality where numbers compare by value (an API server may echo 1 as 1.0 or as a long). */
    public static boolean sameValue(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            Iterator<Map.Entry<String, JsonNode>> it = a.fields();
            while (it.hasNext()) {
                var e = it.next();
                if (!sameValue(e.getValue(), b.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!sameValue(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /**
     * Whether applying {@code desired} as {@code manager} would leave {@code current} unchanged: every
     * desired field already holds its value, and the manager owns no field it no longer applies.
     */
    public static boolean upToDate(JsonNode desired, JsonNode current, String manager) {
        Map<List<String>, JsonNode> wanted = leaves(desired);
        for (var e : wanted.entrySet()) {
            if (!sameValue(e.getValue(), at(current, e.getKey()))) {
                return false;
            }
        }
        for (JsonNode entry : current.path("metadata").path("managedFields")) {
            if (manager.equals(entry.path("manager").asText()) && "Apply".equals(entry.path("operation").asText())
                    && !entry.path("subresource").asText().equals("status")) {
                for (List<String> owned : fromFieldsV1(entry.path("fieldsV1"))) {
                    if (!wanted.containsKey(owned) && wanted.keySet().stream().noneMatch(w -> startsWith(w, owned))) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean startsWith(List<String> path, List<String> prefix) {
        return path.size() >= prefix.size() && path.subList(0, prefix.size()).equals(prefix);
    }
}

package io.topobridge.apply;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Field paths in the notation of server-side apply's {@code managedFields} ({@code FieldsV1}), used to decide
 * whether an apply would change anything without sending it. A segment is {@code f:<field>}, {@code k:<keys>} for
 * an entry of a list merged by key (owner references by {@code uid}, webhooks by {@code name}), {@code v:<value>}
 * for an entry of a set, or {@code i:<index>}. A list is atomic (one leaf) unless the API server's own
 * {@code managedFields} on the object, or the built-in table of lists Kubernetes merges by key, say otherwise —
 * the same rule the server applies from the object's schema.
 */
public final class FieldPaths {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> IDENTITY = List.of("f:apiVersion", "f:kind");

    /** Lists of built-in types that merge by key whatever the object's managed fields show. */
    private static final Map<String, List<String>> BUILT_IN_KEYED = Map.of(
            "metadata.ownerReferences", List.of("uid"),
            "webhooks", List.of("name"));

    private static final Set<String> BUILT_IN_SETS = Set.of("metadata.finalizers");

    /** Scalars compare equal when equal, or both numbers of the same value. */
    private static final Comparator<JsonNode> SAME_VALUE = (a, b) ->
            a.equals(b) || a.isNumber() && b.isNumber() && a.decimalValue().compareTo(b.decimalValue()) == 0 ? 0 : 1;

    /**
     * How the lists of one object merge: by key (with the key fields), as a set, or atomically (also when indexed).
     * Places are written without keys, e.g. {@code webhooks[].rules}.
     */
    public record ListTypes(Map<String, List<String>> keyed, Set<String> sets) {

        /** The built-in table plus what every manager's entry in {@code object}'s {@code managedFields} shows. */
        public static ListTypes of(JsonNode object) {
            Map<String, List<String>> keyed = new HashMap<>(BUILT_IN_KEYED);
            Set<String> sets = new HashSet<>(BUILT_IN_SETS);
            if (object != null) {
                for (JsonNode entry : object.path("metadata").path("managedFields")) {
                    learn(entry.path("fieldsV1"), "", keyed, sets);
                }
            }
            return new ListTypes(Map.copyOf(keyed), Set.copyOf(sets));
        }

        private static void learn(JsonNode node, String place, Map<String, List<String>> keyed, Set<String> sets) {
            Iterator<String> names = node.fieldNames();
            while (names.hasNext()) {
                String name = names.next();
                JsonNode child = node.get(name);
                if (name.startsWith("f:")) {
                    learn(child, join(place, name.substring(2)), keyed, sets);
                } else if (name.startsWith("k:")) {
                    keyed.putIfAbsent(place, List.copyOf(parseKey(name).keySet()));
                    learn(child, place + "[]", keyed, sets);
                } else if (name.startsWith("v:")) {
                    sets.add(place);
                } else if (name.startsWith("i:")) {
                    learn(child, place + "[]", keyed, sets);
                }
            }
        }
    }

    private static String join(String place, String field) {
        return place.isEmpty() ? field : place + "." + field;
    }

    /** Leaf paths of an object to apply and their values; identity fields (name, namespace, kind) excluded. */
    public static Map<List<String>, JsonNode> leaves(JsonNode object, ListTypes types) {
        Map<List<String>, JsonNode> out = new LinkedHashMap<>();
        collect(object, "", new ArrayList<>(), types, out);
        out.keySet()
                .removeIf(p -> IDENTITY.contains(p.get(0))
                        || p.equals(List.of("f:metadata", "f:name"))
                        || p.equals(List.of("f:metadata", "f:namespace"))
                        || p.get(0).equals("f:status"));
        return out;
    }

    private static void collect(
            JsonNode node, String place, List<String> path, ListTypes types, Map<List<String>, JsonNode> out) {
        if (node.isObject() && !node.isEmpty()) {
            node.fields().forEachRemaining(e -> {
                if (!e.getValue().isNull()) {
                    path.add("f:" + e.getKey());
                    collect(e.getValue(), join(place, e.getKey()), path, types, out);
                    path.remove(path.size() - 1);
                }
            });
        } else if (node.isArray() && !node.isEmpty() && types.keyed().containsKey(place)) {
            List<String> keys = types.keyed().get(place);
            for (JsonNode item : node) {
                path.add(keySegment(item, keys));
                if (item.isObject() && !item.isEmpty()) {
                    collect(item, place + "[]", path, types, out);
                } else {
                    out.put(List.copyOf(path), item);
                }
                path.remove(path.size() - 1);
            }
        } else if (node.isArray() && !node.isEmpty() && types.sets().contains(place)) {
            for (JsonNode item : node) {
                path.add("v:" + item.toString());
                out.put(List.copyOf(path), item);
                path.remove(path.size() - 1);
            }
        } else if (!path.isEmpty()) {
            out.put(List.copyOf(path), node);
        }
    }

    /** The {@code k:} segment of a list entry: its key fields as JSON with sorted keys. */
    static String keySegment(JsonNode item, List<String> keys) {
        Map<String, JsonNode> values = new TreeMap<>();
        for (String key : keys) {
            if (item.has(key)) {
                values.put(key, item.get(key));
            }
        }
        return "k:" + canonical(values);
    }

    private static String canonical(Map<String, JsonNode> values) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        values.forEach(out::set);
        return out.toString();
    }

    private static Map<String, JsonNode> parseKey(String segment) {
        try {
            JsonNode parsed = JSON.readTree(segment.substring(2));
            Map<String, JsonNode> out = new TreeMap<>();
            parsed.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
            return out;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a managed-fields key: " + segment, e);
        }
    }

    /** A segment in canonical form ({@code k:} keys sorted), so the server's and ours compare equal. */
    static String canonicalSegment(String segment) {
        return segment.startsWith("k:") ? "k:" + canonical(parseKey(segment)) : segment;
    }

    /**
     * Leaf paths of a {@code fieldsV1} tree: every node whose only child is the {@code "."} marker (or that has
     * none), including the fields inside keyed list entries.
     */
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
        if (children.isEmpty()) {
            if (!path.isEmpty()) {
                out.add(List.copyOf(path));
            }
            return;
        }
        for (String child : children) {
            path.add(canonicalSegment(child));
            walkFields(node.get(child), path, out);
            path.remove(path.size() - 1);
        }
    }

    /** The value at a path in an object, or {@code null}. */
    public static JsonNode at(JsonNode root, List<String> path) {
        JsonNode node = root;
        for (String segment : path) {
            if (node == null || node.isNull()) {
                return null;
            }
            if (segment.startsWith("f:")) {
                node = node.get(segment.substring(2));
            } else if (segment.startsWith("k:") && node.isArray()) {
                node = entry(node, parseKey(segment));
            } else if (segment.startsWith("v:") && node.isArray()) {
                node = member(node, segment.substring(2));
            } else if (segment.startsWith("i:") && node.isArray()) {
                node = node.get(Integer.parseInt(segment.substring(2)));
            } else {
                return null;
            }
        }
        return node;
    }

    /** The last entry of the list with these key values. */
    private static JsonNode entry(JsonNode list, Map<String, JsonNode> key) {
        JsonNode found = null;
        for (JsonNode item : list) {
            if (key.entrySet().stream().allMatch(e -> sameValue(e.getValue(), item.get(e.getKey())))) {
                found = item;
            }
        }
        return found;
    }

    private static JsonNode member(JsonNode list, String value) {
        try {
            JsonNode wanted = JSON.readTree(value);
            for (JsonNode item : list) {
                if (sameValue(wanted, item)) {
                    return item;
                }
            }
            return null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** Deep equality where numbers compare by value (an API server may echo 1 as 1.0 or as a long). */
    public static boolean sameValue(JsonNode a, JsonNode b) {
        return a == null || b == null ? a == b : a.equals(SAME_VALUE, b);
    }

    /**
     * Whether applying {@code desired} as {@code manager} would leave {@code current} unchanged: every desired
     * field already holds its value and is the manager's (a value someone else set, e.g. a mutating webhook in
     * another controller's write, would be dropped when that controller rewrites it), and the manager owns no field
     * it no longer applies.
     */
    public static boolean upToDate(JsonNode desired, JsonNode current, String manager) {
        Map<List<String>, JsonNode> wanted = leaves(desired, ListTypes.of(current));
        for (var e : wanted.entrySet()) {
            if (!sameValue(e.getValue(), at(current, e.getKey()))) {
                return false;
            }
        }
        Set<List<String>> owned = new LinkedHashSet<>();
        for (JsonNode entry : current.path("metadata").path("managedFields")) {
            if (manager.equals(entry.path("manager").asText())
                    && "Apply".equals(entry.path("operation").asText())
                    && !entry.path("subresource").asText().equals("status")) {
                owned.addAll(fromFieldsV1(entry.path("fieldsV1")));
            }
        }
        return owned.stream().allMatch(path -> stillWanted(path, wanted.keySet()))
                && wanted.keySet().stream().allMatch(path -> covered(path, owned));
    }

    /** A desired leaf is the manager's when it owns that leaf or a field holding it (an atomic map or list). */
    private static boolean covered(List<String> leaf, Set<List<String>> owned) {
        return owned.contains(leaf) || owned.stream().anyMatch(path -> startsWith(leaf, path));
    }

    /** An owned leaf is still wanted when it is applied, lies under an applied leaf, or holds applied leaves. */
    private static boolean stillWanted(List<String> owned, Set<List<String>> wanted) {
        return wanted.contains(owned) || wanted.stream().anyMatch(w -> startsWith(w, owned) || startsWith(owned, w));
    }

    private static boolean startsWith(List<String> path, List<String> prefix) {
        return path.size() >= prefix.size() && path.subList(0, prefix.size()).equals(prefix);
    }
}

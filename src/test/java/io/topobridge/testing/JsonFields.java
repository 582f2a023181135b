package io.topobridge.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/** The fields of a JSON object as paths, and a copy with one field replaced: how hostile-input tests visit a tree. */
public final class JsonFields {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonFields() {}

    /**
     * Every path below {@code at} to a field or array element, objects and arrays walked into; an object's field is
     * left out (with all below it) unless {@code walk} accepts its parent path and its name.
     */
    public static List<List<Object>> paths(JsonNode node, List<Object> at, BiPredicate<List<Object>, String> walk) {
        List<List<Object>> out = new ArrayList<>();
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(name -> {
                if (walk.test(at, name)) {
                    List<Object> path = new ArrayList<>(at);
                    path.add(name);
                    out.add(path);
                    out.addAll(paths(node.get(name), path, walk));
                }
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<Object> path = new ArrayList<>(at);
                path.add(i);
                out.add(path);
                out.addAll(paths(node.get(i), path, walk));
            }
        }
        return out;
    }

    /** A copy of {@code base} with the field at {@code path} set to {@code value} (null: JSON null). */
    public static ObjectNode with(ObjectNode base, List<Object> path, Object value) {
        ObjectNode copy = base.deepCopy();
        JsonNode parent = copy;
        for (int i = 0; i < path.size() - 1; i++) {
            Object step = path.get(i);
            parent = step instanceof Integer index ? parent.get(index) : parent.get((String) step);
        }
        JsonNode replacement = value == null ? JSON.nullNode() : JSON.valueToTree(value);
        Object last = path.get(path.size() - 1);
        if (parent instanceof ArrayNode array) {
            array.set((Integer) last, replacement);
        } else {
            ((ObjectNode) parent).set((String) last, replacement);
        }
        return copy;
    }
}

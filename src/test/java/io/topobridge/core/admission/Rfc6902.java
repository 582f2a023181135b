package io.topobridge.core.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A strict RFC 6902 applier for tests (add, remove, replace), decoding pointers as RFC 6901 section 4 says
 * ({@code ~1} before {@code ~0}), as the Kubernetes API server does. It fails where the RFC says an operation
 * is an error: a missing parent, removing or replacing a missing member.
 */
public final class Rfc6902 {

    private Rfc6902() {}

    /** {@code patch} applied to a copy of {@code document}. */
    public static JsonNode apply(JsonNode patch, JsonNode document) {
        JsonNode result = document.deepCopy();
        for (JsonNode op : patch) {
            result = applyOne(op, result);
        }
        return result;
    }

    static List<String> tokens(String pointer) {
        if (pointer.isEmpty()) {
            return List.of();
        }
        if (!pointer.startsWith("/")) {
            throw new IllegalArgumentException("pointer does not start with /: " + pointer);
        }
        List<String> out = new ArrayList<>();
        for (String raw : pointer.substring(1).split("/", -1)) {
            if (raw.matches(".*~([^01]|$).*")) {
                throw new IllegalArgumentException("invalid escape in " + pointer);
            }
            out.add(raw.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }

    private static JsonNode applyOne(JsonNode op, JsonNode document) {
        String kind = op.path("op").asText();
        List<String> path = tokens(op.path("path").asText());
        if (path.isEmpty()) {
            if (kind.equals("add") || kind.equals("replace")) {
                return op.get("value").deepCopy();
            }
            throw new IllegalArgumentException("cannot " + kind + " the root");
        }
        JsonNode parent = document;
        for (String token : path.subList(0, path.size() - 1)) {
            parent = parent.isArray() ? parent.get(Integer.parseInt(token)) : parent.get(token);
            if (parent == null || !(parent.isObject() || parent.isArray())) {
                throw new IllegalArgumentException(kind + " " + op.path("path").asText() + ": parent does not exist");
            }
        }
        String last = path.get(path.size() - 1);
        if (parent instanceof ObjectNode object) {
            switch (kind) {
                case "add" -> object.set(last, op.get("value").deepCopy());
                case "replace", "remove" -> {
                    if (!object.has(last)) {
                        throw new IllegalArgumentException(
                                kind + " " + op.path("path").asText() + ": no such member");
                    }
                    if (kind.equals("remove")) {
                        object.remove(last);
                    } else {
                        object.set(last, op.get("value").deepCopy());
                    }
                }
                default -> throw new IllegalArgumentException("unsupported op " + kind);
            }
        } else {
            ArrayNode array = (ArrayNode) parent;
            int index = last.equals("-") ? array.size() : Integer.parseInt(last);
            switch (kind) {
                case "add" -> array.insert(index, op.get("value").deepCopy());
                case "replace" -> array.set(index, op.get("value").deepCopy());
                case "remove" -> array.remove(index);
                default -> throw new IllegalArgumentException("unsupported op " + kind);
            }
        }
        return document;
    }
}

package io.topobridge.core.admission;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * RFC 6902 JSON Patch between two JSON documents, as an admission webhook answers it. Objects are compared
 * member by member; an object member that is new is added whole (so an absent {@code annotations} map becomes
 * one {@code add} of the map, never an {@code add} below a path that does not exist); arrays and scalars that
 * differ are replaced whole. Keys are escaped as JSON Pointer requires ({@code /} as {@code ~1}, {@code ~} as
 * {@code ~0}), which matters for keys such as {@code scheduling.k8s.io/group-name}.
 */
public final class JsonPatch {

    /** One patch operation; {@code value} is absent for {@code remove}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Operation(String op, String path, JsonNode value) {
        public Operation {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(path, "path");
        }
    }

    /** The operations that turn {@code from} into {@code to}; empty when they are equal. */
    public static List<Operation> diff(JsonNode from, JsonNode to) {
        List<Operation> out = new ArrayList<>();
        if (!Objects.equals(from, to)) {
            diff(from, to, "", out);
        }
        return List.copyOf(out);
    }

    private static void diff(JsonNode from, JsonNode to, String path, List<Operation> out) {
        if (from == null || from.isMissingNode()) {
            out.add(new Operation("add", path, to.deepCopy()));
            return;
        }
        if (to == null || to.isMissingNode()) {
            out.add(new Operation("remove", path, null));
            return;
        }
        if (from.equals(to)) {
            return;
        }
        if (!from.isObject() || !to.isObject()) {
            out.add(new Operation("replace", path, to.deepCopy()));
            return;
        }
        from.fieldNames().forEachRemaining(name -> {
            if (!to.has(name)) {
                out.add(new Operation("remove", path + "/" + escape(name), null));
            }
        });
        to.fields()
                .forEachRemaining(field ->
                        diff(from.get(field.getKey()), field.getValue(), path + "/" + escape(field.getKey()), out));
    }

    /** One reference token of a JSON Pointer (RFC 6901): {@code ~} becomes {@code ~0}, {@code /} becomes {@code ~1}. */
    public static String escape(String token) {
        return token.indexOf('~') < 0 && token.indexOf('/') < 0
                ? token
                : token.replace("~", "~0").replace("/", "~1");
    }

    /** The operations as the JSON array an AdmissionReview response carries (base64-encoded). */
    public static ArrayNode toJson(List<Operation> operations) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (Operation op : operations) {
            var node = array.addObject().put("op", op.op()).put("path", op.path());
            if (op.value() != null) {
                node.set("value", op.value());
            }
        }
        return array;
    }
}

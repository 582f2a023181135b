package io.topobridge.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;

/** Prints an object as one YAML document ({@code ---} first), without nulls or an empty status. */
public final class YamlPrinter {

    // plain scalars where unambiguous; strings that look like numbers or booleans stay quoted
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build();

    public static String print(KubernetesSerialization serialization, Object object) {
        JsonNode tree = tree(serialization, object);
        try {
            return YAML.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot print " + tree.path("kind").asText(), e);
        }
    }

    /** The object as the tree that is printed (as YAML here, as JSON by {@code render -o json}). */
    public static JsonNode tree(KubernetesSerialization serialization, Object object) {
        JsonNode tree = serialization.convertValue(object, JsonNode.class);
        prune(tree);
        if (tree instanceof ObjectNode root && root.path("status").isEmpty()) {
            root.remove("status");
        }
        return tree;
    }

    private static void prune(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> nulls = new ArrayList<>();
            object.fields().forEachRemaining(e -> {
                if (e.getValue().isNull()) {
                    nulls.add(e.getKey());
                } else {
                    prune(e.getValue());
                }
            });
            object.remove(nulls);
        } else if (node.isArray()) {
            node.forEach(YamlPrinter::prune);
        }
    }
}

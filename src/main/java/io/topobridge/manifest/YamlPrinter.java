package io.topobridge.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;

/** Prints an object as one YAML document ({@code ---} first), without nulls or an empty status. */
public final class YamlPrinter {

    private YamlPrinter() {
    }

    public static String print(KubernetesSerialization serialization, Object object) {
        JsonNode tree = serialization.convertValue(object, JsonNode.class);
        prune(tree);
        if (tree instanceof ObjectNode root && root.path("status").isEmpty()) {
            root.remove("status");
        }
        return serialization.asYaml(tree);
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

package io.topobridge.core.render.expand;

import com.fasterxml.jackson.databind.JsonNode;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.kind.Workload;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Kubernetes label selectors ({@code matchLabels} and {@code matchExpressions}) read from a spec and matched. */
public final class Selectors {

    private Selectors() {}

    /** A selector read from {@code node}; an absent or empty selector matches everything, as in Kubernetes. */
    public record Selector(Map<String, String> matchLabels, JsonNode expressions, String field) {

        public boolean matches(Map<String, String> labels) {
            for (var e : matchLabels.entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
            for (int i = 0; i < expressions.size(); i++) {
                String at = field + ".matchExpressions[" + i + "]";
                JsonNode expression = Workload.object(expressions.get(i), at);
                String key = Workload.text(expression.get("key"), at + ".key", "");
                String operator = Workload.text(expression.get("operator"), at + ".operator", "");
                Set<String> values = new HashSet<>();
                JsonNode list = Workload.array(expression.get("values"), at + ".values");
                for (int j = 0; j < list.size(); j++) {
                    values.add(Workload.text(list.get(j), at + ".values[" + j + "]", ""));
                }
                boolean has = labels.containsKey(key);
                boolean ok = switch (operator) {
                    case "In" -> has && values.contains(labels.get(key));
                    case "NotIn" -> !has || !values.contains(labels.get(key));
                    case "Exists" -> has;
                    case "DoesNotExist" -> !has;
                    default ->
                        throw new IllegalArgumentException(
                                at + ".operator=" + UserText.quote(operator) + " is not a selector operator");
                };
                if (!ok) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The selector at {@code node}; {@code required} refuses an absent one (the controller would fail on it). */
    public static Selector read(JsonNode node, String field, boolean required) {
        if (required && (node == null || node.isNull() || node.isMissingNode())) {
            throw new IllegalArgumentException(field + " is missing");
        }
        JsonNode selector = Workload.object(node, field);
        return new Selector(
                Workload.strings(selector.get("matchLabels"), field + ".matchLabels"),
                Workload.array(selector.get("matchExpressions"), field + ".matchExpressions"),
                field);
    }
}

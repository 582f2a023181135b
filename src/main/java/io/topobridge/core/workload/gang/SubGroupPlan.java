package io.topobridge.core.workload.gang;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code subGroupPolicy} entry: pods matching {@code matchLabels} (and carrying every key in
 * {@code existsKeys}) are split into subgroups by the values of {@code matchLabelKeys}, each of
 * {@code size} pods. Only labels the workload's controller (or the bridge's admission) really stamps are used.
 */
public record SubGroupPlan(String name, Map<String, String> matchLabels, List<String> existsKeys,
        List<String> matchLabelKeys, int size) {
    public SubGroupPlan {
        Objects.requireNonNull(name, "name");
        matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
        existsKeys = existsKeys == null ? List.of() : List.copyOf(existsKeys);
        matchLabelKeys = List.copyOf(matchLabelKeys);
        if (matchLabelKeys.isEmpty()) {
            // Volcano: a policy with empty matchLabelKeys captures no pod
            throw new IllegalArgumentException("subgroup " + name + " needs matchLabelKeys");
        }
    }
}

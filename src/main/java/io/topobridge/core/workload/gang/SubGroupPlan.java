package io.topobridge.core.workload.gang;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code subGroupPolicy} entry: pods matching {@code matchLabels} (carrying every key in {@code existsKeys} and
 * none of the values in {@code excluded}) are split into subgroups by the values of {@code matchLabelKeys}, each of
 * {@code size} pods. Only labels the workload's controller (or the bridge's admission) really stamps are used.
 * {@code bestEffort}: the pods request nothing, so Volcano places them by backfill, outside any topology.
 * {@code wholeRole}: the subgroup is all replicas of a role whose instances are single pods (Volcano has no smaller
 * unit to constrain), so a subgroup tier packs the whole role into one domain.
 */
public record SubGroupPlan(
        String name,
        Map<String, String> matchLabels,
        List<String> existsKeys,
        Map<String, List<String>> excluded,
        List<String> matchLabelKeys,
        int size,
        boolean bestEffort,
        boolean wholeRole) {
    public SubGroupPlan {
        Objects.requireNonNull(name, "name");
        matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
        existsKeys = existsKeys == null ? List.of() : List.copyOf(existsKeys);
        excluded = excluded == null ? Map.of() : Map.copyOf(excluded);
        matchLabelKeys = List.copyOf(matchLabelKeys);
        if (matchLabelKeys.isEmpty()) {
            // Volcano: a policy with empty matchLabelKeys captures no pod
            throw new IllegalArgumentException("subgroup " + name + " needs matchLabelKeys");
        }
    }

    /** The same subgroup without the pods whose {@code key} is one of {@code values}, now {@code size} pods. */
    public SubGroupPlan excluding(String key, List<String> values, int size) {
        return new SubGroupPlan(
                name,
                matchLabels,
                existsKeys,
                Map.of(key, List.copyOf(values)),
                matchLabelKeys,
                size,
                bestEffort,
                wholeRole);
    }

    /** The same subgroup, marked as pods that request nothing. */
    public SubGroupPlan bestEffort(boolean value) {
        return new SubGroupPlan(name, matchLabels, existsKeys, excluded, matchLabelKeys, size, value, wholeRole);
    }

    /** The same subgroup, marked as a whole role of single-pod instances. */
    public SubGroupPlan wholeRole(boolean value) {
        return new SubGroupPlan(name, matchLabels, existsKeys, excluded, matchLabelKeys, size, bestEffort, value);
    }
}

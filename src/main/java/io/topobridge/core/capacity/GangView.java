package io.topobridge.core.capacity;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A gang as its PodGroup and pods show it: the PodGroup's phase and Volcano's own conditions, the topology it asks
 * for ({@code mode} hard or soft, {@code highestTier} null for none), its size and resources, its subgroup policies,
 * its pods and the workload it belongs to ({@code workload}: {@code Kind/name}, or empty); {@code chosenTier}: why
 * {@code highest-tier: auto} chose its tier (the PodGroup's {@code topobridge.io/chosen-tier}), or null;
 * {@code draDevices}: the devices its pods claim through DRA as the bridge counted them (the PodGroup's
 * {@code topobridge.io/dra-devices}), which its {@code minResources} leave out.
 */
public record GangView(
        String namespace,
        String podGroup,
        String workload,
        String phase,
        int minMember,
        Amounts minResources,
        String mode,
        Integer highestTier,
        List<SubGroup> subGroups,
        List<Condition> conditions,
        Instant created,
        List<PodView> pods,
        String chosenTier,
        Amounts draDevices) {

    /** One subgroup policy: pods matching the selector, split by the values of {@code matchLabelKeys}. */
    public record SubGroup(
            String name,
            Map<String, String> matchLabels,
            List<Requirement> matchExpressions,
            List<String> matchLabelKeys,
            Integer highestTier) {
        public SubGroup {
            matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
            matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
            matchLabelKeys = matchLabelKeys == null ? List.of() : List.copyOf(matchLabelKeys);
        }

        /** Whether a pod's labels match the selector (an empty selector matches every pod). */
        public boolean selects(Map<String, String> labels) {
            return matchLabels.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())))
                    && matchExpressions.stream().allMatch(r -> r.matches(labels));
        }
    }

    /** One label selector requirement ({@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist}). */
    public record Requirement(String key, String operator, List<String> values) {
        public Requirement {
            values = values == null ? List.of() : List.copyOf(values);
        }

        boolean matches(Map<String, String> labels) {
            return holds(operator, labels.get(key), values);
        }

        /** Whether a label's value (null: the label is absent) meets {@code operator} over {@code values}. */
        public static boolean holds(String operator, String value, List<String> values) {
            return switch (operator) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> false;
            };
        }
    }

    /** One of Volcano's PodGroup conditions. */
    public record Condition(String type, String status, String reason, String message, String lastTransitionTime) {}

    public GangView {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(podGroup, "podGroup");
        workload = workload == null ? "" : workload;
        phase = phase == null ? "" : phase;
        minResources = minResources == null ? Amounts.NONE : minResources;
        draDevices = draDevices == null ? Amounts.NONE : draDevices;
        mode = mode == null ? "" : mode;
        subGroups = subGroups == null ? List.of() : List.copyOf(subGroups);
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        pods = pods == null ? List.of() : List.copyOf(pods);
    }

    /** Whether the gang asks for a topology Volcano enforces (hard, with a tier). */
    public boolean hard() {
        return highestTier != null && !"soft".equals(mode);
    }

    /**
     * Whether every pod of the gang is bound, and there are at least {@code minMember} of them; pods being deleted are
     * no longer members (a pod Terminating on a node that went down would otherwise keep the gang where it was).
     */
    public boolean allBound() {
        List<PodView> live = livePods();
        return !live.isEmpty() && live.size() >= minMember && live.stream().allMatch(PodView::bound);
    }

    public List<PodView> livePods() {
        return pods.stream().filter(p -> !p.deleting()).toList();
    }
}

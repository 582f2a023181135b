package io.topobridge.core.capacity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Where Volcano put a gang whose pods are all bound: the lowest tier whose single HyperNode holds all its pods, the
 * same per subgroup, and for a gang of several roles (prefill/decode) the tier at which each pair of roles meets,
 * the tier their traffic (KV-cache transfer) has to cross. A {@code null} tier: no single HyperNode holds them.
 */
public record Achieved(Level gang, Map<String, Level> subGroups, List<RolePair> roles) {

    /** The annotation value for "no single HyperNode holds the pods". */
    public static final String NONE = "none";

    /** A tier reached: its number and name and the HyperNode; all null when no single HyperNode holds the pods. */
    public record Level(Integer tier, String tierName, String hyperNode) {
        static Level of(Optional<HyperNodeView> h) {
            return h.map(v -> new Level(v.tier(), v.tierName(), v.name())).orElse(new Level(null, null, null));
        }

        /** The number, or {@value Achieved#NONE}. */
        public String value() {
            return tier == null ? NONE : String.valueOf(tier);
        }

        /** {@code tier 2 (leaf, leaf-s1)} or {@code no single HyperNode}. */
        public String describe() {
            return tier == null
                    ? "no single HyperNode"
                    : "tier " + tier + (tierName == null || tierName.isEmpty() ? "" : " (" + tierName + ")") + " in "
                            + hyperNode;
        }
    }

    /** Two roles (task-specs) and the lowest HyperNode holding both. */
    public record RolePair(String a, String b, Level meet) {}

    public Achieved {
        subGroups = Map.copyOf(subGroups);
        roles = List.copyOf(roles);
    }

    /** The placement of a gang whose pods are all bound; empty while any is pending. */
    public static Optional<Achieved> of(GangView gang, Forest forest) {
        if (!gang.allBound()) {
            return Optional.empty();
        }
        List<PodView> live = gang.livePods();
        Level whole =
                Level.of(forest.lowestCommon(live.stream().map(PodView::node).toList()));
        Map<String, Level> subGroups = new TreeMap<>();
        splitBySubGroup(gang).forEach((key, nodes) -> subGroups.put(key, Level.of(forest.lowestCommon(nodes))));
        Map<String, List<String>> byRole = new TreeMap<>();
        for (PodView pod : live) {
            if (pod.taskSpec() != null && !pod.taskSpec().isEmpty()) {
                byRole.computeIfAbsent(pod.taskSpec(), k -> new ArrayList<>()).add(pod.node());
            }
        }
        List<RolePair> roles = new ArrayList<>();
        List<String> names = new ArrayList<>(byRole.keySet());
        for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
                List<String> both = new ArrayList<>(byRole.get(names.get(i)));
                both.addAll(byRole.get(names.get(j)));
                roles.add(new RolePair(names.get(i), names.get(j), Level.of(forest.lowestCommon(both))));
            }
        }
        return Optional.of(new Achieved(whole, subGroups, roles));
    }

    /**
     * The nodes of each subgroup instance, as Volcano splits the pods: the first policy whose selector matches a pod
     * takes it, keyed by the policy name and the values of its {@code matchLabelKeys}; a policy without keys, or a
     * pod lacking one of them, forms no subgroup.
     */
    static Map<String, List<String>> splitBySubGroup(GangView gang) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (PodView pod : gang.livePods()) {
            for (GangView.SubGroup policy : gang.subGroups()) {
                if (!policy.selects(pod.labels())) {
                    continue;
                }
                if (policy.matchLabelKeys().isEmpty()
                        || !policy.matchLabelKeys().stream().allMatch(pod.labels()::containsKey)) {
                    break;
                }
                StringBuilder key = new StringBuilder(policy.name());
                policy.matchLabelKeys()
                        .forEach(k -> key.append('/').append(pod.labels().get(k)));
                out.computeIfAbsent(key.toString(), k -> new ArrayList<>()).add(pod.node());
                break;
            }
        }
        return out;
    }

    /** The subgroup instances by key with their tier value, e.g. {@code decode/0=1}. */
    public String subGroupSummary() {
        return new TreeMap<>(subGroups)
                .entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue().value())
                        .collect(Collectors.joining(","));
    }
}

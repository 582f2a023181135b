package io.topobridge.core.topology;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The tiers workloads may refer to: numbers {@code 1..top()}, the names users write in
 * {@code topobridge.io/highest-tier}, and the node label keys that name each tier (what other schedulers' topology
 * keys are). In {@code auto} mode different label schemes may give one name, or one key, different numbers; such a
 * name or key is ambiguous and must not be resolved.
 *
 * <p>Names and keys are derived from the tiers' names and the configured label schemes only, never from which nodes
 * formed which tree, so the catalog a follower rebuilds from the HyperNodes the leader wrote is the leader's own. A
 * folded NVLink tier (no domain holds two partitions, so partition and domain are one tier) answers to both
 * {@code nvlink} and {@code nvlink-domain}.
 */
public final class TierCatalog {

    /** One named tier. */
    public record Tier(int number, String name) {}

    public static final TierCatalog EMPTY = new TierCatalog(List.of(), List.of());

    private final int top;
    private final Map<String, SortedSet<Integer>> numbersByName;
    private final Map<Integer, List<String>> keysByNumber;
    private final Map<String, SortedSet<Integer>> numbersByKey;
    private final List<LabelScheme> schemes;

    private TierCatalog(Collection<Tier> tiers, List<LabelScheme> schemes) {
        var byName = new TreeMap<String, SortedSet<Integer>>();
        int max = 0;
        for (Tier tier : tiers) {
            if (tier.number() < 1) {
                throw new IllegalArgumentException("tier numbers start at 1, got " + tier.number());
            }
            max = Math.max(max, tier.number());
            if (tier.name() != null && !tier.name().isEmpty()) {
                byName.computeIfAbsent(tier.name(), k -> new TreeSet<>()).add(tier.number());
            }
        }
        // a tier named nvlink is NVLink (not a user's name) only when some scheme has an NVLink tier
        boolean folded = byName.containsKey(LabelSchemes.NVLINK_TIER)
                && !byName.containsKey(LabelSchemes.NVLINK_DOMAIN_TIER)
                && schemes.stream().flatMap(s -> s.tiers().stream()).anyMatch(LabelScheme.TierSpec::nvlink);
        Map<String, Set<String>> keysByName = LabelSchemes.keysByTierName(schemes, folded);
        var byNumber = new TreeMap<Integer, SortedSet<String>>();
        var byKey = new TreeMap<String, SortedSet<Integer>>();
        byName.forEach((name, numbers) -> {
            for (String key : keysByName.getOrDefault(name, Set.of())) {
                byKey.computeIfAbsent(key, k -> new TreeSet<>()).addAll(numbers);
                numbers.forEach(
                        n -> byNumber.computeIfAbsent(n, k -> new TreeSet<>()).add(key));
            }
        });
        if (folded) {
            byName.put(LabelSchemes.NVLINK_DOMAIN_TIER, new TreeSet<>(byName.get(LabelSchemes.NVLINK_TIER)));
        }
        byName.replaceAll((k, v) -> Collections.unmodifiableSortedSet(v));
        byKey.replaceAll((k, v) -> Collections.unmodifiableSortedSet(v));
        var keys = new TreeMap<Integer, List<String>>();
        byNumber.forEach((n, set) -> keys.put(n, List.copyOf(set)));
        this.top = max;
        this.numbersByName = Collections.unmodifiableMap(byName);
        this.keysByNumber = Collections.unmodifiableMap(keys);
        this.numbersByKey = Collections.unmodifiableMap(byKey);
        this.schemes = List.copyOf(schemes);
    }

    /** The tiers with the names and label keys the configured label schemes give them. */
    public static TierCatalog of(Collection<Tier> tiers, List<LabelScheme> schemes) {
        return tiers.isEmpty() ? EMPTY : new TierCatalog(tiers, schemes);
    }

    /** The highest tier number; 0 when no tier is known. */
    public int top() {
        return top;
    }

    public boolean isEmpty() {
        return top == 0;
    }

    /** The number of a tier name when it names exactly one tier. */
    public Optional<Integer> number(String name) {
        return single(numbers(name));
    }

    /** Every number a name stands for (more than one: ambiguous; none: unknown). */
    public Set<Integer> numbers(String name) {
        return numbersByName.getOrDefault(name, Collections.emptySortedSet());
    }

    /** Known names (a folded NVLink tier's two among them), sorted. */
    public Set<String> names() {
        return numbersByName.keySet();
    }

    /** The tier a node label key names when it names exactly one (e.g. {@code fabric.topograph.run/tier-0}). */
    public Optional<Integer> numberOfLabelKey(String labelKey) {
        return single(numbersOfLabelKey(labelKey));
    }

    private static Optional<Integer> single(Set<Integer> numbers) {
        return numbers.size() == 1 ? Optional.of(numbers.iterator().next()) : Optional.empty();
    }

    /** Every tier a node label key names (more than one: ambiguous; none: no tier reads the key). */
    public Set<Integer> numbersOfLabelKey(String labelKey) {
        return numbersByKey.getOrDefault(labelKey, Collections.emptySortedSet());
    }

    /**
     * The node label keys whose values group nodes as tier {@code tier} does, sorted (empty for a tier no label names
     * whole, e.g. an NVLink domain known only from the UUID part of a GPU clique).
     */
    public List<String> labelKeys(int tier) {
        return keysByNumber.getOrDefault(tier, List.of());
    }

    /**
     * How nodes would get a tier of this name under the catalog's label schemes: {@code key or key (scheme)} per
     * scheme that has one, in the schemes' order; empty when none has.
     */
    public List<String> labelsMaking(String name) {
        return LabelSchemes.labelsMaking(schemes, name);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TierCatalog other
                && top == other.top
                && numbersByName.equals(other.numbersByName)
                && numbersByKey.equals(other.numbersByKey);
    }

    @Override
    public int hashCode() {
        return 31 * top + numbersByName.hashCode();
    }

    @Override
    public String toString() {
        return "TierCatalog{top=" + top + ", names=" + numbersByName + "}";
    }
}

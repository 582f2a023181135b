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
 * The tiers workloads may refer to: numbers {@code 1..top()} and the names users write in
 * {@code topobridge.io/highest-tier}. In {@code auto} mode different label schemes may give one name
 * different numbers; such a name is ambiguous and must not be resolved.
 */
public final class TierCatalog {

    /** One named tier. */
    public record Tier(int number, String name) {}

    public static final TierCatalog EMPTY = new TierCatalog(List.of());

    private final int top;
    private final Map<String, SortedSet<Integer>> numbersByName;

    private TierCatalog(Collection<Tier> tiers) {
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
        byName.replaceAll((k, v) -> Collections.unmodifiableSortedSet(v));
        this.top = max;
        this.numbersByName = Collections.unmodifiableMap(byName);
    }

    public static TierCatalog of(Collection<Tier> tiers) {
        return tiers.isEmpty() ? EMPTY : new TierCatalog(tiers);
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
        SortedSet<Integer> numbers = numbersByName.get(name);
        return numbers != null && numbers.size() == 1 ? Optional.of(numbers.first()) : Optional.empty();
    }

    /** Every number a name stands for (more than one: ambiguous; none: unknown). */
    public Set<Integer> numbers(String name) {
        return numbersByName.getOrDefault(name, Collections.emptySortedSet());
    }

    /** Known names, sorted. */
    public Set<String> names() {
        return numbersByName.keySet();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TierCatalog other && top == other.top && numbersByName.equals(other.numbersByName);
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

package io.topobridge.core.diagnosis;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The domains of every tier and what each could hold: per HyperNode the allocatable resources of the nodes under it
 * (its size when empty) and what is free there now (allocatable minus the requests of the pods bound there), with
 * the share of that use each gang has, so a gang that already runs is not counted as crowding itself out. The
 * input of {@code highest-tier: auto}; the same value in the controller, at admission and in {@code render}.
 */
public final class TierDomains {

    /** One HyperNode: its name, its size when empty, what is free now and the use of each gang ({@code ns/podgroup}). */
    public record Domain(String name, Amounts allocatable, Amounts free, Map<String, Amounts> gangUse) {
        public Domain {
            Objects.requireNonNull(name, "name");
            allocatable = allocatable == null ? Amounts.NONE : allocatable;
            free = free == null ? Amounts.NONE : free;
            gangUse = gangUse == null ? Map.of() : Map.copyOf(gangUse);
        }

        /** What is free here for one gang: the free capacity plus what that gang itself already uses here. */
        public Amounts freeFor(String gang) {
            Amounts own = gang == null ? null : gangUse.get(gang);
            return own == null ? free : free.plus(own);
        }
    }

    /** No domain known (no HyperNodes, or no input for them). */
    public static final TierDomains NONE = new TierDomains(Map.of(), Map.of());

    private final Map<Integer, List<Domain>> byTier;
    private final Map<Integer, String> names;
    private final Forest forest;
    private final Map<String, List<PodView>> boundByGang;

    public TierDomains(Map<Integer, List<Domain>> byTier, Map<Integer, String> names) {
        this(byTier, names, Forest.EMPTY, Map.of());
    }

    private TierDomains(
            Map<Integer, List<Domain>> byTier,
            Map<Integer, String> names,
            Forest forest,
            Map<String, List<PodView>> boundByGang) {
        Map<Integer, List<Domain>> copy = new TreeMap<>();
        byTier.forEach((tier, domains) -> {
            List<Domain> sorted = new ArrayList<>(domains);
            sorted.sort(java.util.Comparator.comparing(Domain::name));
            copy.put(tier, List.copyOf(sorted));
        });
        this.byTier = java.util.Collections.unmodifiableMap(copy);
        this.names = Map.copyOf(names);
        this.forest = forest;
        this.boundByGang = boundByGang;
    }

    /** The domains of the HyperNodes in {@code forest}, sized from the nodes under each and the pods bound there. */
    public static TierDomains of(Collection<NodeView> nodes, Collection<PodView> pods, Forest forest) {
        Map<String, Amounts> allocatable = new HashMap<>();
        nodes.forEach(n -> allocatable.put(n.name(), n.allocatable()));
        Map<String, Amounts> used = new HashMap<>();
        Map<String, Map<String, Amounts>> usedByGang = new HashMap<>();
        Map<String, List<PodView>> boundByGang = new HashMap<>();
        for (PodView pod : pods) {
            if (!pod.bound()) {
                continue;
            }
            used.merge(pod.node(), pod.requests(), Amounts::plus);
            if (pod.podGroup() != null) {
                String gang = pod.namespace() + "/" + pod.podGroup();
                usedByGang.computeIfAbsent(pod.node(), k -> new HashMap<>()).merge(gang, pod.requests(), Amounts::plus);
                boundByGang.computeIfAbsent(gang, k -> new ArrayList<>()).add(pod);
            }
        }
        Map<Integer, List<Domain>> byTier = new TreeMap<>();
        for (HyperNodeView h : forest.hyperNodes()) {
            if (h.tier() < 1) {
                continue;
            }
            Amounts size = Amounts.NONE;
            Amounts free = Amounts.NONE;
            Map<String, Amounts> gangs = new TreeMap<>();
            for (String node : forest.nodesUnder(h.name())) {
                Amounts a = allocatable.get(node);
                if (a == null) {
                    continue;
                }
                size = size.plus(a);
                free = free.plus(a.minusClamped(used.getOrDefault(node, Amounts.NONE)));
                usedByGang.getOrDefault(node, Map.of()).forEach((g, u) -> gangs.merge(g, u, Amounts::plus));
            }
            byTier.computeIfAbsent(h.tier(), k -> new ArrayList<>()).add(new Domain(h.name(), size, free, gangs));
        }
        return new TierDomains(byTier, forest.tiers(), forest, boundByGang);
    }

    /** The bound pods of one gang ({@code ns/podgroup}); none when the domains were not built from pods. */
    public List<PodView> boundPodsOf(String gang) {
        return boundByGang.getOrDefault(gang, List.of());
    }

    /** The domain of {@code tier} holding a node, if the HyperNodes put it under one. */
    public java.util.Optional<String> domainOf(String node, int tier) {
        return forest.ancestors(node).stream()
                .filter(h -> h.tier() == tier)
                .map(HyperNodeView::name)
                .findFirst();
    }

    /** Whether any domain is known. */
    public boolean isEmpty() {
        return byTier.isEmpty();
    }

    /** The domains of one tier, by name (none for an unknown tier). */
    public List<Domain> at(int tier) {
        return byTier.getOrDefault(tier, List.of());
    }

    /** The name the HyperNodes of a tier carry ({@code ""} when none). */
    public String name(int tier) {
        return Objects.requireNonNullElse(names.get(tier), "");
    }

    /** Equal when the domains (sizes, room, each gang's use) and tier names are; the pods behind them may differ. */
    @Override
    public boolean equals(Object o) {
        return o instanceof TierDomains other && byTier.equals(other.byTier) && names.equals(other.names);
    }

    @Override
    public int hashCode() {
        return byTier.hashCode() * 31 + names.hashCode();
    }

    @Override
    public String toString() {
        return "TierDomains" + byTier;
    }
}

package io.topobridge.core.capacity;

import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.Taint;
import io.topobridge.core.node.Toleration;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The domains of every tier and what each could hold: per HyperNode the allocatable resources of the nodes under it
 * that take new pods (its size when empty) and what is free there now (allocatable minus the requests of the pods bound
 * there), with the share of that use each gang has, so a gang that already runs is not counted as crowding itself out.
 * Nodes that take no new pods (cordoned, not ready) are no room: they count only in a domain's {@code nominal} size and
 * its {@link Withheld} nodes. Nodes with NoSchedule/NoExecute taints are room only for the gangs whose pods tolerate
 * them: kept apart per taint set until {@link #usableBy} says whose pods are asking. The input of
 * {@code highest-tier: auto}; the same value in the controller, at admission and in {@code render}.
 */
public final class TierDomains {

    /**
     * One HyperNode: its name, its size when empty, what is free now and the use of each gang ({@code ns/podgroup}),
     * counting the nodes that take new pods; its size counting every node ({@code nominal}); the nodes withheld; and,
     * until {@link TierDomains#usableBy} has judged them, the tainted nodes apart.
     */
    public record Domain(
            String name,
            Amounts allocatable,
            Amounts free,
            Map<String, Amounts> gangUse,
            Amounts nominal,
            Withheld withheld,
            List<Tainted> tainted) {
        public Domain {
            Objects.requireNonNull(name, "name");
            gangUse = Map.copyOf(gangUse);
            tainted = List.copyOf(tainted);
        }

        /** What is free here for one gang: the free capacity plus what that gang itself already uses here. */
        public Amounts freeFor(String gang) {
            Amounts own = gang == null ? null : gangUse.get(gang);
            return own == null ? free : free.plus(own);
        }
    }

    /** The nodes of a domain with one set of taints (ready, not cordoned): room for the pods that tolerate them. */
    public record Tainted(
            List<Taint> taints, int nodes, Amounts allocatable, Amounts free, Map<String, Amounts> gangUse) {
        public Tainted {
            taints = List.copyOf(taints);
            gangUse = gangUse == null ? Map.of() : Map.copyOf(gangUse);
        }
    }

    /** No domain known (no HyperNodes, or no input for them). */
    public static final TierDomains NONE =
            new TierDomains(Map.of(), Map.of(), Forest.EMPTY, Map.of(), Accelerators.DEFAULT);

    private final Map<Integer, List<Domain>> byTier;
    private final Map<Integer, String> names;
    private final Forest forest;
    private final Map<String, List<PodView>> boundByGang;
    private final Accelerators accelerators;

    /**
     * Domains by tier with the tiers' names; {@code forest} and {@code boundByGang} (the bound pods of each gang) are
     * what {@link #boundPodsOf} and {@link #domainOf} answer from, {@link Forest#EMPTY} and none for domains given
     * without a forest.
     */
    TierDomains(
            Map<Integer, List<Domain>> byTier,
            Map<Integer, String> names,
            Forest forest,
            Map<String, List<PodView>> boundByGang,
            Accelerators accelerators) {
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
        this.accelerators = accelerators;
    }

    /**
     * The domains of the HyperNodes in {@code forest}, sized from the nodes under each and the pods bound there;
     * {@code accelerators} being what gangs are sized by first.
     */
    public static TierDomains of(
            Collection<NodeView> nodes, Collection<PodView> pods, Forest forest, Accelerators accelerators) {
        Capacity capacity = Capacity.of(nodes, pods, forest, accelerators);
        Map<String, Map<String, Amounts>> usedByGang = new HashMap<>();
        Map<String, List<PodView>> boundByGang = new HashMap<>();
        for (PodView pod : pods) {
            if (!pod.bound()) {
                continue;
            }
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
            // running totals: every node under a HyperNode of each tier is added, so no immutable copy per node
            Total size = new Total();
            Total free = new Total();
            Total nominal = new Total();
            Withheld withheld = Withheld.NONE;
            Map<String, Amounts> gangs = new TreeMap<>();
            Map<List<Taint>, Tainted> tainted = new LinkedHashMap<>();
            for (String node : forest.nodesUnder(h.name())) {
                NodeView n = capacity.node(node);
                if (n == null) {
                    continue;
                }
                Amounts a = n.allocatable();
                nominal.add(a);
                Withheld closed = Withheld.of(n.state(), null);
                if (!closed.isEmpty()) {
                    withheld = withheld.plus(closed);
                    continue;
                }
                Amounts nodeFree = capacity.freeIfUsable(node);
                Map<String, Amounts> nodeGangs = usedByGang.getOrDefault(node, Map.of());
                if (n.state().taints().isEmpty()) {
                    size.add(a);
                    free.add(nodeFree);
                    nodeGangs.forEach((g, u) -> gangs.merge(g, u, Amounts::plus));
                } else {
                    tainted.merge(
                            n.state().taints(),
                            new Tainted(n.state().taints(), 1, a, nodeFree, nodeGangs),
                            TierDomains::merge);
                }
            }
            byTier.computeIfAbsent(h.tier(), k -> new ArrayList<>())
                    .add(new Domain(
                            h.name(),
                            size.amounts(),
                            free.amounts(),
                            gangs,
                            nominal.amounts(),
                            withheld,
                            new ArrayList<>(tainted.values())));
        }
        return new TierDomains(byTier, forest.tiers(), forest, boundByGang, accelerators);
    }

    /** A sum of amounts as {@link Amounts#plus} chains it (a resource that comes to zero is dropped), kept mutable. */
    private static final class Total {
        private final Map<String, BigDecimal> values = new TreeMap<>();

        void add(Amounts amounts) {
            amounts.values()
                    .forEach((k, v) -> values.merge(k, v, (mine, more) -> {
                        BigDecimal sum = mine.add(more);
                        return sum.signum() == 0 ? null : sum;
                    }));
        }

        Amounts amounts() {
            return new Amounts(values);
        }
    }

    private static Tainted merge(Tainted a, Tainted b) {
        Map<String, Amounts> gangs = new TreeMap<>(a.gangUse());
        b.gangUse().forEach((g, u) -> gangs.merge(g, u, Amounts::plus));
        return new Tainted(
                a.taints(),
                a.nodes() + b.nodes(),
                a.allocatable().plus(b.allocatable()),
                a.free().plus(b.free()),
                gangs);
    }

    /**
     * These domains as room for the pods of one gang: the tainted nodes every pod tolerates join the room, the others
     * are withheld. {@code tolerations}: each of its pods' (or roles') effective tolerations; none: a pod without any.
     */
    public TierDomains usableBy(Collection<List<Toleration>> tolerations) {
        List<List<Toleration>> pods = tolerations.isEmpty() ? List.of(List.of()) : List.copyOf(tolerations);
        boolean anyTainted = byTier.values().stream()
                .flatMap(List::stream)
                .anyMatch(d -> !d.tainted().isEmpty());
        if (!anyTainted) {
            return this;
        }
        Map<Integer, List<Domain>> out = new TreeMap<>();
        byTier.forEach((tier, domains) ->
                out.put(tier, domains.stream().map(d -> judge(d, pods)).toList()));
        return new TierDomains(out, names, forest, boundByGang, accelerators);
    }

    private static Domain judge(Domain d, List<List<Toleration>> pods) {
        if (d.tainted().isEmpty()) {
            return d;
        }
        Amounts size = d.allocatable();
        Amounts free = d.free();
        Map<String, Amounts> gangs = new TreeMap<>(d.gangUse());
        Withheld withheld = d.withheld();
        for (Tainted t : d.tainted()) {
            Taint repelling = Withheld.repelling(t.taints(), pods);
            if (repelling == null) {
                size = size.plus(t.allocatable());
                free = free.plus(t.free());
                t.gangUse().forEach((g, u) -> gangs.merge(g, u, Amounts::plus));
            } else {
                withheld = withheld.plus(new Withheld(0, 0, t.nodes(), repelling));
            }
        }
        return new Domain(d.name(), size, free, gangs, d.nominal(), withheld, List.of());
    }

    public Accelerators accelerators() {
        return accelerators;
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

    public boolean isEmpty() {
        return byTier.isEmpty();
    }

    /** The highest tier with a domain (0 when none is known). */
    public int top() {
        return byTier.keySet().stream().max(Integer::compare).orElse(0);
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
        return o instanceof TierDomains other
                && byTier.equals(other.byTier)
                && names.equals(other.names)
                && accelerators.equals(other.accelerators);
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

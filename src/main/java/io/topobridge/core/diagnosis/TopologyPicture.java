package io.topobridge.core.diagnosis;

import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.NodeView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the topology page draws: the HyperNode forest of all sources, each domain with its total and free accelerators
 * ({@code gpus}: every configured accelerator resource together) and every resource (free: on nodes that take new
 * pods) and the gangs placed in it (a gang is shown at the lowest HyperNode that holds all its pods), its nodes that
 * take no new pods ({@code unusable}: {@code node (cordoned)}, {@code node (Ready=Unknown)}; a gang's domain losing
 * one is how a gang comes to be {@code DomainLost}), the nodes outside every tree, and the pending gangs with their
 * explanation.
 */
public record TopologyPicture(
        Map<Integer, String> tiers,
        List<Domain> roots,
        int nodesOutside,
        long gpusOutside,
        List<Gang> placed,
        List<Gang> pending) {

    /** One HyperNode. */
    public record Domain(
            String name,
            int tier,
            String tierName,
            String source,
            int nodes,
            long gpus,
            long freeGpus,
            Map<String, String> allocatable,
            Map<String, String> free,
            List<String> gangs,
            List<String> unusable,
            List<Domain> children) {}

    /** One gang: where it is ({@code hyperNode}, {@code tier}: null when pending or in no single HyperNode). */
    public record Gang(
            String namespace,
            String podGroup,
            String workload,
            String mode,
            Integer highestTier,
            String hyperNode,
            String tier,
            String reason,
            String sentence) {

        /** {@code namespace/podGroup}. */
        public String id() {
            return namespace + "/" + podGroup;
        }
    }

    public TopologyPicture {
        tiers = Map.copyOf(tiers);
        roots = List.copyOf(roots);
        placed = List.copyOf(placed);
        pending = List.copyOf(pending);
    }

    /** The picture of a cluster's capacity and the gangs explained in it. */
    public static TopologyPicture of(Capacity capacity, List<Explanation> gangs) {
        Forest forest = capacity.forest();
        List<Gang> placed = new ArrayList<>();
        List<Gang> pending = new ArrayList<>();
        Map<String, List<String>> at = new HashMap<>();
        for (Explanation e : gangs) {
            String hyperNode = e.achieved() == null ? null : e.achieved().gang().hyperNode();
            Gang g = new Gang(
                    e.namespace(),
                    e.podGroup(),
                    e.workload(),
                    e.mode(),
                    e.highestTier(),
                    hyperNode,
                    e.achieved() == null ? null : e.achieved().gang().value(),
                    e.reason() == null ? null : e.reason().reason(),
                    e.sentence());
            if (e.pending()) {
                pending.add(g);
            } else {
                placed.add(g);
                if (hyperNode != null) {
                    at.computeIfAbsent(hyperNode, k -> new ArrayList<>()).add(g.id());
                }
            }
        }
        Comparator<Gang> order = Comparator.comparing(Gang::id);
        placed.sort(order);
        pending.sort(order);
        List<Domain> roots = forest.hyperNodes().stream()
                .filter(h -> forest.parentOf(h.name()).isEmpty())
                .map(h -> domain(h, forest, capacity, at, new HashSet<>()))
                .sorted(Comparator.comparing(Domain::name))
                .toList();
        List<NodeView> outside =
                capacity.nodes().stream().filter(n -> !forest.placed(n.name())).toList();
        long gpusOutside = outside.stream()
                .mapToLong(n -> n.allocatable().accelerators(capacity.accelerators()))
                .sum();
        return new TopologyPicture(forest.tiers(), roots, outside.size(), gpusOutside, placed, pending);
    }

    private static Domain domain(
            HyperNodeView h, Forest forest, Capacity capacity, Map<String, List<String>> at, Set<String> seen) {
        List<Domain> children = new ArrayList<>();
        if (seen.add(h.name())) {
            for (String child : h.hyperNodes()) {
                forest.get(child).ifPresent(c -> children.add(domain(c, forest, capacity, at, seen)));
            }
        }
        children.sort(Comparator.comparing(Domain::name));
        Amounts allocatable = capacity.domainAllocatable(h.name());
        Amounts free = capacity.domainFree(h.name());
        List<String> gangs =
                at.getOrDefault(h.name(), List.of()).stream().sorted().toList();
        List<String> unusable = new ArrayList<>();
        for (String node : forest.nodesUnder(h.name())) {
            NodeView view = capacity.node(node);
            if (view != null && view.state().closed()) {
                unusable.add(node + " (" + view.state().whyClosed() + ")");
            }
        }
        unusable.sort(null);
        return new Domain(
                h.name(),
                h.tier(),
                h.tierName(),
                h.source(),
                forest.nodesUnder(h.name()).size(),
                allocatable.accelerators(capacity.accelerators()),
                free.accelerators(capacity.accelerators()),
                allocatable.shown(),
                free.shown(),
                gangs,
                unusable,
                children);
    }
}

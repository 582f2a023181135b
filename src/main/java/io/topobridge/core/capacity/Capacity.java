package io.topobridge.core.capacity;

import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.Toleration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Allocatable and free resources per node and per HyperNode: a node's free capacity is its allocatable minus the
 * requests of the pods bound to it (what Volcano calls idle), a HyperNode's the sum over every node under it. A node
 * that takes no new pods (cordoned or not ready, and, for the pods of one gang ({@link #forPods}), tainted with
 * something one of them does not tolerate) has nothing free: its resources are {@link #withheld} and counted apart.
 */
public final class Capacity {

    private final Forest forest;
    private final Accelerators accelerators;
    private final Map<String, NodeView> nodes;
    private final Map<String, Amounts> used;
    /** Each pod's tolerations, when judging room for certain pods; null: taints are not judged. */
    private final List<List<Toleration>> tolerations;

    private final Map<String, Amounts> domainFree = new HashMap<>();
    private final Map<String, Amounts> domainFreeIfUsable = new HashMap<>();
    private final Map<String, Amounts> domainAllocatable = new HashMap<>();
    private final Map<String, Withheld> domainWithheld = new HashMap<>();

    private Capacity(
            Forest forest,
            Accelerators accelerators,
            Map<String, NodeView> nodes,
            Map<String, Amounts> used,
            List<List<Toleration>> tolerations) {
        this.forest = forest;
        this.accelerators = accelerators;
        this.nodes = nodes;
        this.used = used;
        this.tolerations = tolerations;
    }

    public static Capacity of(
            Collection<NodeView> nodes, Collection<PodView> pods, Forest forest, Accelerators accelerators) {
        Map<String, NodeView> byName = new HashMap<>();
        nodes.forEach(n -> byName.put(n.name(), n));
        Map<String, Amounts> used = new HashMap<>();
        for (PodView pod : pods) {
            if (pod.bound()) {
                used.merge(pod.node(), pod.requests(), Amounts::plus);
            }
        }
        return new Capacity(forest, accelerators, byName, used, null);
    }

    /**
     * The same capacity as room for certain pods: a node with a taint that one of them does not tolerate has nothing
     * free for them. {@code tolerations}: each pod's effective tolerations ({@link PodView#effectiveTolerations}); none:
     * a pod that tolerates nothing.
     */
    public Capacity forPods(Collection<List<Toleration>> tolerations) {
        List<List<Toleration>> pods =
                tolerations.isEmpty() ? List.of(List.of()) : List.copyOf(new LinkedHashSet<>(tolerations));
        return new Capacity(forest, accelerators, nodes, used, pods);
    }

    public Forest forest() {
        return forest;
    }

    public Accelerators accelerators() {
        return accelerators;
    }

    public Collection<NodeView> nodes() {
        return nodes.values();
    }

    /** A node by name; null when the cluster has none of that name. */
    public NodeView node(String name) {
        return nodes.get(name);
    }

    /** Why a node's resources are not room (nothing for an open node or an unknown one). */
    public Withheld withheld(String node) {
        NodeView n = nodes.get(node);
        return n == null ? Withheld.NONE : Withheld.of(n.state(), tolerations);
    }

    /** What is free on a node: nothing when it takes no new pods (see {@link #withheld(String)}) or is unknown. */
    public Amounts free(String node) {
        return withheld(node).isEmpty() ? freeIfUsable(node) : Amounts.NONE;
    }

    public Amounts freeIfUsable(String node) {
        NodeView n = nodes.get(node);
        return n == null ? Amounts.NONE : n.allocatable().minusClamped(used.getOrDefault(node, Amounts.NONE));
    }

    public Amounts domainFree(String hyperNode) {
        return domainFree.computeIfAbsent(hyperNode, h -> sum(forest.nodesUnder(h), this::free));
    }

    public Amounts domainFreeIfUsable(String hyperNode) {
        return domainFreeIfUsable.computeIfAbsent(hyperNode, h -> sum(forest.nodesUnder(h), this::freeIfUsable));
    }

    /** What is allocatable under a HyperNode, every node counted. */
    public Amounts domainAllocatable(String hyperNode) {
        return domainAllocatable.computeIfAbsent(
                hyperNode,
                h -> sum(
                        forest.nodesUnder(h),
                        n -> nodes.containsKey(n) ? nodes.get(n).allocatable() : Amounts.NONE));
    }

    public Withheld domainWithheld(String hyperNode) {
        return domainWithheld.computeIfAbsent(hyperNode, h -> withheldOf(forest.nodesUnder(h)));
    }

    /** What is free on every node of the cluster, in a tree or not. */
    public Amounts clusterFree() {
        return sum(nodes.keySet(), this::free);
    }

    public Withheld clusterWithheld() {
        return withheldOf(nodes.keySet());
    }

    private static Amounts sum(Collection<String> names, Function<String, Amounts> each) {
        return names.stream().map(each).reduce(Amounts.NONE, Amounts::plus);
    }

    private Withheld withheldOf(Collection<String> names) {
        return names.stream().map(this::withheld).reduce(Withheld.NONE, Withheld::plus);
    }
}

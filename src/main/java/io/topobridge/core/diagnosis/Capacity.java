package io.topobridge.core.diagnosis;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Allocatable and free resources per node and per HyperNode: a node's free capacity is its allocatable minus the
 * requests of the pods bound to it (what Volcano calls idle), a HyperNode's the sum over every node under it.
 */
public final class Capacity {

    private final Forest forest;
    private final Map<String, NodeView> nodes = new HashMap<>();
    private final Map<String, Amounts> used = new HashMap<>();
    private final Map<String, Amounts> domainFree = new HashMap<>();
    private final Map<String, Amounts> domainAllocatable = new HashMap<>();

    private Capacity(Collection<NodeView> nodes, Collection<PodView> pods, Forest forest) {
        this.forest = forest;
        nodes.forEach(n -> this.nodes.put(n.name(), n));
        for (PodView pod : pods) {
            if (pod.bound()) {
                used.merge(pod.node(), pod.requests(), Amounts::plus);
            }
        }
    }

    public static Capacity of(Collection<NodeView> nodes, Collection<PodView> pods, Forest forest) {
        return new Capacity(nodes, pods, forest);
    }

    public Forest forest() {
        return forest;
    }

    public Collection<NodeView> nodes() {
        return nodes.values();
    }

    /** What is free on a node (nothing for an unknown node). */
    public Amounts free(String node) {
        NodeView n = nodes.get(node);
        return n == null ? Amounts.NONE : n.allocatable().minusClamped(used.getOrDefault(node, Amounts.NONE));
    }

    /** What is free under a HyperNode. */
    public Amounts domainFree(String hyperNode) {
        return domainFree.computeIfAbsent(hyperNode, h -> sum(h, true));
    }

    /** What is allocatable under a HyperNode. */
    public Amounts domainAllocatable(String hyperNode) {
        return domainAllocatable.computeIfAbsent(hyperNode, h -> sum(h, false));
    }

    private Amounts sum(String hyperNode, boolean free) {
        Amounts out = Amounts.NONE;
        for (String node : forest.nodesUnder(hyperNode)) {
            NodeView n = nodes.get(node);
            if (n != null) {
                out = out.plus(free ? free(node) : n.allocatable());
            }
        }
        return out;
    }

    /** What is free on every node of the cluster, in a tree or not. */
    public Amounts clusterFree() {
        Amounts out = Amounts.NONE;
        for (String node : nodes.keySet()) {
            out = out.plus(free(node));
        }
        return out;
    }
}

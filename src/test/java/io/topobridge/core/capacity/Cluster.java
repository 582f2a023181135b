package io.topobridge.core.capacity;

import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.node.Toleration;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small builders for capacity and diagnosis tests: a cluster of HyperNodes, nodes with GPUs, pods and gangs, and the
 * views' common shapes (a node that takes any pod, a live pod, a gang as the bridge wrote it, domains given by tier).
 */
public final class Cluster {

    public final List<HyperNodeView> hyperNodes = new ArrayList<>();
    public final List<NodeView> nodes = new ArrayList<>();
    public final List<PodView> pods = new ArrayList<>();

    /** A HyperNode of tier 1 holding nodes. */
    public Cluster leaf(String name, String tierName, String... nodes) {
        hyperNodes.add(new HyperNodeView(name, 1, tierName, "topobridge", List.of(nodes), List.of()));
        return this;
    }

    /** A HyperNode above others. */
    public Cluster above(String name, int tier, String tierName, String... children) {
        hyperNodes.add(new HyperNodeView(name, tier, tierName, "topobridge", List.of(), List.of(children)));
        return this;
    }

    /** Nodes with {@code gpus} GPUs, 64 cores and 512 GiB each. */
    public Cluster nodes(int gpus, String... names) {
        for (String n : names) {
            nodes.add(nodeView(n, Map.of(), amounts(gpus, 64, 512)));
        }
        return this;
    }

    /** The named nodes in another state (cordoned, not ready, tainted). */
    public Cluster state(NodeState state, String... names) {
        List<String> changed = List.of(names);
        nodes.replaceAll(
                n -> changed.contains(n.name()) ? new NodeView(n.name(), n.labels(), n.allocatable(), state) : n);
        return this;
    }

    /** A pod bound to {@code node} (null: pending), in gang {@code gang}. */
    public Cluster pod(String name, String node, int gpus, String gang, String role, Map<String, String> labels) {
        pods.add(podView("ns", name, node, amounts(gpus, 1, 8), labels, role, gang, List.of()));
        return this;
    }

    public Forest forest() {
        return Forest.of(hyperNodes);
    }

    public Capacity capacity() {
        return Capacity.of(nodes, pods, forest(), Accelerators.DEFAULT);
    }

    public List<PodView> podsOf(String gang) {
        return pods.stream().filter(p -> gang.equals(p.podGroup())).toList();
    }

    public GangView gang(String name, String mode, Integer tier, List<GangView.SubGroup> subGroups) {
        List<PodView> members = podsOf(name);
        Amounts need = members.stream().map(PodView::requests).reduce(Amounts.NONE, Amounts::plus);
        return gangView(
                "ns",
                name,
                "LeaderWorkerSet/" + name,
                members.stream().allMatch(PodView::bound) ? "Running" : "Pending",
                members.size(),
                need,
                mode,
                tier,
                subGroups,
                List.of(),
                null,
                members);
    }

    /** A node that takes any pod. */
    public static NodeView nodeView(String name, Map<String, String> labels, Amounts allocatable) {
        return new NodeView(name, labels, allocatable, NodeState.SCHEDULABLE);
    }

    /** A live pod whose creation time and uid are not known. */
    public static PodView podView(
            String namespace,
            String name,
            String node,
            Amounts requests,
            Map<String, String> labels,
            String taskSpec,
            String podGroup,
            List<Toleration> tolerations) {
        return new PodView(namespace, name, node, requests, labels, taskSpec, podGroup, tolerations, null, false, null);
    }

    /** A gang whose tier was not chosen by {@code highest-tier: auto} and whose pods claim no DRA device. */
    public static GangView gangView(
            String namespace,
            String podGroup,
            String workload,
            String phase,
            int minMember,
            Amounts minResources,
            String mode,
            Integer highestTier,
            List<GangView.SubGroup> subGroups,
            List<GangView.Condition> conditions,
            Instant created,
            List<PodView> pods) {
        return new GangView(
                namespace,
                podGroup,
                workload,
                phase,
                minMember,
                minResources,
                mode,
                highestTier,
                subGroups,
                conditions,
                created,
                pods,
                null,
                Amounts.NONE);
    }

    /** Domains by tier, with the tiers' names, given without a forest and speaking of the default accelerators. */
    public static TierDomains domains(Map<Integer, List<TierDomains.Domain>> byTier, Map<Integer, String> names) {
        return new TierDomains(byTier, names, Forest.EMPTY, Map.of(), Accelerators.DEFAULT);
    }

    /** The same, speaking of {@code accelerators} (as configured by {@code accelerator-resources}). */
    public static TierDomains domains(
            Map<Integer, List<TierDomains.Domain>> byTier, Map<Integer, String> names, Accelerators accelerators) {
        return new TierDomains(byTier, names, Forest.EMPTY, Map.of(), accelerators);
    }

    /** A domain whose every node takes new pods. */
    public static TierDomains.Domain domain(
            String name, Amounts allocatable, Amounts free, Map<String, Amounts> gangUse) {
        return new TierDomains.Domain(name, allocatable, free, gangUse, allocatable, Withheld.NONE, List.of());
    }

    /**
     * GB200 NVL72 racks as domains: tier 1 (nvlink) two racks of 18 trays of 4 GPUs (72 GPUs, 2592 CPUs each), tier 2
     * (rack) one domain holding both.
     */
    public static TierDomains nvl72() {
        return domains(
                Map.of(1, List.of(gb200("nvl72-a", 72), gb200("nvl72-b", 72)), 2, List.of(gb200("row-1", 144))),
                Map.of(1, "nvlink", 2, "rack"));
    }

    private static TierDomains.Domain gb200(String name, int gpus) {
        Amounts size =
                new Amounts(Map.of(Amounts.GPU, BigDecimal.valueOf(gpus), "cpu", BigDecimal.valueOf(gpus * 36L)));
        return domain(name, size, size, Map.of());
    }

    public static Amounts amounts(int gpus, int cpu, int memoryGi) {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        if (gpus > 0) {
            out.put(Amounts.GPU, BigDecimal.valueOf(gpus));
        }
        out.put("cpu", BigDecimal.valueOf(cpu));
        out.put("memory", BigDecimal.valueOf(memoryGi).multiply(BigDecimal.valueOf(1L << 30)));
        return new Amounts(out);
    }
}

package io.topobridge.core.capacity;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small builders for diagnosis tests: HyperNodes, nodes with GPUs, pods and gangs. */
public final class Cluster {

    public final List<HyperNodeView> hyperNodes = new ArrayList<>();
    public final List<NodeView> nodes = new ArrayList<>();
    public final List<PodView> pods = new ArrayList<>();

    /** A HyperNode of tier 1 holding nodes. */
    public Cluster leaf(String name, String tierName, String... nodes) {
        hyperNodes.add(new HyperNodeView(name, 1, tierName, "topobridge", List.of(nodes), List.of(), 0));
        return this;
    }

    /** A HyperNode above others. */
    public Cluster above(String name, int tier, String tierName, String... children) {
        hyperNodes.add(new HyperNodeView(name, tier, tierName, "topobridge", List.of(), List.of(children), 0));
        return this;
    }

    /** Nodes with {@code gpus} GPUs, 64 cores and 512 GiB each. */
    public Cluster nodes(int gpus, String... names) {
        for (String n : names) {
            nodes.add(new NodeView(n, Map.of(), amounts(gpus, 64, 512)));
        }
        return this;
    }

    /** The named nodes in another state (cordoned, not ready, tainted). */
    public Cluster state(io.topobridge.core.node.NodeState state, String... names) {
        List<String> changed = List.of(names);
        nodes.replaceAll(
                n -> changed.contains(n.name()) ? new NodeView(n.name(), n.labels(), n.allocatable(), state) : n);
        return this;
    }

    /** A pod bound to {@code node} (null: pending), in gang {@code gang}. */
    public Cluster pod(String name, String node, int gpus, String gang, String role, Map<String, String> labels) {
        pods.add(new PodView("ns", name, node, amounts(gpus, 1, 8), labels, role, gang));
        return this;
    }

    public Forest forest() {
        return Forest.of(hyperNodes);
    }

    public Capacity capacity() {
        return Capacity.of(nodes, pods, forest());
    }

    public List<PodView> podsOf(String gang) {
        return pods.stream().filter(p -> gang.equals(p.podGroup())).toList();
    }

    public GangView gang(String name, String mode, Integer tier, List<GangView.SubGroup> subGroups) {
        List<PodView> members = podsOf(name);
        Amounts need = members.stream().map(PodView::requests).reduce(Amounts.NONE, Amounts::plus);
        return new GangView(
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

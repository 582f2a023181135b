package io.topobridge.perf;

import io.topobridge.core.topology.NodeInfo;
import io.topobridge.core.topology.Nodes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Synthetic GB200-style clusters for the topology benchmarks: NVLink racks of 18 trays (topograph fabric tiers
 * plus a GPU clique), one leaf switch per two racks, 32 leaves per spine, 8 spines per core, plus the labels
 * nodes really carry besides topology. Racks are one NVLink partition each, or split into two of 9 trays.
 */
public final class TopologyClusters {

    private TopologyClusters() {}

    public static Map<String, String> labels(int i, boolean split) {
        int rack = i / 18;
        int leaf = rack / 2;
        int spine = leaf / 32;
        int core = spine / 8;
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", name(i));
        labels.put("kubernetes.io/arch", "arm64");
        labels.put("kubernetes.io/os", "linux");
        labels.put("node.kubernetes.io/instance-type", "gb200-compute-tray");
        labels.put("topology.kubernetes.io/zone", "zone-" + core);
        labels.put("nvidia.com/gpu.present", "true");
        labels.put("nvidia.com/gpu.product", "NVIDIA-GB200");
        labels.put("nvidia.com/gpu.count", "4");
        labels.put(
                "nvidia.com/gpu.clique",
                String.format("%08x-0000-4000-8000-%012x.%d", rack * 7919, rack, split && i % 18 >= 9 ? 2 : 1));
        labels.put("fabric.topograph.run/tier-0", String.format("S-%016X", 0x7d1a0000L + leaf));
        labels.put("fabric.topograph.run/tier-1", String.format("S-%016X", 0x2c5e0000L + spine));
        labels.put("fabric.topograph.run/tier-2", String.format("S-%016X", 0x11110000L + core));
        return labels;
    }

    public static String name(int i) {
        return String.format("gb200-%06d", i);
    }

    static List<NodeInfo> nodes(int count) {
        return nodes(count, false);
    }

    static List<NodeInfo> nodes(int count, boolean split) {
        List<NodeInfo> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(Nodes.of(name(i), labels(i, split)));
        }
        return out;
    }
}

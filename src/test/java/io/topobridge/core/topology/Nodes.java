package io.topobridge.core.topology;

import java.util.LinkedHashMap;
import java.util.Map;

/** Small builder for test nodes: {@code node("n1").label(RACK, "r1").build()}, or {@code of(name, labels)}. */
public final class Nodes {

    private final String name;
    private final Map<String, String> labels = new LinkedHashMap<>();

    private Nodes(String name) {
        this.name = name;
    }

    static Nodes node(String name) {
        return new Nodes(name);
    }

    Nodes label(String key, String value) {
        labels.put(key, value);
        return this;
    }

    NodeInfo build() {
        return of(name, labels);
    }

    /** A node whose GPUs are known only from its labels, as the controller reads a node without allocatable GPUs. */
    public static NodeInfo of(String name, Map<String, String> labels) {
        return new NodeInfo(name, labels, gpuLabels(labels));
    }

    /** Whether GPU feature discovery labelled the node as having GPUs. */
    private static boolean gpuLabels(Map<String, String> labels) {
        return "true".equals(labels.get("nvidia.com/gpu.present"))
                || labels.containsKey("nvidia.com/gpu.count")
                || labels.containsKey("nvidia.com/gpu.product");
    }
}

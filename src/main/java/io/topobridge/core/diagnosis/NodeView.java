package io.topobridge.core.diagnosis;

import java.util.Map;
import java.util.Objects;

/** A node as diagnosis needs it: name, labels and allocatable resources. */
public record NodeView(String name, Map<String, String> labels, Amounts allocatable) {

    /** Labels GPU feature discovery puts on GPU nodes. */
    private static final String GPU_PRESENT = "nvidia.com/gpu.present";

    private static final String GPU_COUNT = "nvidia.com/gpu.count";
    private static final String GPU_PRODUCT = "nvidia.com/gpu.product";

    public NodeView {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        allocatable = allocatable == null ? Amounts.NONE : allocatable;
    }

    /** Whether the node has GPUs: allocatable {@code nvidia.com/gpu}, or GPU feature discovery's labels. */
    public boolean gpu() {
        return allocatable.get(Amounts.GPU).signum() > 0
                || "true".equals(labels.get(GPU_PRESENT))
                || labels.containsKey(GPU_COUNT)
                || labels.containsKey(GPU_PRODUCT);
    }
}

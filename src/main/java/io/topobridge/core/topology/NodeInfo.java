package io.topobridge.core.topology;

import java.util.Map;
import java.util.Objects;

/**
 * What the topology builder needs of a Node: its name, labels and whether it has GPUs (allocatable
 * {@code nvidia.com/gpu}, or GPU feature discovery's labels), so a GPU node left out of every tree is reported.
 */
public record NodeInfo(String name, Map<String, String> labels, boolean gpu) {
    public NodeInfo {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
}

package io.topobridge.core.topology;

import java.util.Map;
import java.util.Objects;

/** What the topology builder needs of a Node: its name and labels (a metadata-only informer suffices). */
public record NodeInfo(String name, Map<String, String> labels) {
    public NodeInfo {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
}

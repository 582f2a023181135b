package io.topobridge.core.topology;

import io.topobridge.volcano.model.HyperNodeSpec;
import java.util.Map;
import java.util.Objects;

/**
 * A HyperNode the bridge did not make (another source, e.g. Volcano's own label discovery, or written by
 * hand): its name is taken, and its members must not overlap the bridge's tree.
 */
public record ForeignHyperNode(String name, Map<String, String> labels, HyperNodeSpec spec) {
    public ForeignHyperNode {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
}

package io.topobridge.core.topology;

import io.topobridge.volcano.model.HyperNodeSpec;
import java.util.Map;
import java.util.Objects;

/** A HyperNode as the bridge wants it: name, labels and spec (the applier turns it into an apply). */
public record DesiredHyperNode(String name, Map<String, String> labels, HyperNodeSpec spec) {
    public DesiredHyperNode {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(spec, "spec");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
}

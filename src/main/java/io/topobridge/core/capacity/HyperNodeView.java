package io.topobridge.core.capacity;

import java.util.List;
import java.util.Objects;

/**
 * A HyperNode as the cluster holds it, of any source (the bridge's, Volcano's label discovery, by hand): its tier,
 * tier name, source label and its members by {@code exactMatch} (other selectors are kept as a count, since they
 * cannot be followed without the nodes' labels).
 */
public record HyperNodeView(
        String name,
        int tier,
        String tierName,
        String source,
        List<String> nodes,
        List<String> hyperNodes,
        int otherMembers) {

    public HyperNodeView {
        Objects.requireNonNull(name, "name");
        tierName = tierName == null ? "" : tierName;
        source = source == null ? "" : source;
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        hyperNodes = hyperNodes == null ? List.of() : List.copyOf(hyperNodes);
    }

    /** {@code tier N (name)} or {@code tier N}. */
    public String tierLabel() {
        return "tier " + tier + (tierName.isEmpty() ? "" : " (" + tierName + ")");
    }
}

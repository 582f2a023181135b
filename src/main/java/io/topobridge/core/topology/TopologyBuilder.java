package io.topobridge.core.topology;

import java.util.Collection;
import java.util.List;

/** Pure function from nodes and tier configuration to desired HyperNodes, tier catalog and findings. */
public final class TopologyBuilder {

    private final TopologySettings settings;

    public TopologyBuilder(TopologySettings settings) {
        this.settings = settings;
    }

    public TopologySettings settings() {
        return settings;
    }

    public TopologyResult build(Collection<NodeInfo> nodes) {
        return new TopologyResult(List.of(), TierCatalog.EMPTY, List.of());
    }
}

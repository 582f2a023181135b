package io.topobridge.core.topology;

import io.topobridge.core.finding.Finding;
import java.util.List;

/** Output of the topology builder: the HyperNodes to keep, the tiers workloads may name, and findings. */
public record TopologyResult(List<DesiredHyperNode> hyperNodes, TierCatalog tiers, List<Finding> findings) {
    public TopologyResult {
        hyperNodes = List.copyOf(hyperNodes);
        findings = List.copyOf(findings);
    }
}

package io.topobridge.core.topology;

import io.topobridge.core.finding.Finding;
import java.util.List;

/**
 * Output of the topology builder: the HyperNodes to keep, the tiers workloads may name, findings, and one
 * summary per tree (scheme, depth, size) for status pages.
 */
public record TopologyResult(
        List<DesiredHyperNode> hyperNodes, TierCatalog tiers, List<Finding> findings, List<TreeSummary> trees) {

    /**
     * One tree the builder made: the scheme it comes from, its tier names finest first (tier 1 first), how many nodes
     * it places and how many HyperNodes it has.
     */
    public record TreeSummary(String scheme, List<String> tiers, int nodes, int hyperNodes) {
        public TreeSummary {
            tiers = List.copyOf(tiers);
        }
    }

    public TopologyResult {
        hyperNodes = List.copyOf(hyperNodes);
        findings = List.copyOf(findings);
        trees = trees == null ? List.of() : List.copyOf(trees);
    }
}

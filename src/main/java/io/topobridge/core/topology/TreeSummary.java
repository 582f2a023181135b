package io.topobridge.core.topology;

import java.util.List;

/**
 * One tree the builder made: the scheme it comes from, its tier names finest first (tier 1 first), how many
 * nodes it places and how many HyperNodes it has.
 */
public record TreeSummary(String scheme, List<String> tiers, int nodes, int hyperNodes) {
    public TreeSummary {
        tiers = List.copyOf(tiers);
    }
}

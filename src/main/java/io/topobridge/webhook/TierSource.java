package io.topobridge.webhook;

import io.topobridge.core.topology.TierCatalog;

/**
 * The tiers admission resolves tier names against: the catalog the topology controller built from the nodes
 * it sees. Without such a bean admission uses {@link TierCatalog#EMPTY}.
 */
@FunctionalInterface
public interface TierSource {
    TierCatalog current();
}

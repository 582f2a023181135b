package io.topobridge.cache;

import io.topobridge.core.topology.TierCatalog;
import java.util.function.Consumer;

/**
 * Where the workload controller gets the tiers users may name: the topology controller publishes the current
 * catalog as nodes come and go. Listeners hear of every change so every gang is translated again.
 */
public interface TierSource {

    /** The tiers known now ({@link TierCatalog#EMPTY} before any is known). */
    TierCatalog current();

    /**
     * Whether the catalog is what this replica will go on with: the topology controller has made its first pass,
     * or the HyperNodes the leader wrote have been read. Before that an empty catalog means "not yet", not "none",
     * so a gang naming a tier is not reported as refused.
     */
    boolean settled();

    /**
     * The tiers the HyperNodes in the cluster have right now: a tier without a HyperNode is one Volcano cannot
     * enforce yet (with none at all it treats the whole cluster as tier 1).
     */
    TierCatalog inCluster();

    /** Called with the new catalog whenever it changes. */
    void addListener(Consumer<TierCatalog> listener);
}

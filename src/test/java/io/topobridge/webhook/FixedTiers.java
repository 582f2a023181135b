package io.topobridge.webhook;

import io.topobridge.cache.TierSource;
import io.topobridge.core.topology.TierCatalog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.util.function.Consumer;

/** Tiers 1=nvlink, 2=rack, 3=spine, for the end-to-end admission test's own application (enabled by its profile). */
@Alternative
@ApplicationScoped
public class FixedTiers implements TierSource {

    public static final TierCatalog TIERS = io.topobridge.core.workload.Fixtures.TIERS;

    @Override
    public TierCatalog current() {
        return TIERS;
    }

    @Override
    public boolean settled() {
        return true;
    }

    @Override
    public TierCatalog inCluster() {
        return TIERS;
    }

    @Override
    public void addListener(Consumer<TierCatalog> listener) {
        // fixed: never changes
    }
}

package io.topobridge.webhook;

import io.topobridge.cache.TierSource;
import io.topobridge.core.topology.TierCatalog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.util.List;
import java.util.function.Consumer;

/** Tiers 1=nvlink, 2=rack, 3=spine, for the end-to-end admission test's own application (enabled by its profile). */
@Alternative
@ApplicationScoped
public class FixedTiers implements TierSource {

    public static final TierCatalog TIERS = TierCatalog.of(
            List.of(
                    new TierCatalog.Tier(1, "nvlink"),
                    new TierCatalog.Tier(2, "rack"),
                    new TierCatalog.Tier(3, "spine")),
            List.of());

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

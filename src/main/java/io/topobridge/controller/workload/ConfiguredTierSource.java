package io.topobridge.controller.workload;

import io.quarkus.arc.DefaultBean;
import io.topobridge.config.Settings;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.topology.TopologySettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The tiers as configured, used until a topology controller provides a {@link TierSource} of its own (which
 * replaces this default bean): explicit {@code topobridge.topology.tiers} become tiers 1..n in order; a preset
 * alone names no tier until nodes are seen, so the catalog is empty.
 */
@DefaultBean
@ApplicationScoped
public class ConfiguredTierSource implements TierSource {

    @Inject
    Settings settings;

    private volatile TierCatalog catalog;

    @Override
    public TierCatalog current() {
        TierCatalog known = catalog;
        if (known == null) {
            known = fromSettings(settings.topology());
            catalog = known;
        }
        return known;
    }

    static TierCatalog fromSettings(TopologySettings topology) {
        List<TierCatalog.Tier> tiers = new ArrayList<>();
        for (int i = 0; i < topology.tiers().size(); i++) {
            tiers.add(new TierCatalog.Tier(i + 1, topology.tiers().get(i).name()));
        }
        return TierCatalog.of(tiers);
    }

    @Override
    public void addListener(Consumer<TierCatalog> listener) {
        // configuration does not change while the process runs
    }
}

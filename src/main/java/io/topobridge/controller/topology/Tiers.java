package io.topobridge.controller.topology;

import io.topobridge.controller.workload.TierSource;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.topology.TopologySettings;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The tiers workloads may name right now, as the topology controller last built them from the nodes. The
 * workload side reads {@link #current()} and re-translates when a listener hears of a change.
 */
@ApplicationScoped
public class Tiers implements TierSource {

    private static final Logger LOG = Logger.getLogger(Tiers.class);

    private volatile TierCatalog current = TierCatalog.EMPTY;
    private final List<Consumer<TierCatalog>> listeners = new CopyOnWriteArrayList<>();

    /** The current catalog ({@link TierCatalog#EMPTY} until the first topology pass). */
    @Override
    public TierCatalog current() {
        return current;
    }

    /** Called with the new catalog after every change (on the topology controller's thread). */
    @Override
    public void addListener(Consumer<TierCatalog> listener) {
        listeners.add(listener);
    }

    /** Explicitly configured tiers as a catalog (1..n in order); empty for a preset, which needs nodes. */
    public static TierCatalog configured(TopologySettings topology) {
        List<TierCatalog.Tier> tiers = new ArrayList<>();
        for (int i = 0; i < topology.tiers().size(); i++) {
            tiers.add(new TierCatalog.Tier(i + 1, topology.tiers().get(i).name()));
        }
        return TierCatalog.of(tiers);
    }

    /** Replaces the catalog; listeners hear of it only when it differs from the current one. */
    public void publish(TierCatalog catalog) {
        if (catalog.equals(current)) {
            return;
        }
        current = catalog;
        LOG.infof("tiers are now %s", catalog);
        for (Consumer<TierCatalog> listener : listeners) {
            try {
                listener.accept(catalog);
            } catch (RuntimeException e) {
                LOG.warnf(e, "a tier listener failed");
            }
        }
    }
}

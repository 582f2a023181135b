package io.topobridge.controller.topology;

import io.topobridge.cache.TierSource;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.topology.TopologySettings;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The tiers workloads may name right now, as the topology controller last built them from the nodes (on a
 * follower: as the HyperNodes the leader wrote show them, see {@link HyperNodeTiers}). The
 * workload side reads {@link #current()} and re-translates when a listener hears of a change.
 */
@ApplicationScoped
public class Tiers implements TierSource {

    private static final Logger LOG = Logger.getLogger(Tiers.class);

    private volatile TierCatalog current = TierCatalog.EMPTY;
    private volatile boolean built;
    private volatile boolean observedAll;
    private volatile TierCatalog inCluster = TierCatalog.EMPTY;
    private final List<Consumer<TierCatalog>> listeners = new CopyOnWriteArrayList<>();

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
        return TierCatalog.of(tiers, topology.schemes());
    }

    /** Replaces the catalog with one built from the nodes (the leader's topology controller). */
    public synchronized void publish(TierCatalog catalog) {
        built = true;
        replace(catalog);
    }

    /**
     * Replaces the catalog with the one the HyperNodes in the cluster show, unless this replica builds the topology
     * itself (a follower learns the tiers the leader wrote): {@code catalog} from the bridge's own HyperNodes, {@code all}
     * from those of every source; {@code complete} once the HyperNodes have been listed.
     */
    public synchronized void observe(TierCatalog catalog, TierCatalog all, boolean complete) {
        boolean arrived = !all.equals(inCluster);
        inCluster = all;
        if (!built) {
            observedAll |= complete;
            replace(catalog);
        } else if (arrived) {
            // gangs held until their tier's HyperNodes exist look again
            notifyListeners(current);
        }
    }

    @Override
    public TierCatalog inCluster() {
        return inCluster;
    }

    @Override
    public boolean settled() {
        return built || observedAll;
    }

    /** Listeners hear of a catalog only when it differs from the current one. */
    private void replace(TierCatalog catalog) {
        if (catalog.equals(current)) {
            return;
        }
        current = catalog;
        LOG.infof("tiers are now %s", catalog);
        notifyListeners(catalog);
    }

    private void notifyListeners(TierCatalog catalog) {
        for (Consumer<TierCatalog> listener : listeners) {
            try {
                listener.accept(catalog);
            } catch (RuntimeException e) {
                LOG.warnf(e, "a tier listener failed");
            }
        }
    }
}

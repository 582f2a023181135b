package io.topobridge.controller.topology;

import io.topobridge.cache.HyperNodeCache;
import io.topobridge.cache.OnChange;
import io.topobridge.cache.TierSource;
import io.topobridge.core.Topobridge;
import io.topobridge.core.topology.LabelScheme;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.process.ProcessPart;
import io.topobridge.volcano.HyperNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The tiers workloads may name right now, as the topology controller last built them from the nodes, or, on a replica
 * that does not build the topology itself, as the HyperNodes the leader wrote show them ({@code spec.tier} and
 * {@code spec.tierName} of the bridge's own HyperNodes; this part runs on every replica), so a follower's admission
 * resolves tier names against the same catalog the leader's reconcilers use. Also tells which tiers the HyperNodes of
 * every source have, i.e. what Volcano can enforce now. The workload side reads {@link #current()} and re-translates
 * when a listener hears of a change.
 */
@ApplicationScoped
public class Tiers implements TierSource, ProcessPart {

    private static final Logger LOG = Logger.getLogger(Tiers.class);

    @Inject
    HyperNodeCache hyperNodes;

    @Inject
    TopologySettings topology;

    private volatile TierCatalog current = TierCatalog.EMPTY;
    private volatile boolean built;
    private volatile boolean observedAll;
    private volatile TierCatalog inCluster = TierCatalog.EMPTY;
    private final List<Consumer<TierCatalog>> listeners = new CopyOnWriteArrayList<>();
    private final HyperNodeCache.Reader events = new Events();

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

    // ---- the HyperNodes in the cluster ----------------------------------------------------------------

    @Override
    public String name() {
        return "hypernode-tiers";
    }

    @Override
    public void start() {
        hyperNodes.open(events);
    }

    /** Every change, the first list and the CRD going away tell the tiers again. */
    private final class Events extends OnChange<HyperNode> implements HyperNodeCache.Reader {
        Events() {
            super(hyperNode -> observeHyperNodes());
        }

        @Override
        public void listed() {
            observeHyperNodes();
        }

        @Override
        public void gone() {
            observe(TierCatalog.EMPTY, TierCatalog.EMPTY, true);
        }
    }

    /** What the HyperNodes show, once they have all been listed (before that an empty cache says nothing). */
    private void observeHyperNodes() {
        if (!hyperNodes.synced()) {
            return;
        }
        List<HyperNode> all = hyperNodes.list();
        List<HyperNode> ours = all.stream().filter(Topobridge::ours).toList();
        observe(catalog(ours, topology.schemes()), catalog(all, List.of()), true);
    }

    /**
     * The catalog the tiers of these HyperNodes form, with the names and label keys the configured schemes give them:
     * what the leader's builder published, as names and keys depend on nothing else.
     */
    static TierCatalog catalog(List<HyperNode> hyperNodes, List<LabelScheme> schemes) {
        Set<TierCatalog.Tier> seen = new LinkedHashSet<>();
        for (HyperNode hn : hyperNodes) {
            if (hn.getSpec() == null
                    || hn.getSpec().getTier() == null
                    || hn.getSpec().getTier() < 1) {
                continue;
            }
            seen.add(new TierCatalog.Tier(hn.getSpec().getTier(), hn.getSpec().getTierName()));
        }
        return TierCatalog.of(new ArrayList<>(seen), schemes);
    }

    @Override
    public void stop() {
        hyperNodes.close(events);
    }

    @Override
    public boolean ready() {
        return !hyperNodes.running() || hyperNodes.synced();
    }

    @Override
    public Map<String, Object> details() {
        return Map.of("tiers", current.toString());
    }
}

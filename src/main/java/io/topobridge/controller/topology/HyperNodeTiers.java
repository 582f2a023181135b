package io.topobridge.controller.topology;

import io.topobridge.cache.HyperNodeCache;
import io.topobridge.cache.OnChange;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
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

/**
 * The tiers as the HyperNodes the leader wrote show them ({@code spec.tier} and {@code spec.tierName} of the bridge's
 * own HyperNodes), for replicas that do not build the topology themselves: a follower's admission resolves tier
 * names against the same catalog the leader's reconcilers use. Runs on every replica; once this replica's
 * topology controller publishes what it built, that takes precedence ({@link Tiers#observe}). Also tells which tiers
 * the HyperNodes of every source have, i.e. what Volcano can enforce now.
 */
@ApplicationScoped
public class HyperNodeTiers implements ProcessPart {

    @Inject
    HyperNodeCache hyperNodes;

    @Inject
    Tiers tiers;

    @Inject
    TopologySettings topology;

    private final HyperNodeCache.Reader events = new Events();

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
            super(hyperNode -> publish());
        }

        @Override
        public void listed() {
            publish();
        }

        @Override
        public void gone() {
            tiers.observe(TierCatalog.EMPTY, TierCatalog.EMPTY, true);
        }
    }

    /** What the HyperNodes show, once they have all been listed (before that an empty cache says nothing). */
    private void publish() {
        if (!hyperNodes.synced()) {
            return;
        }
        List<HyperNode> all = hyperNodes.list();
        List<HyperNode> ours = all.stream()
                .filter(hn -> hn.getMetadata().getLabels() != null
                        && Topobridge.SOURCE.equals(
                                hn.getMetadata().getLabels().get(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL)))
                .toList();
        tiers.observe(catalog(ours, topology.schemes()), catalog(all, List.of()), true);
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
        return Map.of("tiers", tiers.current().toString());
    }
}

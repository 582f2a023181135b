package io.topobridge.controller.topology;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.topobridge.cache.KindRegistry;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.process.ProcessPart;
import io.topobridge.volcano.HyperNode;
import jakarta.enterprise.context.ApplicationScoped;
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

    private final KubernetesClient client;
    private final KindRegistry kinds;
    private final Tiers tiers;
    private volatile SharedIndexInformer<HyperNode> informer;
    private volatile boolean started;

    public HyperNodeTiers(KubernetesClient client, KindRegistry kinds, Tiers tiers) {
        this.client = client;
        this.kinds = kinds;
        this.tiers = tiers;
    }

    @Override
    public String name() {
        return "hypernode-tiers";
    }

    @Override
    public Role role() {
        return Role.EVERY_REPLICA;
    }

    @Override
    public synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        kinds.addListener(change -> {
            if (VolcanoApi.HYPERNODE_CRD.equals(change.crdName())) {
                follow();
            }
        });
        follow();
    }

    private synchronized void follow() {
        boolean installed = kinds.installed(VolcanoApi.HYPERNODE_CRD);
        if (installed && informer == null) {
            informer = client.resources(HyperNode.class)
                    .inform(
                            new ResourceEventHandler<>() {
                                @Override
                                public void onAdd(HyperNode obj) {
                                    publish();
                                }

                                @Override
                                public void onUpdate(HyperNode old, HyperNode obj) {
                                    publish();
                                }

                                @Override
                                public void onDelete(HyperNode obj, boolean unknown) {
                                    publish();
                                }
                            },
                            0);
            publish();
        } else if (!installed && informer != null) {
            informer.stop();
            informer = null;
            tiers.observe(TierCatalog.EMPTY, TierCatalog.EMPTY, true);
        }
    }

    private void publish() {
        SharedIndexInformer<HyperNode> current = informer;
        if (current == null) {
            return;
        }
        List<HyperNode> all = current.getStore().list();
        List<HyperNode> ours = all.stream()
                .filter(hn -> hn.getMetadata().getLabels() != null
                        && Topobridge.SOURCE.equals(
                                hn.getMetadata().getLabels().get(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL)))
                .toList();
        tiers.observe(catalog(ours), catalog(all), current.hasSynced());
    }

    /** The catalog the tiers of these HyperNodes form. */
    static TierCatalog catalog(List<HyperNode> hyperNodes) {
        Set<TierCatalog.Tier> seen = new LinkedHashSet<>();
        for (HyperNode hn : hyperNodes) {
            if (hn.getSpec() == null
                    || hn.getSpec().getTier() == null
                    || hn.getSpec().getTier() < 1) {
                continue;
            }
            seen.add(new TierCatalog.Tier(hn.getSpec().getTier(), hn.getSpec().getTierName()));
        }
        return TierCatalog.of(new ArrayList<>(seen));
    }

    @Override
    public synchronized void stop() {
        if (informer != null) {
            informer.stop();
            informer = null;
        }
    }

    @Override
    public boolean ready() {
        SharedIndexInformer<HyperNode> current = informer;
        return current == null || current.hasSynced();
    }

    @Override
    public Map<String, Object> details() {
        return Map.of("tiers", tiers.current().toString());
    }
}

package io.topobridge.controller.workload;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.topobridge.cache.ClusterView;
import io.topobridge.cache.TierSource;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.capacity.Achieved;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.resources.Quantities;
import io.topobridge.core.workload.changes.QueueStates;
import io.topobridge.core.workload.reconcile.ClusterFacts;
import io.topobridge.core.workload.reconcile.PassFacts;
import io.topobridge.volcano.Queue;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/** What one pass of the reconciler knows besides the workloads, read from the controller's caches. */
final class CachedFacts {

    private static final Logger LOG = Logger.getLogger(CachedFacts.class);

    /**
     * The facts now: tiers, capacity, queues, where gangs run and the namespaces' pods, with the acting replica's
     * memory of domain losses and restarts (null: nothing is restarted).
     */
    static PassFacts read(
            WorkloadCaches lookup, ClusterView view, TierSource tiers, Instant now, DomainLossRestarts.Ledger ledger) {
        // read before the forest: a forest built while the HyperNodes were still being listed is not used
        boolean placementKnown = view.placementKnown();
        Supplier<Forest> forest = once(view::forest);
        Supplier<Capacity> capacity = once(view::capacity);
        ClusterFacts cluster = new ClusterFacts() {
            @Override
            public Optional<Achieved> achieved(String namespace, String podGroup) {
                return placementKnown
                        ? Optional.ofNullable(lookup.podGroup(namespace, podGroup))
                                .flatMap(pg -> Achieved.of(view.gang(pg), forest.get()))
                        : Optional.empty();
            }

            @Override
            public List<Pod> livePods(String namespace) {
                return view.livePods(namespace);
            }

            @Override
            public Optional<GangView> gang(String namespace, String podGroup) {
                // judged on a whole picture only: a node not listed yet is not a node gone
                return placementKnown && view.ready()
                        ? Optional.ofNullable(lookup.podGroup(namespace, podGroup))
                                .map(view::gang)
                        : Optional.empty();
            }

            @Override
            public Optional<NodeState> node(String name) {
                return view.nodeState(name);
            }

            @Override
            public Capacity capacity() {
                return capacity.get();
            }

            @Override
            public DomainLossRestarts.Ledger ledger() {
                return ledger;
            }
        };
        return new PassFacts(
                tiers.current(),
                tiers.settled() ? tiers.inCluster() : null,
                view.clusterAllocatable(),
                queues(lookup),
                now,
                cluster);
    }

    /** Volcano's queues as the cache shows them; unknown while they cannot be read. */
    static QueueStates queues(WorkloadCaches lookup) {
        if (!lookup.queuesKnown()) {
            return QueueStates.UNKNOWN;
        }
        Map<String, String> states = new HashMap<>();
        Map<String, Map<String, BigDecimal>> capability = new HashMap<>();
        for (Queue queue : lookup.allQueues()) {
            String name = queue.getMetadata().getName();
            String state = CacheChanges.state(queue);
            states.put(name, state == null ? "" : state);
            Map<String, String> limits = CacheChanges.capability(queue);
            if (limits != null && !limits.isEmpty()) {
                Map<String, BigDecimal> amounts = new TreeMap<>();
                limits.forEach((resource, value) -> {
                    try {
                        amounts.put(resource, Quantities.amount(new Quantity(value)));
                    } catch (RuntimeException e) {
                        // Volcano's webhook refuses such a capability: it limits nothing here
                        LOG.debugf(
                                "queue %s: capability %s=%s is not a quantity: ignored",
                                name, resource, UserText.quote(value));
                    }
                });
                capability.put(name, amounts);
            }
        }
        return new QueueStates(true, states, capability);
    }

    /** A supplier that asks {@code source} the first time only. */
    static <T> Supplier<T> once(Supplier<T> source) {
        return new Supplier<>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = source.get();
                }
                return value;
            }
        };
    }
}

package io.topobridge.core.workload.reconcile;

import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.recovery.DomainLossRestarts;
import java.util.Optional;

/**
 * What the pass knows of running gangs for their recovery: a gang's pods, the state of a node (empty when it does not
 * exist) and the capacity (asked only for a gang that is short of pods). The controller answers from its caches;
 * {@code render}, which sees no running cluster, with {@link #NONE}.
 */
public interface RecoveryFacts {

    /** Nothing known: no gang is judged. */
    RecoveryFacts NONE = new RecoveryFacts() {
        @Override
        public Optional<GangView> gang(String namespace, String podGroup) {
            return Optional.empty();
        }

        @Override
        public Optional<NodeState> node(String name) {
            return Optional.of(NodeState.SCHEDULABLE);
        }

        @Override
        public Capacity capacity() {
            throw new IllegalStateException("no capacity without a cluster");
        }
    };

    /** The gang of PodGroup {@code namespace/podGroup} with its pods; empty when its PodGroup is not there. */
    Optional<GangView> gang(String namespace, String podGroup);

    /** Whether a node takes new pods; empty when it does not exist (a pod bound to it is lost). */
    Optional<NodeState> node(String name);

    /** Capacity of every node and domain; computed once a pass, only when a gang needs it. */
    Capacity capacity();

    /**
     * The acting replica's memory of domain losses and restarts as the pass begins (what it remembers next comes out
     * in the outcomes); null where nothing may be restarted ({@code render}, a replica that does not write): then no
     * gang is restarted.
     */
    default DomainLossRestarts.Ledger ledger() {
        return null;
    }
}

package io.topobridge.core.workload.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.capacity.Achieved;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.recovery.DomainLossRestarts;
import java.util.List;
import java.util.Optional;

/**
 * What the pods and nodes of the cluster say about the gangs: where Volcano placed a gang whose pods are all bound, the
 * live pods of a namespace (to find those of a gang that do not name its PodGroup), and for the recovery of running
 * gangs their pods, the state of a node and the capacity. The controller answers from its caches; {@code render},
 * which sees no running cluster, with {@link #NONE}. Each answer defaults to nothing known.
 */
public interface ClusterFacts {

    /** Nothing known: no gang is placed, no pod exists, no gang is judged. */
    ClusterFacts NONE = new ClusterFacts() {};

    /**
     * Where Volcano put the pods of PodGroup {@code namespace/podGroup}, when all of them are bound; empty otherwise,
     * and empty while the pods or HyperNodes are still being read (a gang then keeps the achieved tier its PodGroup
     * carries, rather than a restart writing "none" on every placed gang and then its tier back).
     */
    default Optional<Achieved> achieved(String namespace, String podGroup) {
        return Optional.empty();
    }

    /** The pods of a namespace that are neither finished nor being deleted. */
    default List<Pod> livePods(String namespace) {
        return List.of();
    }

    /** The gang of PodGroup {@code namespace/podGroup} with its pods; empty when its PodGroup is not there. */
    default Optional<GangView> gang(String namespace, String podGroup) {
        return Optional.empty();
    }

    /** Whether a node takes new pods; empty when it does not exist (a pod bound to it is lost). */
    default Optional<NodeState> node(String name) {
        return Optional.of(NodeState.SCHEDULABLE);
    }

    /** Capacity of every node and domain; computed once a pass, only when a gang needs it. */
    default Capacity capacity() {
        throw new IllegalStateException("no capacity without a cluster");
    }

    /**
     * The acting replica's memory of domain losses and restarts as the pass begins (what it remembers next comes out
     * in the outcomes); null where nothing may be restarted ({@code render}, a replica that does not write): then no
     * gang is restarted.
     */
    default DomainLossRestarts.Ledger ledger() {
        return null;
    }
}

package io.topobridge.core.workload.reconcile;

import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.changes.QueueStates;
import java.time.Instant;
import java.util.Objects;

/**
 * What one reconcile pass knows of the cluster besides its workloads (those come through the lookup), read once per
 * pass: by the controller from its caches, by {@code render} from its input files.
 *
 * @param tiers the tiers annotations are resolved against
 * @param inCluster the tiers the cluster's HyperNodes have now; null when unknown (then no new PodGroup waits for its
 *     tier's HyperNodes)
 * @param clusterAllocatable the allocatable resources of every node together; null when unknown (then no gang is
 *     judged against the cluster, nor a namespace's share of it)
 * @param queues Volcano's queues; {@link QueueStates#UNKNOWN} when not read
 * @param now the pass's time (waits for room and for a group's members are measured against it)
 * @param cluster where gangs were placed, the namespaces' live pods and what is known of running gangs that lost pods
 *     or room ({@link ClusterFacts#NONE} in {@code render})
 */
public record PassFacts(
        TierCatalog tiers,
        TierCatalog inCluster,
        Amounts clusterAllocatable,
        QueueStates queues,
        Instant now,
        ClusterFacts cluster) {

    public PassFacts {
        Objects.requireNonNull(tiers, "tiers");
        Objects.requireNonNull(queues, "queues");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(cluster, "cluster");
    }
}

package io.topobridge.core.workload.changes;

import io.topobridge.core.capacity.Achieved;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.changes.PodGroupChanges.Bounds;
import io.topobridge.core.workload.translate.ScopeResult;
import java.util.List;
import java.util.Map;

/** Shortcuts to {@link PodGroupChanges#plan} for tests: nothing placed, tiers unknown, nothing bounded. */
public final class TestPlans {

    /** No limit on what a namespace's PodGroups reserve together: no quota, no share, no fixed amounts. */
    public static final Reservations NO_RESERVATIONS =
            Reservations.of(new Reservations.Settings(null, Map.of()), List.of(), null);

    private TestPlans() {}

    public static PodGroupChanges.Plan plan(ScopeResult result, List<ObservedPodGroup> observed, QueueStates queues) {
        return plan(result, observed, queues, Map.of(), null);
    }

    public static PodGroupChanges.Plan plan(
            ScopeResult result,
            List<ObservedPodGroup> observed,
            QueueStates queues,
            Map<String, Achieved> placed,
            TierCatalog inCluster) {
        return PodGroupChanges.plan(
                result, observed, queues, placed, inCluster, new Bounds(null, Integer.MAX_VALUE, NO_RESERVATIONS));
    }
}

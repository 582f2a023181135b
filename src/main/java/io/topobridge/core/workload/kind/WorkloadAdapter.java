package io.topobridge.core.workload.kind;

import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.gang.PodIdentity;
import java.util.List;
import java.util.Optional;

/**
 * What the bridge knows of one kind of gang scope: the gangs it has and the PodGroups each should have. Pod
 * admission uses the same gangs, so a pod's PodGroup, task-spec and labels come from the plan that counts it.
 */
public interface WorkloadAdapter {

    /** Every gang of a scope this adapter owns (none when the scope's workload is gone). */
    List<Gang> gangs(GangScope scope, Snapshot snapshot);

    /** The gang of a scope a pod with these facts belongs to. */
    default Optional<Gang> gangOf(GangScope scope, PodIdentity pod, Snapshot snapshot) {
        return gangs(scope, snapshot).stream()
                .filter(g -> !g.preview() && g.covers().covers(pod))
                .findFirst();
    }
}

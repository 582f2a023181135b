package io.topobridge.core.workload.kind;

import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.workload.gang.PodIdentity;

/** A kind whose workloads can join a {@code topobridge.io/group}, each as one role of the group's gang. */
public interface GroupMember {

    /** What one workload brings to its group's gang; {@code present} is a pod known to exist (see {@link Gang#keyed}). */
    Member member(Workload workload, PodIdentity present, PodRequests requests);

    /** Whether this object is a member of the group its scope names, not part of another workload that is. */
    default boolean joins(Workload workload) {
        return true;
    }
}

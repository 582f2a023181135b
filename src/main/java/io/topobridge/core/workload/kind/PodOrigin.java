package io.topobridge.core.workload.kind;

import io.topobridge.core.workload.gang.PodIdentity;
import java.util.Objects;

/** Where a pod being created comes from: the workload whose gang it joins, and what is known of its place there. */
public record PodOrigin(Workload workload, PodIdentity identity) {
    public PodOrigin {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(identity, "identity");
    }
}

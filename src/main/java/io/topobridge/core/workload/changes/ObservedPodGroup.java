package io.topobridge.core.workload.changes;

import io.topobridge.core.workload.GangScope;
import java.util.Objects;
import java.util.Optional;

/**
 * A PodGroup as the cache shows it, reduced to what the planner decides on: whether the bridge made it
 * ({@code ours}), the gang scope it belongs to ({@code gang}, null when no scope claims it), and whether the bridge
 * still owns fields on it (a foreign PodGroup it adopted).
 */
public record ObservedPodGroup(String namespace, String name, boolean ours, GangScope gang, boolean ownsFields,
        String queue) {

    public ObservedPodGroup {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    /** The scope the PodGroup belongs to, if any. */
    public Optional<GangScope> scope() {
        return Optional.ofNullable(gang);
    }
}

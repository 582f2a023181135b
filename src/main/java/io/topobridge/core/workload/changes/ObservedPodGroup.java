package io.topobridge.core.workload.changes;

import io.topobridge.core.workload.GangScope;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A PodGroup as the cache shows it, reduced to what the planner decides on: whether the bridge made it
 * ({@code ours}), the gang scope it belongs to ({@code gang}, null when no scope claims it), and whether the bridge
 * still owns fields on it (a foreign PodGroup it adopted); {@code placement} holds the achieved-tier annotations it
 * carries now.
 */
public record ObservedPodGroup(
        String namespace,
        String name,
        boolean ours,
        GangScope gang,
        boolean ownsFields,
        String queue,
        Map<String, String> placement) {

    public ObservedPodGroup {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        placement = placement == null ? Map.of() : Map.copyOf(placement);
    }

    /** A PodGroup with no queue known and no placement annotations. */
    public ObservedPodGroup(String namespace, String name, boolean ours, GangScope gang, boolean ownsFields) {
        this(namespace, name, ours, gang, ownsFields, null, Map.of());
    }

    /** A PodGroup with no placement annotations. */
    public ObservedPodGroup(
            String namespace, String name, boolean ours, GangScope gang, boolean ownsFields, String queue) {
        this(namespace, name, ours, gang, ownsFields, queue, Map.of());
    }

    /** The scope the PodGroup belongs to, if any. */
    public Optional<GangScope> scope() {
        return Optional.ofNullable(gang);
    }
}

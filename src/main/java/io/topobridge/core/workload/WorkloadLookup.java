package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Read access to workloads: informer caches in the controller, the input files in {@code render}.
 * Custom kinds come back as {@code GenericKubernetesResource}, built-in kinds as their typed classes.
 * Implementations must return objects the caller may read but never mutate.
 */
public interface WorkloadLookup {

    Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name);

    List<HasMetadata> list(WorkloadKind kind, String namespace);

    /**
     * The Volcano PodGroups of a namespace, used to find those another controller (AIBrix, LWS's Volcano
     * provider) already made for a gang. Empty where unknown (e.g. {@code render} without PodGroups in its input).
     */
    default List<HasMetadata> podGroups(String namespace) {
        return List.of();
    }

    /**
     * A namespace's annotations, where admins say which Volcano queues its workloads may use
     * ({@code topobridge.io/allowed-queues}) and name its default queue ({@code scheduling.volcano.sh/queue-name}).
     * Empty where the namespace is unknown.
     */
    default Map<String, String> namespaceAnnotations(String namespace) {
        return Map.of();
    }
}

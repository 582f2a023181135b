package io.topobridge.core.capacity;

import io.topobridge.core.node.Toleration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A pod as diagnosis needs it: where it is bound ({@code node}, null while pending), its effective requests, its
 * labels (subgroups select on them), its role ({@code volcano.sh/task-spec}) and its gang (the PodGroup named by
 * {@code scheduling.k8s.io/group-name}, null when none), its tolerations (those in its spec; what the
 * {@code ExtendedResourceToleration} plugin would add is derived from its requests, see {@link #effectiveTolerations}),
 * {@code created} (null when unknown) and {@code deleting} (it has a deletion timestamp: it is on its way out, and its
 * workload may already have made its replacement) and {@code uid} (null when unknown: a restart deletes a pod only
 * by its uid).
 */
public record PodView(
        String namespace,
        String name,
        String node,
        Amounts requests,
        Map<String, String> labels,
        String taskSpec,
        String podGroup,
        List<Toleration> tolerations,
        Instant created,
        boolean deleting,
        String uid) {

    public PodView {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        requests = requests == null ? Amounts.NONE : requests;
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }

    /** Its tolerations and those that a request of an extended resource brings ({@link Toleration#forPod}). */
    public List<Toleration> effectiveTolerations() {
        return Toleration.forPod(tolerations, requests.values().keySet());
    }

    public boolean bound() {
        return node != null && !node.isEmpty();
    }
}

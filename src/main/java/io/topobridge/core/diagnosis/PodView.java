package io.topobridge.core.diagnosis;

import java.util.Map;
import java.util.Objects;

/**
 * A pod as diagnosis needs it: where it is bound ({@code node}, null while pending), its effective requests, its
 * labels (subgroups select on them), its role ({@code volcano.sh/task-spec}) and its gang (the PodGroup named by
 * {@code scheduling.k8s.io/group-name}, null when none).
 */
public record PodView(
        String namespace,
        String name,
        String node,
        Amounts requests,
        Map<String, String> labels,
        String taskSpec,
        String podGroup) {

    public PodView {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        requests = requests == null ? Amounts.NONE : requests;
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    public boolean bound() {
        return node != null && !node.isEmpty();
    }
}

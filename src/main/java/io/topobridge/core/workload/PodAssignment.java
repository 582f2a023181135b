package io.topobridge.core.workload;

import java.util.Map;
import java.util.Objects;

/**
 * Where a pod belongs and what admission must stamp on it: the PodGroup name (annotation
 * {@code scheduling.k8s.io/group-name}), the role's {@code volcano.sh/task-spec}, and the labels its
 * subGroupPolicy selects on.
 */
public record PodAssignment(String podGroupName, String taskSpec, Map<String, String> labels) {
    public PodAssignment {
        Objects.requireNonNull(podGroupName, "podGroupName");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
}

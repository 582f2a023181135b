package io.topobridge.core.workload.gang;

import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.Objects;

/**
 * {@code count} identical pods of one gang, made from one pod template. {@code taskSpec} is the
 * {@code volcano.sh/task-spec} admission gives them: distinct per role, because Volcano assumes pods with
 * equal task-spec are interchangeable when one does not fit.
 */
public record PodRole(String taskSpec, long count, PodSpec spec) {
    public PodRole {
        Objects.requireNonNull(taskSpec, "taskSpec");
    }
}

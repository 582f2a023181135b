package io.topobridge.core.workload.gang;

import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.Map;
import java.util.Objects;

/**
 * {@code count} identical pods of one gang, made from one pod template, and what admission stamps on them.
 * {@code taskSpec} is their {@code volcano.sh/task-spec}: distinct per role, because Volcano assumes pods with
 * equal task-spec are interchangeable when one does not fit. {@code selector} holds the facts every one of these
 * pods has, so a pod being admitted finds its role (and thereby its PodGroup) in the same plan that counts it;
 * {@code podLabels} are the labels admission adds for the gang's subgroups to select them.
 */
public record PodRole(String taskSpec, long count, PodSpec spec, PodIdentity selector, Map<String, String> podLabels) {
    public PodRole {
        Objects.requireNonNull(taskSpec, "taskSpec");
        Objects.requireNonNull(selector, "selector");
        podLabels = podLabels == null ? Map.of() : Map.copyOf(podLabels);
    }

    public PodRole(String taskSpec, long count, PodSpec spec, PodIdentity selector) {
        this(taskSpec, count, spec, selector, Map.of());
    }
}

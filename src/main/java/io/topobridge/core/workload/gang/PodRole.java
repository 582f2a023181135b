package io.topobridge.core.workload.gang;

import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code count} identical pods of one gang, made from one pod template, and what admission stamps on them.
 * {@code taskSpec} is their {@code volcano.sh/task-spec}: distinct per role, because Volcano assumes pods with
 * equal task-spec are interchangeable when one does not fit. {@code selector} holds the facts every one of these
 * pods has, so a pod being admitted finds its role (and thereby its PodGroup) in the same plan that counts it;
 * {@code podLabels} are the labels admission adds for the gang's subgroups to select them. {@code atStart} is how many
 * of them the workload's controller creates before any pod of the gang runs: all of them for most controllers, fewer
 * where it waits for pods to be Ready (StatefulSet {@code OrderedReady}, LWS {@code LeaderReady}); the gang's
 * {@code minMember} counts only those, or it would wait for pods that cannot exist yet.
 */
public record PodRole(
        String taskSpec, long count, PodSpec spec, PodIdentity selector, Map<String, String> podLabels, long atStart) {
    public PodRole {
        Objects.requireNonNull(taskSpec, "taskSpec");
        Objects.requireNonNull(selector, "selector");
        podLabels = podLabels == null ? Map.of() : Map.copyOf(podLabels);
        if (atStart < 0 || atStart > count) {
            throw new IllegalArgumentException("atStart " + atStart + " outside 0.." + count);
        }
    }

    /** A role with no pod labels of its own, all of whose pods exist when the gang starts. */
    public static PodRole of(String taskSpec, long count, PodSpec spec, PodIdentity selector) {
        return new PodRole(taskSpec, count, spec, selector, Map.of(), count);
    }

    /** The pods of {@code roles} (a gang's size), or only those that exist before any of them runs ({@link #atStart}). */
    public static long count(List<PodRole> roles, boolean atStart) {
        long pods = 0;
        for (PodRole role : roles) {
            pods += atStart ? role.atStart : role.count;
        }
        return pods;
    }

    /** The same role of which only {@code atStart} pods exist when the gang starts. */
    public PodRole startingWith(long atStart) {
        return new PodRole(taskSpec, count, spec, selector, podLabels, Math.min(atStart, count));
    }
}

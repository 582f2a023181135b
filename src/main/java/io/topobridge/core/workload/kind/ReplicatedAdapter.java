package io.topobridge.core.workload.kind;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import java.util.List;
import java.util.Map;

/**
 * Deployment and StatefulSet: one PodGroup per workload ({@code replicas} pods of one template), or, in a
 * {@code topobridge.io/group}, one role of the group's PodGroup, told apart by the bridge's member label.
 */
public final class ReplicatedAdapter {

    private ReplicatedAdapter() {
    }

    /** The pod template and replica count, from a typed or generic object. */
    public record Shape(PodTemplateSpec template, int replicas) {
    }

    public static Shape shape(Workload w) {
        if (w.object() instanceof Deployment d) {
            return new Shape(d.getSpec() == null ? null : d.getSpec().getTemplate(),
                    d.getSpec() == null || d.getSpec().getReplicas() == null ? 1 : nonNegative(d.getSpec().getReplicas()));
        }
        if (w.object() instanceof StatefulSet s) {
            return new Shape(s.getSpec() == null ? null : s.getSpec().getTemplate(),
                    s.getSpec() == null || s.getSpec().getReplicas() == null ? 1 : nonNegative(s.getSpec().getReplicas()));
        }
        return new Shape(Workload.template(w.spec().path("template")), Workload.integer(w.spec().get("replicas"),
                "spec.replicas", 1));
    }

    private static int nonNegative(int replicas) {
        if (replicas < 0) {
            throw new IllegalArgumentException("spec.replicas is negative: " + replicas);
        }
        return replicas;
    }

    public static List<AnnotationSource> sources(Workload w) {
        return List.of(w.metadataSource(), w.templateSource(shape(w).template(), "pod template"));
    }

    public static long podCount(Workload w) {
        return shape(w).replicas();
    }

    public static String podGroupName(Workload w) {
        return w.kind() == WorkloadKind.DEPLOYMENT ? PodGroupNames.deployment(w.name())
                : PodGroupNames.statefulSet(w.name());
    }

    /** The task-spec of a standalone workload's pods. */
    public static String taskSpec(Workload w) {
        return PodGroupNames.labelValue(w.name());
    }

    public static List<GangPlan> plans(Workload w, GangScope scope) {
        Shape shape = shape(w);
        if (shape.replicas() == 0) {
            return List.of();
        }
        var role = new PodRole(taskSpec(w), shape.replicas(), shape.template() == null ? null : shape.template().getSpec());
        return List.of(GangPlan.owned(scope, podGroupName(w), w.ownerReferences(), List.of(role), List.of()));
    }

    /** The member label value (and task-spec) of a workload in a group: kind tag and name. */
    public static String memberValue(Workload w) {
        return PodGroupNames.labelValue((w.kind() == WorkloadKind.DEPLOYMENT ? "deploy-" : "sts-") + w.name());
    }

    public static Member member(Workload w) {
        Shape shape = shape(w);
        String value = memberValue(w);
        if (shape.replicas() == 0) {
            return new Member(List.of(), List.of(), Map.of(WorkloadLabels.MEMBER, value));
        }
        var role = new PodRole(value, shape.replicas(), shape.template() == null ? null : shape.template().getSpec());
        var sub = new SubGroupPlan(value, Map.of(WorkloadLabels.MEMBER, value), List.of(),
                List.of(WorkloadLabels.MEMBER), shape.replicas());
        return new Member(List.of(role), List.of(sub), Map.of(WorkloadLabels.MEMBER, value));
    }
}

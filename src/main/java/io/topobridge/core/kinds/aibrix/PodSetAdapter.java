package io.topobridge.core.kinds.aibrix;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.kind.Gang;
import io.topobridge.core.workload.kind.KindAdapter;
import io.topobridge.core.workload.kind.PodOrigin;
import io.topobridge.core.workload.kind.Pods;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * AIBrix PodSet: {@code podGroupSize} pods of one role of a RoleSet (then the RoleSet's scope is its scope), or
 * a gang of its own when made by hand. With its own {@code volcanoSchedulingStrategy} AIBrix makes PodGroup
 * {@code <podset>}, which the bridge adopts.
 */
public final class PodSetAdapter implements KindAdapter {

    @Override
    public WorkloadKind kind() {
        return WorkloadKind.POD_SET;
    }

    @Override
    public Optional<GangScope> scopeOf(Workload podSet, Snapshot snapshot) {
        Optional<OwnerReference> roleSet = podSet.owner(WorkloadKind.ROLE_SET);
        if (roleSet.isEmpty()) {
            return Optional.of(new GangScope.Single(kind(), podSet.namespace(), podSet.name()));
        }
        Optional<Workload> parent = snapshot.get(
                WorkloadKind.ROLE_SET, podSet.namespace(), roleSet.get().getName());
        return parent.isPresent()
                ? snapshot.scopeOf(parent.get())
                : Optional.of(new GangScope.Single(
                        WorkloadKind.ROLE_SET, podSet.namespace(), roleSet.get().getName()));
    }

    private static PodTemplateSpec template(Workload podSet) {
        return podSet.memo(
                "podset-template", () -> Workload.template(podSet.spec().get("template"), "spec.template"));
    }

    @Override
    public List<AnnotationSource> sources(Workload podSet) {
        return List.of(podSet.metadataSource(), podSet.templateSource(template(podSet), "pod template"));
    }

    @Override
    public List<Gang> gangs(GangScope scope, Snapshot snapshot) {
        return ownGang(scope, snapshot, ps -> Gang.keyed((present, notes) -> plans(ps, scope, present, notes)));
    }

    /** A PodSet made by hand: a gang of {@code podGroupSize} pods. */
    private List<GangPlan> plans(Workload ps, GangScope scope, PodIdentity present, List<Finding> notes) {
        PodIdentity selector = selector(ps);
        int declared = Workload.integer(ps.spec().get("podGroupSize"), "spec.podGroupSize", 1);
        int size = selector.covers(present) ? Math.max(declared, 1) : declared;
        PodTemplateSpec template = template(ps);
        var role = PodRole.of(
                PodGroupNames.labelValue(ps.name()), size, template == null ? null : template.getSpec(), selector);
        if (Aibrix.volcano(ps.spec(), "spec")) {
            notes.add(Aibrix.adopted(ps.ref(), ps.name()));
            return List.of(GangPlan.adopted(scope, ps.name(), List.of(role), List.of(), GangPlan.Level.GANG));
        }
        if (size == 0) {
            return List.of();
        }
        return List.of(
                GangPlan.owned(scope, PodGroupNames.podSet(ps.name()), ps.ownerReferences(), List.of(role), List.of()));
    }

    @Override
    public Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot) {
        Map<String, String> labels = Pods.labels(pod);
        String name = labels.get(WorkloadLabels.AIBRIX_POD_SET);
        Workload ps = name == null
                ? null
                : snapshot.get(kind(), Pods.namespace(pod), name).orElse(null);
        if (ps == null) {
            return Optional.empty();
        }
        if (ps.owner(WorkloadKind.ROLE_SET).isPresent()) {
            // a PodSet of a RoleSet: its pod is one of the RoleSet's, whose role the PodSet's labels name
            return RoleSetAdapter.origin(
                    snapshot,
                    ps.namespace(),
                    ps.labels().get(WorkloadLabels.AIBRIX_ROLE_SET),
                    ps.labels().get(WorkloadLabels.AIBRIX_ROLE),
                    ps.name());
        }
        return Optional.of(new PodOrigin(ps, selector(ps)));
    }

    /** AIBrix's PodGroup is owned by the PodSet it is made for and named after it. */
    @Override
    public Optional<GangScope> scopeOfPodGroup(HasMetadata podGroup, Snapshot snapshot) {
        return Aibrix.scopeOfPodGroup(kind(), podGroup, snapshot);
    }
}

package io.topobridge.core.kinds.aibrix;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.PodIdentity;
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
 * AIBrix RoleSet: one P/D replica of a StormService (then its StormService is the scope), or a gang of its own
 * when made by hand. Its pods carry {@code roleset-name} and {@code role-name} (and the PodSet's name where
 * {@code podGroupSize > 1}).
 */
public final class RoleSetAdapter implements KindAdapter {

    @Override
    public WorkloadKind kind() {
        return WorkloadKind.ROLE_SET;
    }

    @Override
    public Optional<GangScope> scopeOf(Workload roleSet, Snapshot snapshot) {
        String ns = roleSet.namespace();
        return Optional.of(roleSet.owner(WorkloadKind.STORM_SERVICE)
                .map(storm -> new GangScope.Single(WorkloadKind.STORM_SERVICE, ns, storm.getName()))
                .orElseGet(() -> new GangScope.Single(WorkloadKind.ROLE_SET, ns, roleSet.name())));
    }

    @Override
    public List<AnnotationSource> sources(Workload roleSet) {
        return Aibrix.roleSetSources(roleSet);
    }

    @Override
    public List<Gang> gangs(GangScope scope, Snapshot snapshot) {
        return ownGang(
                scope,
                snapshot,
                rs -> Gang.keyed((present, notes) ->
                        Aibrix.roleSetPlans(Aibrix.RoleSetShape.of(rs), scope, rs.ref(), snapshot, present, notes)));
    }

    @Override
    public Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot) {
        Map<String, String> labels = Pods.labels(pod);
        String name = labels.get(WorkloadLabels.AIBRIX_ROLE_SET);
        String role = labels.get(WorkloadLabels.AIBRIX_ROLE);
        if (name == null) {
            return Optional.empty();
        }
        return origin(snapshot, Pods.namespace(pod), name, role, labels.get(WorkloadLabels.AIBRIX_POD_SET));
    }

    /** A pod of one role of a RoleSet (the StormService that made it must be known too). */
    public static Optional<PodOrigin> origin(
            Snapshot snapshot, String namespace, String roleSetName, String role, String podSet) {
        Optional<Workload> roleSet = snapshot.get(WorkloadKind.ROLE_SET, namespace, roleSetName);
        if (roleSet.isEmpty() || role == null) {
            return Optional.empty();
        }
        Optional<OwnerReference> storm = roleSet.get().owner(WorkloadKind.STORM_SERVICE);
        if (storm.isPresent()
                && snapshot.get(
                                WorkloadKind.STORM_SERVICE,
                                namespace,
                                storm.get().getName())
                        .isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new PodOrigin(
                roleSet.get(),
                PodIdentity.of(
                        PodIdentity.WORKLOAD,
                        WorkloadKind.ROLE_SET.kind() + "/" + roleSetName,
                        PodIdentity.ROLE,
                        role,
                        PodIdentity.POD_SET,
                        podSet)));
    }

    /** AIBrix's PodGroup is owned by the RoleSet it is made for and named after it. */
    @Override
    public Optional<GangScope> scopeOfPodGroup(HasMetadata podGroup, Snapshot snapshot) {
        return Aibrix.scopeOfPodGroup(kind(), podGroup, snapshot);
    }
}

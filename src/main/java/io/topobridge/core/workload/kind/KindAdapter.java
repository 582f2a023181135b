package io.topobridge.core.workload.kind;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.PodIdentity;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one place a workload kind is known: which objects it reads, the gang scope of an object, where its
 * annotations are written, its gangs and their PodGroups, which PodGroups its own controller makes (adoption)
 * and which pods it makes. Modelled on Kueue's GenericJob adapters.
 */
public interface KindAdapter {

    WorkloadKind kind();

    /** Every gang of a scope this adapter owns (none when the scope's workload is gone). */
    List<Gang> gangs(GangScope scope, Snapshot snapshot);

    /**
     * The gang of a scope a pod with these facts belongs to. Pod admission uses the same gangs, so a pod's PodGroup,
     * task-spec and labels come from the plan that counts it.
     */
    default Optional<Gang> gangOf(GangScope scope, PodIdentity pod, Snapshot snapshot) {
        return Gang.covering(gangs(scope, snapshot), pod);
    }

    /**
     * The scope an object of this kind belongs to: itself, its group, or the workload that made it (a RoleSet's
     * StormService, an LWS's DisaggregatedSet). Empty for objects that are never a gang (an LWS's StatefulSets).
     */
    Optional<GangScope> scopeOf(Workload workload, Snapshot snapshot);

    /** The fact every pod {@code workload} made carries: its {@code Kind/name} ({@link PodIdentity#WORKLOAD}). */
    default PodIdentity selector(Workload workload) {
        return PodIdentity.of(PodIdentity.WORKLOAD, kind().kind() + "/" + workload.name());
    }

    /** Where the object's annotations are read: its metadata and its pod templates. */
    List<AnnotationSource> sources(Workload workload);

    /**
     * Where a pod being created comes from, if this kind's controller made it, found from its labels and owner
     * chain alone (the pod may come before its PodGroup).
     */
    Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot);

    /**
     * Where a pod comes from that runs in {@code child}, a workload an object of this kind made and controls (a
     * DisaggregatedSet's LeaderWorkerSet); empty for kinds that make no workloads of other kinds.
     */
    default Optional<PodOrigin> originThrough(Workload child, Pod pod, Snapshot snapshot) {
        return Optional.empty();
    }

    /** The scope of a PodGroup this kind's own controller made, so that its appearance triggers adoption. */
    default Optional<GangScope> scopeOfPodGroup(HasMetadata podGroup, Snapshot snapshot) {
        return Optional.empty();
    }

    /**
     * The label under which the kind's controller gives each pod its index in the gang (what slices are cut by), when
     * it gives one; its adapter then also puts that index in the pod's {@code PodIdentity.INDEX} fact.
     */
    default Optional<String> podIndexLabel() {
        return Optional.empty();
    }

    /**
     * The part of {@code scope}'s gangs {@code autoscaler} grows when it targets an object of this kind; empty when
     * it targets another kind, or adds gangs rather than growing one.
     */
    default Optional<ScaledRoles.Unit> scaledPart(Autoscaler autoscaler, GangScope scope, Snapshot snapshot) {
        return Optional.empty();
    }

    /**
     * The one gang of the workload of this kind a scope names, read from the workload's own sources: none when the
     * workload is gone or no longer heads that scope.
     */
    default List<Gang> ownGang(GangScope scope, Snapshot snapshot, Function<Workload, Gang.Plans> plans) {
        return snapshot.get(kind(), scope.namespace(), scope.name())
                .filter(w -> scope.equals(snapshot.scopeOf(w).orElse(null)))
                .map(w -> List.of(new Gang(sources(w), List.of(w.ref()), PodIdentity.NONE, plans.apply(w), false)))
                .orElse(List.of());
    }
}

package io.topobridge.core.workload.kind;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.resources.ResourceSum;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The parts of a gang an autoscaler grows: a Deployment or StatefulSet of the gang (alone or in a
 * {@code topobridge.io/group}), a LeaderWorkerSet in a group, a DisaggregatedSet role with {@code scaling.mode:
 * External} (its HorizontalPodAutoscaler targets the role's {@code DisaggregatedSetRoleScaler}, named
 * {@code <set>-<role>}, LWS v0.10), or an AIBrix StormService role a PodAutoscaler scales inside each RoleSet. Each
 * comes with what one more replica adds to every PodGroup of the gang and how many replicas it has now. An
 * autoscaler that adds gangs rather than growing one (of a LeaderWorkerSet of its own: one gang per group; of a
 * StormService's RoleSets) grows no gang and is not listed.
 */
public final class ScaledRoles {

    /**
     * One scaled part of a gang.
     *
     * @param autoscaler what scales it
     * @param subject the workload findings about it are reported on
     * @param what the part, for messages ({@code Deployment decode}, {@code role decode})
     * @param perReplica the requests one more replica adds
     * @param current its replicas now (what the gang's PodGroups count)
     */
    public record Unit(Autoscaler autoscaler, ObjectRef subject, String what, Amounts perReplica, long current) {
        public Unit {
            Objects.requireNonNull(autoscaler, "autoscaler");
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(what, "what");
            Objects.requireNonNull(perReplica, "perReplica");
        }
    }

    /** The kind of a DisaggregatedSet role's scale target (LWS v0.10, KEP-849). */
    public static final String ROLE_SCALER_KIND = "DisaggregatedSetRoleScaler";

    private ScaledRoles() {}

    /** The parts of the scope's gangs the given autoscalers (of the scope's namespace) scale. */
    public static List<Unit> of(GangScope scope, List<Autoscaler> autoscalers, Snapshot snapshot) {
        List<Unit> out = new ArrayList<>();
        for (Autoscaler autoscaler : autoscalers) {
            try {
                unit(scope, autoscaler, snapshot).ifPresent(out::add);
            } catch (RuntimeException e) {
                // an unreadable workload is reported by its own translation
            }
        }
        return out;
    }

    private static Optional<Unit> unit(GangScope scope, Autoscaler a, Snapshot snapshot) {
        String ns = scope.namespace();
        if (a.role() == null) {
            for (WorkloadKind kind : List.of(WorkloadKind.DEPLOYMENT, WorkloadKind.STATEFUL_SET)) {
                if (a.targets(kind.group(), kind.kind(), a.targetName())) {
                    return snapshot.get(kind, ns, a.targetName())
                            .filter(w -> scope.equals(snapshot.scopeOf(w).orElse(null)))
                            .map(w -> replicated(a, w));
                }
            }
            WorkloadKind lwsKind = WorkloadKind.LEADER_WORKER_SET;
            if (a.targets(lwsKind.group(), lwsKind.kind(), a.targetName()) && scope instanceof GangScope.Group) {
                return snapshot.get(lwsKind, ns, a.targetName())
                        .filter(w -> scope.equals(snapshot.scopeOf(w).orElse(null)))
                        .map(w -> {
                            var s = LeaderWorkerSetAdapter.shape(w);
                            return new Unit(a, w.ref(), "LeaderWorkerSet " + w.name(), group(s), s.replicas());
                        });
            }
            WorkloadKind dsKind = WorkloadKind.DISAGGREGATED_SET;
            if (a.targets(dsKind.group(), ROLE_SCALER_KIND, a.targetName()) && dsKind.equals(kindOf(scope))) {
                return snapshot.get(dsKind, ns, scope.name()).flatMap(ds -> role(a, ds, snapshot));
            }
            return Optional.empty();
        }
        WorkloadKind storm = WorkloadKind.STORM_SERVICE;
        if (a.targets(storm.group(), storm.kind(), a.targetName())
                && storm.equals(kindOf(scope))
                && scope.name().equals(a.targetName())) {
            return snapshot.get(storm, ns, a.targetName())
                    .filter(w -> !replicaMode(a, w))
                    .flatMap(w -> StormServiceAdapter.roles(w).stream()
                            .filter(r -> r.name().equals(a.role()))
                            .findFirst()
                            .map(r -> new Unit(
                                    a,
                                    w.ref(),
                                    "role " + r.name(),
                                    amounts(requests(r.template()), Math.max(r.podGroupSize(), 1)),
                                    r.replicas())));
        }
        return Optional.empty();
    }

    /**
     * Whether AIBrix scales the StormService's RoleSets (each a gang of its own) rather than the role: its
     * {@code spec.mode} is {@code Replica}, or it has none and the PodAutoscaler is annotated so.
     */
    private static boolean replicaMode(Autoscaler a, Workload storm) {
        String mode = storm.spec().path("mode").asText("");
        return mode.isEmpty() ? a.replicaModeAnnotated() : "Replica".equals(mode);
    }

    /** The role of a set whose {@code DisaggregatedSetRoleScaler} ({@code <set>-<role>}) the autoscaler targets. */
    private static Optional<Unit> role(Autoscaler a, Workload ds, Snapshot snapshot) {
        for (DisaggregatedSetAdapter.Role role : DisaggregatedSetAdapter.roles(ds)) {
            if (!(ds.name() + "-" + role.name()).equals(a.targetName())
                    || !DisaggregatedSetAdapter.EXTERNAL.equals(role.scaling())) {
                continue;
            }
            // External roles run in a set of one slice (LWS refuses more): slice 0
            long current = DisaggregatedSetAdapter.replicas(role, 0, DisaggregatedSetAdapter.children(ds, snapshot));
            return Optional.of(new Unit(a, ds.ref(), "role " + role.name(), group(role.shape()), current));
        }
        return Optional.empty();
    }

    private static Unit replicated(Autoscaler a, Workload w) {
        ReplicatedAdapter.Shape shape = ReplicatedAdapter.shape(w);
        return new Unit(
                a, w.ref(), w.kind().kind() + " " + w.name(), amounts(requests(shape.template()), 1), shape.replicas());
    }

    /** What one LWS group requests: its leader and {@code size - 1} workers. */
    private static Amounts group(LeaderWorkerSetAdapter.Shape s) {
        ResourceSum sum = new ResourceSum().add(PodRequests.of(s.leaderSpec()), 1);
        if (s.size() > 1) {
            sum.add(PodRequests.of(s.workerSpec()), s.size() - 1L);
        }
        return Amounts.parse(sum.canonical());
    }

    private static ResourceSum requests(PodTemplateSpec template) {
        PodSpec spec = template == null ? null : template.getSpec();
        return PodRequests.of(spec);
    }

    private static Amounts amounts(ResourceSum one, long times) {
        return Amounts.parse(new ResourceSum().add(one, times).canonical());
    }

    private static WorkloadKind kindOf(GangScope scope) {
        return scope instanceof GangScope.Single single ? single.kind() : null;
    }
}

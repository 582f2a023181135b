package io.topobridge.core.workload.kind;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What Deployments and StatefulSets share: {@code replicas} pods of one template, one PodGroup per workload, or,
 * in a {@code topobridge.io/group}, one role of the group's PodGroup, told apart by the bridge's member label.
 */
public abstract class ReplicatedAdapter implements KindAdapter, GroupMember {

    /** The pod template and replica count, from a typed or generic object. */
    public record Shape(PodTemplateSpec template, int replicas) {}

    public static Shape shape(Workload w) {
        return w.memo("replicated-shape", () -> read(w));
    }

    private static Shape read(Workload w) {
        if (w.object() instanceof Deployment d) {
            return d.getSpec() == null
                    ? typed(null, null)
                    : typed(d.getSpec().getTemplate(), d.getSpec().getReplicas());
        }
        if (w.object() instanceof StatefulSet s) {
            return s.getSpec() == null
                    ? typed(null, null)
                    : typed(s.getSpec().getTemplate(), s.getSpec().getReplicas());
        }
        return new Shape(
                Workload.template(w.spec().get("template"), "spec.template"),
                Workload.integer(w.spec().get("replicas"), "spec.replicas", 1));
    }

    /** A typed object's template and replicas (absent: 1). */
    private static Shape typed(PodTemplateSpec template, Integer replicas) {
        if (replicas != null && replicas < 0) {
            throw new IllegalArgumentException("spec.replicas=" + replicas + " is negative");
        }
        return new Shape(template, replicas == null ? 1 : replicas);
    }

    private final WorkloadKind kind;
    /** The kind tag of the member label value, {@code deploy} or {@code sts}. */
    private final String memberTag;

    private final UnaryOperator<String> podGroupName;

    /** {@code podGroupName}: the PodGroup's name from the workload's ({@code tb-deploy-<name>}, {@code tb-sts-<name>}). */
    protected ReplicatedAdapter(WorkloadKind kind, String memberTag, UnaryOperator<String> podGroupName) {
        this.kind = kind;
        this.memberTag = memberTag;
        this.podGroupName = podGroupName;
    }

    @Override
    public final WorkloadKind kind() {
        return kind;
    }

    /** Whether LeaderWorkerSet made the object: it is then part of the LWS, no gang or group member of its own. */
    protected abstract boolean ofLeaderWorkerSet(Workload w);

    /**
     * A workload of its own is a gang (or a group's member); one LWS made belongs to its LWS's gang (its replicas tell
     * the LWS's surge groups during a rollout), or to none when the LWS does not own it (a worker StatefulSet).
     */
    @Override
    public Optional<GangScope> scopeOf(Workload w, Snapshot snapshot) {
        if (!ofLeaderWorkerSet(w)) {
            return Optional.of(GroupAdapter.groupOrOwn(w, sources(w)));
        }
        return w.owner(WorkloadKind.LEADER_WORKER_SET)
                .flatMap(owner -> snapshot.get(WorkloadKind.LEADER_WORKER_SET, w.namespace(), owner.getName()))
                .flatMap(snapshot::scopeOf);
    }

    /** An object LWS made belongs to the LWS, which is the group's member. */
    @Override
    public boolean joins(Workload w) {
        return !ofLeaderWorkerSet(w);
    }

    @Override
    public List<AnnotationSource> sources(Workload w) {
        // read by the scope, the gang and the group alike: made once per view
        return w.memo(
                "replicated-sources",
                () -> List.of(w.metadataSource(), w.templateSource(shape(w).template(), "pod template")));
    }

    @Override
    public Optional<ScaledRoles.Unit> scaledPart(Autoscaler a, GangScope scope, Snapshot snapshot) {
        if (a.role() != null || !a.targets(kind().group(), kind().kind(), a.targetName())) {
            return Optional.empty();
        }
        return snapshot.get(kind(), scope.namespace(), a.targetName())
                .filter(w -> scope.equals(snapshot.scopeOf(w).orElse(null)))
                .map(w -> {
                    Shape shape = shape(w);
                    return new ScaledRoles.Unit(
                            a,
                            w.ref(),
                            w.kind().kind() + " " + w.name(),
                            ScaledRoles.amounts(ScaledRoles.requests(shape.template()), 1),
                            shape.replicas());
                });
    }

    @Override
    public List<Gang> gangs(GangScope scope, Snapshot snapshot) {
        return ownGang(scope, snapshot, w -> Gang.keyed((present, notes) -> plans(w, scope, present, notes)));
    }

    private int replicas(Workload w, PodIdentity present) {
        int replicas = shape(w).replicas();
        return selector(w).covers(present) ? Math.max(replicas, 1) : replicas;
    }

    private List<GangPlan> plans(Workload w, GangScope scope, PodIdentity present, List<Finding> notes) {
        int replicas = replicas(w, present);
        if (replicas == 0) {
            return List.of();
        }
        PodTemplateSpec template = shape(w).template();
        var role = PodRole.of(
                PodGroupNames.labelValue(w.name()),
                replicas,
                template == null ? null : template.getSpec(),
                selector(w));
        String name = podGroupName.apply(w.name());
        return List.of(GangPlan.owned(scope, name, w.ownerReferences(), List.of(atStart(w, role, notes)), List.of())
                .withSurgeOnlyRollout(surgeOnlyRollout(w)));
    }

    /** Whether the workload's rollouts add pods before taking any down; none by default. */
    public boolean surgeOnlyRollout(Workload w) {
        return false;
    }

    /** The role as its controller starts it: every pod at once, unless the kind says otherwise. */
    public PodRole atStart(Workload w, PodRole role, List<Finding> notes) {
        return role;
    }

    /**
     * {@inheritDoc} A member that starts its pods one by one gets no subgroup: a subgroup is all-or-nothing and would
     * wait for pods that do not exist yet.
     */
    @Override
    public Member member(Workload w, PodIdentity present, PodRequests requests) {
        int replicas = replicas(w, present);
        if (replicas == 0) {
            return Member.NONE;
        }
        // the member label value doubles as the task-spec: two Deployments stamp no label that tells them apart
        String value = PodGroupNames.labelValue(memberTag + "-" + w.name());
        PodTemplateSpec template = shape(w).template();
        var role = new PodRole(
                value,
                replicas,
                template == null ? null : template.getSpec(),
                selector(w),
                Map.of(WorkloadLabels.MEMBER, value),
                replicas);
        var sub = new SubGroupPlan(
                        value,
                        Map.of(WorkloadLabels.MEMBER, value),
                        List.of(),
                        Map.of(),
                        List.of(WorkloadLabels.MEMBER),
                        replicas,
                        false,
                        false)
                .bestEffort(role.spec() != null && requests.sum(role.spec()).allZero());
        List<Finding> notes = new ArrayList<>();
        PodRole started = atStart(w, role, notes);
        return new Member(
                List.of(started), started.atStart() < replicas ? List.of() : List.of(sub), notes, surgeOnlyRollout(w));
    }
}

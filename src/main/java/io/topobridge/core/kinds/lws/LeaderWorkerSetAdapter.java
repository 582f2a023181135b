package io.topobridge.core.kinds.lws;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.Topobridge;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.SubGroupPlan;
import io.topobridge.core.workload.kind.Gang;
import io.topobridge.core.workload.kind.GroupAdapter;
import io.topobridge.core.workload.kind.GroupMember;
import io.topobridge.core.workload.kind.KindAdapter;
import io.topobridge.core.workload.kind.Member;
import io.topobridge.core.workload.kind.PodOrigin;
import io.topobridge.core.workload.kind.Pods;
import io.topobridge.core.workload.kind.ReplicatedAdapter;
import io.topobridge.core.workload.kind.ScaledRoles;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * LeaderWorkerSet ({@code leaderworkerset.x-k8s.io/v1}): one PodGroup per group (a leader and {@code size - 1}
 * workers; pods carry the LWS name and group index), with the LWS's own subgroups when it sets
 * {@code subGroupPolicy}. When LWS's Volcano provider already made the groups' PodGroups (named
 * {@code <lws>-<group>-<revision>}, owned by the leader pod), the bridge adopts those instead. With
 * {@code groupIdentity: Hash} the groups have no index: each is keyed by the group key its pods carry, read from the
 * cluster ({@link HashGroups}), and its PodGroup is named after the LWS and the key. An LWS a DisaggregatedSet made
 * belongs to that set's gang; an LWS with {@code topobridge.io/group} to its group.
 */
public final class LeaderWorkerSetAdapter implements KindAdapter, GroupMember {

    @Override
    public WorkloadKind kind() {
        return WorkloadKind.LEADER_WORKER_SET;
    }

    /** An autoscaler of a LeaderWorkerSet in a group grows the group's gang by whole LWS groups. */
    @Override
    public Optional<ScaledRoles.Unit> scaledPart(Autoscaler a, GangScope scope, Snapshot snapshot) {
        WorkloadKind kind = kind();
        if (a.role() != null
                || !a.targets(kind.group(), kind.kind(), a.targetName())
                || !(scope instanceof GangScope.Group)) {
            return Optional.empty();
        }
        return snapshot.get(kind, scope.namespace(), a.targetName())
                .filter(w -> scope.equals(snapshot.scopeOf(w).orElse(null)))
                .map(w -> {
                    LwsGroups.Shape s = LwsGroups.shape(w);
                    return new ScaledRoles.Unit(
                            a, w.ref(), "LeaderWorkerSet " + w.name(), LwsGroups.groupRequests(s), s.replicas());
                });
    }

    @Override
    public Optional<GangScope> scopeOf(Workload lws, Snapshot snapshot) {
        Optional<OwnerReference> ds = lws.owner(WorkloadKind.DISAGGREGATED_SET);
        if (ds.isPresent()) {
            return Optional.of(new GangScope.Single(
                    WorkloadKind.DISAGGREGATED_SET, lws.namespace(), ds.get().getName()));
        }
        return Optional.of(GroupAdapter.groupOrOwn(lws, sources(lws)));
    }

    @Override
    public List<AnnotationSource> sources(Workload lws) {
        LwsGroups.Shape s = LwsGroups.shape(lws);
        List<AnnotationSource> out = new ArrayList<>();
        out.add(lws.metadataSource());
        if (s.leader() != null) {
            out.add(lws.templateSource(s.leader(), "leader template"));
        }
        out.add(lws.templateSource(s.worker(), "worker template"));
        return out;
    }

    @Override
    public List<Gang> gangs(GangScope scope, Snapshot snapshot) {
        return ownGang(
                scope, snapshot, lws -> (present, only, notes) -> plans(lws, scope, present, only, notes, snapshot));
    }

    private List<GangPlan> plans(
            Workload lws,
            GangScope scope,
            PodIdentity present,
            boolean onlyPresent,
            List<Finding> notes,
            Snapshot snapshot) {
        LwsGroups.Shape s = LwsGroups.shape(lws);
        if (LwsGroups.refuseUnsupported(s, lws.ref(), "", notes)) {
            return List.of();
        }
        if (s.hashIdentity()) {
            return hashPlans(lws, s, scope, present, onlyPresent, notes, snapshot);
        }
        // during a rolling update with maxSurge its leader StatefulSet (named after the LWS) runs replicas + maxSurge
        // leaders: the surge groups' pods need PodGroups too, or they wait for ever and a maxUnavailable: 0 rollout
        // stalls
        int running = Math.max(s.replicas(), leaderReplicas(lws, WorkloadKind.STATEFUL_SET, snapshot));
        if (LwsGroups.refuseTooMany(running, snapshot, lws.ref(), "spec.replicas", "groups", notes)) {
            return List.of();
        }
        boolean ours = selector(lws).covers(present);
        int presentGroup = ours ? Pods.index(present.get(PodIdentity.GROUP_INDEX)) : -1;
        List<LwsGroups.ProviderGroup> provider = LwsGroups.providerGroups(lws.name(), lws.namespace(), snapshot);
        if (!provider.isEmpty()) {
            List<GangPlan> adopted = new ArrayList<>(provider.stream()
                    .map(g -> adoptedPlan(lws, s, scope, g.podGroup(), g.group(), g.revision()))
                    .toList());
            String revision = present.get(PodIdentity.REVISION);
            if (presentGroup >= 0 && revision != null) {
                // a new revision's PodGroup the cache does not show yet: named as the provider names it
                String name = lws.name() + "-" + presentGroup + "-" + revision;
                adopted.add(adoptedPlan(lws, s, scope, name, presentGroup, revision));
            }
            notes.add(Finding.info(
                    WorkloadReason.ADOPTED_POD_GROUP,
                    lws.ref(),
                    lws.ref()
                            + ": LeaderWorkerSet's Volcano provider made the PodGroups "
                            + provider.stream()
                                    .map(LwsGroups.ProviderGroup::podGroup)
                                    .toList()
                            + "; the bridge adds only its topology fields to them"));
            return adopted;
        }
        List<GangPlan> plans = new ArrayList<>();
        for (int group : LwsGroups.indices(running, presentGroup, onlyPresent)) {
            PodIdentity base = selector(lws).with(PodIdentity.GROUP_INDEX, String.valueOf(group));
            plans.add(GangPlan.owned(
                            scope,
                            PodGroupNames.leaderWorkerSet(lws.name(), group),
                            lws.ownerReferences(),
                            LwsGroups.roles(s, "", 1, base),
                            groupSubGroups(lws, s))
                    .withSurgeOnlyRollout(s.surgeOnlyRollout()));
        }
        return plans;
    }

    /**
     * The plans of an LWS with {@code groupIdentity: Hash}: one per group key, named after the LWS and the key, owned by
     * the group's leader pod. Admission plans the group of the pod it admits from that pod's own key (its leader may
     * not be cached yet); a pod that carries no key belongs to no known group and is left untied, said as a note.
     */
    private List<GangPlan> hashPlans(
            Workload lws,
            LwsGroups.Shape s,
            GangScope scope,
            PodIdentity present,
            boolean onlyPresent,
            List<Finding> notes,
            Snapshot snapshot) {
        if (LwsGroups.refuseTooMany(
                Math.max(s.replicas(), leaderReplicas(lws, WorkloadKind.DEPLOYMENT, snapshot)),
                snapshot,
                lws.ref(),
                "spec.replicas",
                "groups",
                notes)) {
            return List.of();
        }
        boolean ours = selector(lws).covers(present);
        String presentKey = ours ? present.get(PodIdentity.GROUP_KEY) : null;
        if (ours && presentKey == null) {
            notes.add(Finding.warning(
                            WorkloadReason.GROUP_KEY_UNKNOWN,
                            lws.ref(),
                            lws.ref() + ": a new "
                                    + ("true".equals(present.get(PodIdentity.LEADER)) ? "leader" : "worker")
                                    + " pod carries no " + WorkloadLabels.LWS_GROUP_KEY + " label, which LWS's pod"
                                    + " webhook gives each group's leader at creation (groupIdentity: Hash): its group is"
                                    + " unknown, so the pod is not tied to a gang (LWS's webhook must run before the"
                                    + " bridge's)")
                    .withKey(WorkloadLabels.LWS_GROUP_KEY));
            if (onlyPresent) {
                return List.of();
            }
        }
        Map<String, OwnerReference> groups = new java.util.TreeMap<>();
        if (!onlyPresent || presentKey == null) {
            groups.putAll(HashGroups.observe(lws, scope, snapshot));
            if (LwsGroups.refuseTooMany(groups.size(), snapshot, lws.ref(), "its pods' group keys", "groups", notes)) {
                return List.of();
            }
        }
        if (presentKey != null) {
            groups.putIfAbsent(presentKey, null);
        }
        List<GangPlan> plans = new ArrayList<>();
        groups.forEach((key, leader) -> {
            PodIdentity base = selector(lws).with(PodIdentity.GROUP_KEY, key);
            plans.add(GangPlan.owned(
                            scope,
                            PodGroupNames.leaderWorkerSetGroup(lws.name(), key),
                            leader != null ? List.of(leader) : lws.ownerReferences(),
                            LwsGroups.roles(s, "", 1, base),
                            groupSubGroups(lws, s))
                    .withSurgeOnlyRollout(s.surgeOnlyRollout())
                    .withLabels(HashGroups.labels(lws.name(), key)));
        });
        return plans;
    }

    /**
     * The replicas of the {@code kind} object named after the LWS and owned by it (0 when not seen): the leader
     * Deployment LWS runs for a Hash LWS, or its leader StatefulSet.
     */
    private static int leaderReplicas(Workload lws, WorkloadKind kind, Snapshot snapshot) {
        return snapshot.get(kind, lws.namespace(), lws.name())
                .filter(d -> d.owner(WorkloadKind.LEADER_WORKER_SET)
                        .map(o -> lws.name().equals(o.getName()))
                        .orElse(false))
                .map(d -> ReplicatedAdapter.shape(d).replicas())
                .orElse(0);
    }

    private GangPlan adoptedPlan(
            Workload lws, LwsGroups.Shape s, GangScope scope, String name, int group, String revision) {
        PodIdentity base =
                selector(lws).with(PodIdentity.GROUP_INDEX, String.valueOf(group), PodIdentity.REVISION, revision);
        return GangPlan.adopted(
                scope, name, LwsGroups.roles(s, "", 1, base), groupSubGroups(lws, s), GangPlan.Level.GANG);
    }

    /**
     * Subgroups of one LWS group's PodGroup: the LWS's own, or when the leader starts first and it has none, its workers as
     * one all-or-nothing subgroup (the leader starts alone, then all its workers are placed together or not at all);
     * the same for every group, so made once per view.
     */
    private static List<SubGroupPlan> groupSubGroups(Workload lws, LwsGroups.Shape s) {
        return lws.memo("lws-group-subgroups", () -> {
            List<SubGroupPlan> own = LwsGroups.ownSubGroups(s);
            if (!own.isEmpty() || !s.leaderFirst() || s.size() < 2) {
                return own;
            }
            return List.of(s.subGroup(
                            "workers",
                            Map.of(WorkloadLabels.LWS_NAME, lws.name()),
                            List.of(),
                            s.size() - 1,
                            WorkloadLabels.LWS_GROUP_INDEX)
                    .excluding(WorkloadLabels.LWS_WORKER_INDEX, List.of("0"), s.size() - 1));
        });
    }

    @Override
    public Member member(Workload lws, PodIdentity present, PodRequests requests) {
        LwsGroups.Shape s = LwsGroups.shape(lws);
        int replicas = selector(lws).covers(present) ? Math.max(s.replicas(), 1) : s.replicas();
        if (replicas == 0) {
            return Member.NONE;
        }
        String value = PodGroupNames.labelValue("lws-" + lws.name());
        List<Finding> notes = new ArrayList<>();
        if (LwsGroups.refuseUnsupported(s, lws.ref(), "", notes)) {
            return new Member(List.of(), List.of(), notes, false);
        }
        var sub = LwsGroups.groupSubGroup(s, value, WorkloadLabels.LWS_NAME, lws.name());
        return new Member(
                LwsGroups.roles(s, value + "-", replicas, selector(lws)),
                sub == null ? List.of() : List.of(sub),
                notes,
                s.surgeOnlyRollout());
    }

    @Override
    public Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot) {
        String ns = Pods.namespace(pod);
        String name = Pods.labels(pod).get(WorkloadLabels.LWS_NAME);
        if (name == null) {
            // before LWS's webhook labelled the pod: its StatefulSet carries the name
            name = ownerStatefulSetLws(pod, snapshot).orElse(null);
        }
        Workload lws = name == null ? null : snapshot.get(kind(), ns, name).orElse(null);
        if (lws == null) {
            return Optional.empty();
        }
        WorkloadKind maker = WorkloadKind.DISAGGREGATED_SET;
        if (lws.owner(maker).isPresent()) {
            return snapshot.adapters().of(maker).flatMap(a -> a.originThrough(lws, pod, snapshot));
        }
        boolean leader = Pods.isLeader(pod, name);
        // with groupIdentity: Hash a group is known by its key, otherwise by its index
        boolean hash = LwsGroups.shape(lws).hashIdentity();
        int group = hash ? -1 : Pods.groupIndex(pod, name, leader);
        return Optional.of(new PodOrigin(
                lws,
                selector(lws)
                        .with(
                                PodIdentity.LEADER,
                                String.valueOf(leader),
                                hash ? PodIdentity.GROUP_KEY : PodIdentity.GROUP_INDEX,
                                hash ? Pods.groupKey(pod) : group < 0 ? null : String.valueOf(group),
                                PodIdentity.REVISION,
                                Pods.labels(pod).get(WorkloadLabels.LWS_REVISION),
                                PodIdentity.INDEX,
                                leader ? "0" : Pods.index(pod, WorkloadLabels.LWS_WORKER_INDEX))));
    }

    /** A group's pods are indexed by LWS's worker index: the leader 0, its workers 1 to {@code size - 1}. */
    @Override
    public Optional<String> podIndexLabel() {
        return Optional.of(WorkloadLabels.LWS_WORKER_INDEX);
    }

    /** The LWS a pod's owner StatefulSet belongs to (LWS labels its StatefulSets with its name). */
    public static Optional<String> ownerStatefulSetLws(Pod pod, Snapshot snapshot) {
        return Pods.controller(pod, "StatefulSet")
                .flatMap(owner -> snapshot.get(WorkloadKind.STATEFUL_SET, Pods.namespace(pod), owner.getName()))
                .map(sts -> sts.labels().get(WorkloadLabels.LWS_NAME));
    }

    @Override
    public Optional<GangScope> scopeOfPodGroup(HasMetadata podGroup, Snapshot snapshot) {
        return LwsGroups.providerGroup(podGroup)
                .flatMap(p -> snapshot.get(kind(), podGroup.getMetadata().getNamespace(), p.lws()))
                .flatMap(snapshot::scopeOf);
    }

    /**
     * The groups of a LeaderWorkerSet with {@code groupIdentity: Hash}, as the cluster shows them. LWS runs the leaders as a
     * Deployment's pods and gives each new leader a random group key at admission (label
     * {@code leaderworkerset.sigs.k8s.io/group-key}, copied to the group-index label and, through the worker StatefulSet
     * named after the leader, to the workers): nothing can compute the keys, they are read where they are written. A
     * group is its leader pod, and its PodGroup is owned by that pod, so it goes with its group even while the bridge is
     * down. Keys are read from, in turn: the live leader pods, the worker StatefulSets (controlled by their leader pod),
     * and the PodGroups the bridge made for the LWS's groups (kept until their leader pod, and so the garbage collector,
     * takes them: a pod cache still being listed after a restart must not make the bridge delete them).
     */
    private static final class HashGroups {

        /** A valid label value (PodGroup labels must be). */
        private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

        /** The group keys of the LWS, each with a reference to its leader pod (null when the pod's uid is unknown). */
        static Map<String, OwnerReference> observe(Workload lws, GangScope scope, Snapshot snapshot) {
            Map<String, OwnerReference> out = new TreeMap<>();
            String ns = lws.namespace();
            for (Pod pod : snapshot.lookup().pods(ns)) {
                Map<String, String> labels = Pods.labels(pod);
                String key = Pods.groupKey(pod);
                if (key != null
                        && lws.name().equals(labels.get(WorkloadLabels.LWS_NAME))
                        && "0".equals(labels.get(WorkloadLabels.LWS_WORKER_INDEX))) {
                    out.putIfAbsent(
                            key,
                            leader(
                                    pod.getMetadata().getName(),
                                    pod.getMetadata().getUid()));
                }
            }
            for (Workload sts : snapshot.list(WorkloadKind.STATEFUL_SET, ns)) {
                String key = sts.labels().get(WorkloadLabels.LWS_GROUP_KEY);
                if (key == null
                        || key.isEmpty()
                        || !lws.name().equals(sts.labels().get(WorkloadLabels.LWS_NAME))) {
                    continue;
                }
                Optional<OwnerReference> owner = Workload.controller(sts.metadata())
                        .filter(o -> "Pod".equals(o.getKind()) && o.getName() != null);
                owner.ifPresent(o -> out.putIfAbsent(key, leader(o.getName(), o.getUid())));
            }
            for (HasMetadata pg : snapshot.lookup().podGroups(ns)) {
                Map<String, String> annotations = pg.getMetadata().getAnnotations();
                if (annotations == null
                        || !Topobridge.managed(pg)
                        || !scope.key().equals(annotations.get(PodGroupBuilder.GANG_ANNOTATION))) {
                    continue;
                }
                String key = pg.getMetadata().getLabels().get(WorkloadLabels.LWS_GROUP_KEY);
                Optional<OwnerReference> owner = Workload.controller(pg.getMetadata())
                        .filter(o -> "Pod".equals(o.getKind()) && o.getName() != null && o.getUid() != null);
                if (key != null && !key.isEmpty() && owner.isPresent()) {
                    out.putIfAbsent(
                            key, leader(owner.get().getName(), owner.get().getUid()));
                }
            }
            return out;
        }

        /**
         * The reference a group's PodGroup holds to its leader pod, written the same way whichever object showed it (so a
         * resync writes nothing); null when the pod's uid is unknown (an owner reference needs it).
         */
        public static OwnerReference leader(String pod, String uid) {
            return uid == null || uid.isEmpty() ? null : new OwnerReference("v1", null, true, "Pod", pod, uid);
        }

        /** The labels a group's PodGroup carries: the LWS's name and the group key, as the group's pods carry them. */
        public static Map<String, String> labels(String lws, String key) {
            Map<String, String> out = new TreeMap<>();
            if (LABEL_VALUE.matcher(lws).matches()) {
                out.put(WorkloadLabels.LWS_NAME, lws);
            }
            if (LABEL_VALUE.matcher(key).matches()) {
                out.put(WorkloadLabels.LWS_GROUP_KEY, key);
            }
            return out;
        }
    }
}

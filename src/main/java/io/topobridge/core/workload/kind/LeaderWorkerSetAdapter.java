package io.topobridge.core.workload.kind;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.core.Topobridge;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
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
import java.util.TreeSet;

/**
 * LeaderWorkerSet ({@code leaderworkerset.x-k8s.io/v1}): one PodGroup per group (a leader and {@code size - 1}
 * workers; pods carry the LWS name and group index), with the LWS's own subgroups when it sets
 * {@code subGroupPolicy}. When LWS's Volcano provider already made the groups' PodGroups (named
 * {@code <lws>-<group>-<revision>}, owned by the leader pod), the bridge adopts those instead. An LWS a
 * DisaggregatedSet made belongs to that set's gang; an LWS with {@code topobridge.io/group} to its group.
 */
final class LeaderWorkerSetAdapter implements KindAdapter, GroupMember {

    static final String LEADER_READY = "LeaderReady";

    /** The parts of an LWS spec the bridge reads (an LWS spec, or the {@code spec} of a DisaggregatedSet role). */
    record Shape(int replicas, int size, PodTemplateSpec leader, PodTemplateSpec worker, Integer subGroupSize,
            String subGroupType, String startupPolicy) {

        PodSpec leaderSpec() {
            PodTemplateSpec t = leader != null ? leader : worker;
            return t == null ? null : t.getSpec();
        }

        PodSpec workerSpec() {
            return worker == null ? null : worker.getSpec();
        }
    }

    /** A PodGroup LWS's Volcano provider made for one group: owned by leader pod {@code <lws>-<group>}. */
    record ProviderGroup(String podGroup, String lws, int group, String revision) {
    }

    static Shape shape(JsonNode spec, String at) {
        JsonNode lwt = Workload.object(spec.get("leaderWorkerTemplate"), at + ".leaderWorkerTemplate");
        int replicas = Workload.integer(spec.get("replicas"), at + ".replicas", 1);
        int size = Workload.integer(lwt.get("size"), at + ".leaderWorkerTemplate.size", 1);
        if (size < 1) {
            throw new IllegalArgumentException(at + ".leaderWorkerTemplate.size=" + size + " is less than 1");
        }
        JsonNode sgp = Workload.object(lwt.get("subGroupPolicy"), at + ".leaderWorkerTemplate.subGroupPolicy");
        Integer subGroupSize = sgp.has("subGroupSize")
                ? Workload.integer(sgp.get("subGroupSize"), at + ".leaderWorkerTemplate.subGroupPolicy.subGroupSize", 0)
                : null;
        return new Shape(replicas, size,
                Workload.template(lwt.get("leaderTemplate"), at + ".leaderWorkerTemplate.leaderTemplate"),
                Workload.template(lwt.get("workerTemplate"), at + ".leaderWorkerTemplate.workerTemplate"),
                subGroupSize == null || subGroupSize < 1 ? null : subGroupSize,
                Workload.text(sgp.get("subGroupPolicyType"), at + ".leaderWorkerTemplate.subGroupPolicy.subGroupPolicyType",
                        "LeaderWorker"),
                Workload.text(spec.get("startupPolicy"), at + ".startupPolicy", "LeaderCreated"));
    }

    static Shape shape(Workload lws) {
        return lws.memo("lws-shape", () -> shape(lws.spec(), "spec"));
    }

    @Override
    public WorkloadKind kind() {
        return WorkloadKind.LEADER_WORKER_SET;
    }

    @Override
    public Optional<GangScope> scopeOf(Workload lws, Snapshot snapshot) {
        Optional<OwnerReference> ds = lws.owner(WorkloadKind.DISAGGREGATED_SET);
        if (ds.isPresent()) {
            return Optional.of(GangScope.of(WorkloadKind.DISAGGREGATED_SET, lws.namespace(), ds.get().getName()));
        }
        return Optional.of(GroupAdapter.groupOrOwn(lws, sources(lws)));
    }

    @Override
    public List<AnnotationSource> sources(Workload lws) {
        Shape s = shape(lws);
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
        Optional<Workload> found = snapshot.get(kind(), scope.namespace(), scope.name());
        if (found.isEmpty() || !scope.equals(snapshot.scopeOf(found.get()).orElse(null))) {
            return List.of();
        }
        Workload lws = found.get();
        return List.of(new Gang(sources(lws), List.of(lws.ref()), PodIdentity.NONE,
                Gang.keyed((present, notes) -> plans(lws, scope, present, notes, snapshot)), false));
    }

    private static PodIdentity selector(Workload lws) {
        return PodIdentity.of(PodIdentity.WORKLOAD, WorkloadKind.LEADER_WORKER_SET.kind() + "/" + lws.name());
    }

    private List<GangPlan> plans(Workload lws, GangScope scope, PodIdentity present, List<Finding> notes,
            Snapshot snapshot) {
        Shape s = shape(lws);
        boolean ours = selector(lws).covers(present);
        List<ProviderGroup> provider = providerGroups(lws.name(), lws.namespace(), snapshot);
        if (!provider.isEmpty()) {
            List<GangPlan> adopted = new ArrayList<>();
            for (ProviderGroup group : provider) {
                adopted.add(adoptedPlan(lws, s, scope, group.podGroup(), group.group(), group.revision()));
            }
            int group = ours ? Pods.index(present.get(PodIdentity.GROUP_INDEX)) : -1;
            String revision = present.get(PodIdentity.REVISION);
            if (group >= 0 && revision != null) {
                // a new revision's PodGroup the cache does not show yet: named as the provider names it
                adopted.add(adoptedPlan(lws, s, scope, lws.name() + "-" + group + "-" + revision, group, revision));
            }
            notes.add(Finding.info(WorkloadReason.ADOPTED_POD_GROUP, lws.ref(), lws.ref()
                    + ": LeaderWorkerSet's Volcano provider made the PodGroups "
                    + provider.stream().map(ProviderGroup::podGroup).toList()
                    + "; the bridge adds only its topology fields to them"));
            return adopted;
        }
        TreeSet<Integer> groups = new TreeSet<>();
        for (int group = 0; group < s.replicas(); group++) {
            groups.add(group);
        }
        int presentGroup = ours ? Pods.index(present.get(PodIdentity.GROUP_INDEX)) : -1;
        if (presentGroup >= 0) {
            groups.add(presentGroup);
        }
        List<GangPlan> plans = new ArrayList<>();
        for (int group : groups) {
            PodIdentity base = selector(lws).with(PodIdentity.GROUP_INDEX, String.valueOf(group));
            GangPlan plan = GangPlan.owned(scope, PodGroupNames.leaderWorkerSet(lws.name(), group),
                    lws.ownerReferences(), roles(s, "", 1, base), ownSubGroups(s));
            if (LEADER_READY.equals(s.startupPolicy())) {
                // LeaderReady creates the workers only once the leader runs: a gang of all would never start
                plan = plan.withMinMember(1);
            }
            plans.add(plan);
        }
        return plans;
    }

    private static GangPlan adoptedPlan(Workload lws, Shape s, GangScope scope, String name, int group,
            String revision) {
        PodIdentity base = selector(lws).with(PodIdentity.GROUP_INDEX, String.valueOf(group), PodIdentity.REVISION,
                revision);
        return GangPlan.adopted(scope, name, roles(s, "", 1, base), ownSubGroups(s), GangPlan.Level.GANG);
    }

    /** The leader and worker roles of {@code groups} LWS groups, task-specs prefixed by {@code prefix}. */
    static List<PodRole> roles(Shape s, String prefix, long groups, PodIdentity base) {
        List<PodRole> roles = new ArrayList<>();
        roles.add(new PodRole(taskSpec(prefix, true), groups, s.leaderSpec(), base.with(PodIdentity.LEADER, "true")));
        if (s.size() > 1) {
            roles.add(new PodRole(taskSpec(prefix, false), groups * (s.size() - 1), s.workerSpec(),
                    base.with(PodIdentity.LEADER, "false")));
        }
        return roles;
    }

    /** The task-spec of a leader or worker pod: {@code leader}/{@code worker} after an optional prefix. */
    static String taskSpec(String prefix, boolean leader) {
        return prefix.isEmpty() ? (leader ? "leader" : "worker")
                : PodGroupNames.labelValue(prefix + (leader ? "leader" : "worker"));
    }

    /** The LWS's own subgroups, when it defines them (pods then carry the subgroup index). */
    private static List<SubGroupPlan> ownSubGroups(Shape s) {
        if (s.subGroupSize() == null) {
            return List.of();
        }
        return List.of(new SubGroupPlan("lws-subgroup", Map.of(), List.of(WorkloadLabels.LWS_SUBGROUP_INDEX),
                List.of(WorkloadLabels.LWS_SUBGROUP_INDEX), s.subGroupSize()));
    }

    /** The task-spec prefix of an LWS in a group. */
    private static String memberValue(Workload lws) {
        return PodGroupNames.labelValue("lws-" + lws.name());
    }

    @Override
    public Member member(Workload lws, PodIdentity present) {
        Shape s = shape(lws);
        int replicas = selector(lws).covers(present) ? Math.max(s.replicas(), 1) : s.replicas();
        if (replicas == 0) {
            return new Member(List.of(), List.of());
        }
        String value = memberValue(lws);
        var sub = new SubGroupPlan(value, Map.of(WorkloadLabels.LWS_NAME, lws.name()), List.of(),
                List.of(WorkloadLabels.LWS_NAME, WorkloadLabels.LWS_GROUP_INDEX), s.size());
        return new Member(roles(s, value + "-", replicas, selector(lws)), List.of(sub));
    }

    @Override
    public Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot) {
        String ns = Pods.namespace(pod);
        String name = Pods.labels(pod).get(WorkloadLabels.LWS_NAME);
        if (name == null) {
            // before LWS's webhook labelled the pod: its StatefulSet carries the name
            name = ownerStatefulSetLws(pod, snapshot).orElse(null);
        }
        if (name == null) {
            return Optional.empty();
        }
        Optional<Workload> found = snapshot.get(kind(), ns, name);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Workload lws = found.get();
        Optional<OwnerReference> ds = lws.owner(WorkloadKind.DISAGGREGATED_SET);
        if (ds.isPresent()) {
            return DisaggregatedSetAdapter.origin(pod, snapshot, ds.get().getName(),
                    lws.labels().get(WorkloadLabels.DS_SLICE), lws.labels().get(WorkloadLabels.DS_ROLE), name);
        }
        boolean leader = Pods.isLeader(pod, name);
        int group = Pods.groupIndex(pod, name, leader);
        return Optional.of(new PodOrigin(lws, selector(lws).with(PodIdentity.LEADER, String.valueOf(leader),
                PodIdentity.GROUP_INDEX, group < 0 ? null : String.valueOf(group),
                PodIdentity.REVISION, Pods.labels(pod).get(WorkloadLabels.LWS_REVISION))));
    }

    /** The LWS a pod's owner StatefulSet belongs to (LWS labels its StatefulSets with its name). */
    static Optional<String> ownerStatefulSetLws(Pod pod, Snapshot snapshot) {
        return Pods.controller(pod, "StatefulSet")
                .flatMap(owner -> snapshot.get(WorkloadKind.STATEFUL_SET, Pods.namespace(pod), owner.getName()))
                .map(sts -> sts.labels().get(WorkloadLabels.LWS_NAME));
    }

    @Override
    public Optional<GangScope> scopeOfPodGroup(HasMetadata podGroup, Snapshot snapshot) {
        return providerGroup(podGroup)
                .flatMap(p -> snapshot.get(kind(), podGroup.getMetadata().getNamespace(), p.lws()))
                .flatMap(snapshot::scopeOf);
    }

    /**
     * The one test for a PodGroup LWS's Volcano provider made: not the bridge's, controlled by a leader pod
     * {@code <lws>-<group>}, and named after it {@code <lws>-<group>-<revision>}.
     */
    static Optional<ProviderGroup> providerGroup(HasMetadata podGroup) {
        var meta = podGroup.getMetadata();
        if (meta == null || meta.getName() == null || meta.getOwnerReferences() == null) {
            return Optional.empty();
        }
        Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
        if (Topobridge.MANAGED_BY.equals(labels.get(Topobridge.MANAGED_BY_LABEL))) {
            return Optional.empty();
        }
        for (OwnerReference ref : meta.getOwnerReferences()) {
            String owner = ref == null ? null : ref.getName();
            if (owner == null || !"Pod".equals(ref.getKind()) || !meta.getName().startsWith(owner + "-")) {
                continue;
            }
            int dash = owner.lastIndexOf('-');
            int group = dash > 0 ? Pods.index(owner.substring(dash + 1)) : -1;
            String revision = meta.getName().substring(owner.length() + 1);
            if (group >= 0 && !revision.isEmpty()) {
                return Optional.of(new ProviderGroup(meta.getName(), owner.substring(0, dash), group, revision));
            }
        }
        return Optional.empty();
    }

    /** The PodGroups LWS's Volcano provider made for an LWS's groups, sorted by name. */
    static List<ProviderGroup> providerGroups(String lws, String namespace, Snapshot snapshot) {
        List<ProviderGroup> out = new ArrayList<>();
        for (HasMetadata pg : snapshot.podGroups(namespace)) {
            providerGroup(pg).filter(p -> p.lws().equals(lws)).ifPresent(out::add);
        }
        out.sort(java.util.Comparator.comparing(ProviderGroup::podGroup));
        return out;
    }
}

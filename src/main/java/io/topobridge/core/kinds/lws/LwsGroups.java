package io.topobridge.core.kinds.lws;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.core.Topobridge;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.resources.ResourceSum;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import io.topobridge.core.workload.kind.Pods;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What one LeaderWorkerSet spec (an LWS's, or a DisaggregatedSet role's) says of its groups, as the bridge reads it:
 * its shape, the leader and worker roles of its groups and their subgroups, and what the bridge refuses of it; and
 * the PodGroups LWS's own Volcano provider makes, one per group ({@code <lws>-<group>-<revision>}, owned by the
 * group's leader pod), which the bridge adopts rather than making its own.
 */
public final class LwsGroups {

    static final String LEADER_READY = "LeaderReady";
    public static final String ORDINAL = "Ordinal";
    static final String HASH = "Hash";

    /**
     * The parts of an LWS spec the bridge reads (an LWS spec, or the {@code spec} of a DisaggregatedSet role);
     * {@code exclusive}: the LWS asks for exclusive placement ({@code leaderworkerset.sigs.k8s.io/exclusive-topology}).
     */
    public record Shape(
            int replicas,
            int size,
            PodTemplateSpec leader,
            PodTemplateSpec worker,
            Integer subGroupSize,
            String subGroupType,
            String startupPolicy,
            String groupIdentity,
            boolean surgeOnlyRollout,
            boolean exclusive) {

        /**
         * The leader starts alone: LWS creates a group's workers only once its leader is Running and Ready
         * ({@code LeaderReady}), or, with exclusive placement, once its leader is bound (its workers then follow it into
         * its domain). A gang of the whole group would wait for ever for workers that are not made yet.
         */
        boolean leaderFirst() {
            return LEADER_READY.equals(startupPolicy) || exclusive;
        }

        /**
         * Hash identity (LWS after v0.10): the leaders are a Deployment's pods and each group is keyed by a random key
         * its pods carry, not by an index.
         */
        boolean hashIdentity() {
            return HASH.equals(groupIdentity);
        }

        public PodSpec leaderSpec() {
            PodTemplateSpec t = leader != null ? leader : worker;
            return t == null ? null : t.getSpec();
        }

        public PodSpec workerSpec() {
            return worker == null ? null : worker.getSpec();
        }

        /** A subgroup policy of the LWS's pods, split by {@code splitBy}; best effort when its workers ask nothing. */
        SubGroupPlan subGroup(
                String name, Map<String, String> match, List<String> exists, int size, String... splitBy) {
            return new SubGroupPlan(name, match, exists, Map.of(), List.of(splitBy), size, false, false)
                    .bestEffort(PodRequests.isBestEffort(workerSpec()));
        }
    }

    public static Shape shape(JsonNode spec, String at, boolean exclusive) {
        JsonNode lwt = Workload.object(spec.get("leaderWorkerTemplate"), at + ".leaderWorkerTemplate");
        int replicas = Workload.integer(spec.get("replicas"), at + ".replicas", 1);
        int size = Workload.integer(lwt.get("size"), at + ".leaderWorkerTemplate.size", 1);
        if (size < 1) {
            throw new IllegalArgumentException(at + ".leaderWorkerTemplate.size=" + size + " is less than 1");
        }
        JsonNode sgp = Workload.object(lwt.get("subGroupPolicy"), at + ".leaderWorkerTemplate.subGroupPolicy");
        JsonNode rolling = spec.path("rolloutStrategy").path("rollingUpdateConfiguration");
        Integer subGroupSize = sgp.has("subGroupSize")
                ? Workload.integer(sgp.get("subGroupSize"), at + ".leaderWorkerTemplate.subGroupPolicy.subGroupSize", 0)
                : null;
        return new Shape(
                replicas,
                size,
                Workload.template(lwt.get("leaderTemplate"), at + ".leaderWorkerTemplate.leaderTemplate"),
                Workload.template(lwt.get("workerTemplate"), at + ".leaderWorkerTemplate.workerTemplate"),
                subGroupSize == null || subGroupSize < 1 ? null : subGroupSize,
                Workload.text(
                        sgp.get("subGroupPolicyType"),
                        at + ".leaderWorkerTemplate.subGroupPolicy.subGroupPolicyType",
                        "LeaderWorker"),
                Workload.text(spec.get("startupPolicy"), at + ".startupPolicy", "LeaderCreated"),
                Workload.text(spec.get("groupIdentity"), at + ".groupIdentity", ""),
                Workload.surgeOnly(rolling.get("maxUnavailable"), rolling.get("maxSurge"), replicas, "1", "0"),
                exclusive);
    }

    /**
     * Refuses what the bridge cannot follow: a {@code groupIdentity} other than the two LWS has ({@code Ordinal}, the
     * default, whose groups are numbered, and {@code Hash}, whose groups are keyed), whose groups it could not tell
     * apart.
     */
    public static boolean refuseUnsupported(Shape s, ObjectRef subject, String where, List<Finding> notes) {
        String identity = s.groupIdentity();
        if (identity.isEmpty() || ORDINAL.equals(identity) || HASH.equals(identity)) {
            return false;
        }
        notes.add(Finding.rejected(
                        WorkloadReason.UNSUPPORTED_LEADER_WORKER_SET,
                        subject,
                        subject + ": " + where + "groupIdentity: " + UserText.quote(identity)
                                + " is not one the bridge can follow: it knows Ordinal (the default, groups numbered"
                                + " 0..replicas-1) and Hash (each group keyed by the group key its pods carry)")
                .withKey("groupIdentity"));
        return true;
    }

    /**
     * Refuses a workload that asks for more gangs than the bridge plans for one workload, before any is planned: one
     * object with {@code replicas: 2000000} must not make a pass build two million PodGroups.
     */
    public static boolean refuseTooMany(
            long gangs, Snapshot snapshot, ObjectRef subject, String field, String what, List<Finding> notes) {
        if (gangs <= snapshot.maxGangsPerWorkload()) {
            return false;
        }
        notes.add(Finding.rejected(
                        WorkloadReason.TOO_MANY_GANGS,
                        subject,
                        subject + ": " + field + " asks for " + gangs + " " + what + ", one PodGroup each; the bridge"
                                + " plans at most " + snapshot.maxGangsPerWorkload() + " for one workload"
                                + " (topobridge.workloads.max-gangs-per-workload), so it makes none for this one")
                .withKey(field));
        return true;
    }

    public static Shape shape(Workload lws) {
        return lws.memo(
                "lws-shape", () -> shape(lws.spec(), "spec", lws.annotations().containsKey(LwsShape.LWS_EXCLUSIVE)));
    }

    /** What one LWS group requests: its leader and {@code size - 1} workers. */
    public static Amounts groupRequests(Shape s) {
        ResourceSum sum = new ResourceSum().add(PodRequests.of(s.leaderSpec()), 1);
        if (s.size() > 1) {
            sum.add(PodRequests.of(s.workerSpec()), s.size() - 1L);
        }
        return Amounts.parse(sum.canonical());
    }

    /**
     * The subgroup of the groups of an LWS in a larger gang (its pods selected by {@code key=value}), split by LWS
     * group: when the leader starts first ({@link Shape#leaderFirst}) only its workers (all but its leader), null when
     * the group has none.
     */
    public static SubGroupPlan groupSubGroup(Shape s, String name, String key, String value) {
        SubGroupPlan sub = s.subGroup(
                name, Map.of(key, value), List.of(), s.size(), WorkloadLabels.LWS_NAME, WorkloadLabels.LWS_GROUP_INDEX);
        if (!s.leaderFirst()) {
            return sub;
        }
        return s.size() < 2 ? null : sub.excluding(WorkloadLabels.LWS_WORKER_INDEX, List.of("0"), s.size() - 1);
    }

    /**
     * The indices of the gangs to plan: 0 to {@code count - 1} (unless only the present pod's is wanted and known),
     * and the present pod's ({@code present}, -1 when unknown).
     */
    public static TreeSet<Integer> indices(int count, int present, boolean onlyPresent) {
        TreeSet<Integer> out = new TreeSet<>();
        if (!onlyPresent || present < 0) {
            for (int i = 0; i < count; i++) {
                out.add(i);
            }
        }
        if (present >= 0) {
            out.add(present);
        }
        return out;
    }

    /**
     * The leader and worker roles of {@code groups} LWS groups, task-specs prefixed by {@code prefix}. Under
     * LeaderReady or exclusive placement no worker exists when the gang starts: LWS creates them once their leader
     * runs (is bound).
     */
    public static List<PodRole> roles(Shape s, String prefix, long groups, PodIdentity base) {
        List<PodRole> roles = new ArrayList<>();
        roles.add(PodRole.of(taskSpec(prefix, true), groups, s.leaderSpec(), base.with(PodIdentity.LEADER, "true")));
        if (s.size() > 1) {
            PodRole workers = PodRole.of(
                    taskSpec(prefix, false),
                    groups * (s.size() - 1),
                    s.workerSpec(),
                    base.with(PodIdentity.LEADER, "false"));
            roles.add(s.leaderFirst() ? workers.startingWith(0) : workers);
        }
        return roles;
    }

    /** The task-spec of a leader or worker pod: {@code leader}/{@code worker} after an optional prefix. */
    public static String taskSpec(String prefix, boolean leader) {
        return prefix.isEmpty()
                ? (leader ? "leader" : "worker")
                : PodGroupNames.labelValue(prefix + (leader ? "leader" : "worker"));
    }

    /**
     * The LWS's own subgroups, when it defines them (pods then carry the subgroup index). LWS puts the leader in
     * subgroup 0; when the leader starts first the leader must stay out of every subgroup, or subgroup 0 would wait for workers
     * that are made only once the leader runs. Subgroup 0 then holds {@code k - 1} workers, except when the leader is
     * the extra pod ({@code (size - 1) % k == 0}), so it gets a policy of its own, listed first (the first policy a
     * pod matches is the one that holds it).
     */
    static List<SubGroupPlan> ownSubGroups(Shape s) {
        if (s.subGroupSize() == null) {
            return List.of();
        }
        int k = s.subGroupSize();
        var all = s.subGroup(
                "lws-subgroup",
                Map.of(),
                List.of(WorkloadLabels.LWS_SUBGROUP_INDEX),
                k,
                WorkloadLabels.LWS_SUBGROUP_INDEX);
        if (!s.leaderFirst()) {
            return List.of(all);
        }
        List<String> leader = List.of("0");
        var workers = all.excluding(WorkloadLabels.LWS_WORKER_INDEX, leader, k);
        if ((s.size() - 1) % k == 0 || k < 2) {
            return List.of(workers);
        }
        var first = s.subGroup(
                        "lws-subgroup-0",
                        Map.of(WorkloadLabels.LWS_SUBGROUP_INDEX, "0"),
                        List.of(),
                        k - 1,
                        WorkloadLabels.LWS_SUBGROUP_INDEX)
                .excluding(WorkloadLabels.LWS_WORKER_INDEX, leader, k - 1);
        return List.of(first, workers);
    }

    /** A PodGroup LWS's Volcano provider made for one group: owned by leader pod {@code <lws>-<group>}. */
    public record ProviderGroup(String podGroup, String lws, int group, String revision) {}

    /**
     * The one test for a PodGroup LWS's Volcano provider made: not the bridge's, controlled by a leader pod
     * {@code <lws>-<group>}, and named after it {@code <lws>-<group>-<revision>}.
     */
    static Optional<ProviderGroup> providerGroup(HasMetadata podGroup) {
        var meta = podGroup.getMetadata();
        if (meta == null || meta.getName() == null || meta.getOwnerReferences() == null) {
            return Optional.empty();
        }
        if (Topobridge.managed(podGroup)) {
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
    public static List<ProviderGroup> providerGroups(String lws, String namespace, Snapshot snapshot) {
        return snapshot.lookup().podGroups(namespace).stream()
                .flatMap(pg -> providerGroup(pg).filter(p -> p.lws().equals(lws)).stream())
                .sorted(java.util.Comparator.comparing(ProviderGroup::podGroup))
                .toList();
    }
}

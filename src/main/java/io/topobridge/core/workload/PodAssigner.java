package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.admission.PodAssignment;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.annotation.AnnotationParser;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.annotation.ParsedIntent;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.kind.AibrixAdapter;
import io.topobridge.core.workload.kind.DisaggregatedSetAdapter;
import io.topobridge.core.workload.kind.LeaderWorkerSetAdapter;
import io.topobridge.core.workload.kind.ReplicatedAdapter;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the gang of a pod being created from its labels and owner chain alone, since the pod may come
 * before its PodGroup: AIBrix role/RoleSet/PodSet labels, LWS name and group index (a worker's StatefulSet
 * is owned by the leader pod, so the labels are the reliable path), DisaggregatedSet name/slice/role
 * labels, a Deployment through its ReplicaSet, a StatefulSet directly. A pod that already carries
 * {@code scheduling.k8s.io/group-name} (AIBrix or LWS put it there) keeps it.
 */
final class PodAssigner {

    /** Where a pod belongs before the annotations are checked. */
    private record Target(List<AnnotationSource> sources, String podGroupName, String taskSpec,
            Map<String, String> labels) {
    }

    private final WorkloadTranslator translator;
    private final WorkloadLookup lookup;

    PodAssigner(WorkloadTranslator translator, WorkloadLookup lookup) {
        this.translator = translator;
        this.lookup = lookup;
    }

    Optional<PodAssignment> assign(Pod pod, TierCatalog tiers) {
        if (pod == null || pod.getMetadata() == null) {
            return Optional.empty();
        }
        Optional<Target> target;
        try {
            target = target(pod);
        } catch (RuntimeException e) {
            // an unreadable workload is reported by the reconciler; admission must not fail on it
            return Optional.empty();
        }
        if (target.isEmpty()) {
            return Optional.empty();
        }
        ParsedIntent parsed = AnnotationParser.parse(target.get().sources(), tiers);
        if (!parsed.intent().managed()) {
            return Optional.empty();
        }
        // a gang waiting for the topology gets its PodGroup as soon as the tiers are known: tie its pods now,
        // since the link can only be made at creation (an untied pod would run outside the gang for good)
        if (parsed.rejected() && !parsed.waitingForTiers() && !keptPodGroup(pod, target.get().podGroupName())) {
            return Optional.empty();
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of()
                : pod.getMetadata().getAnnotations();
        String existing = annotations.get(VolcanoApi.GROUP_NAME_ANNOTATION);
        String name = existing != null && !existing.isBlank() ? existing : target.get().podGroupName();
        if (name == null) {
            return Optional.empty();
        }
        String existingTask = annotations.get(VolcanoApi.TASK_SPEC_ANNOTATION);
        String task = existingTask != null && !existingTask.isBlank() ? existingTask : target.get().taskSpec();
        return Optional.of(new PodAssignment(name, task, target.get().labels()));
    }

    /**
     * Whether the PodGroup a refused workload had is still there (the controller keeps it until the
     * annotations are fixed or removed), so its new pods can still join it.
     */
    private boolean keptPodGroup(Pod pod, String name) {
        String ns = pod.getMetadata().getNamespace() == null ? "" : pod.getMetadata().getNamespace();
        return name != null && lookup.podGroups(ns).stream().anyMatch(pg -> name.equals(pg.getMetadata().getName()));
    }

    private Optional<Target> target(Pod pod) {
        String ns = pod.getMetadata().getNamespace() == null ? "" : pod.getMetadata().getNamespace();
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        if (labels.containsKey(WorkloadLabels.DS_NAME) && labels.containsKey(WorkloadLabels.DS_SLICE)) {
            return disaggregated(pod, ns, labels.get(WorkloadLabels.DS_NAME), labels.get(WorkloadLabels.DS_SLICE),
                    labels.get(WorkloadLabels.DS_ROLE), labels.get(WorkloadLabels.LWS_NAME));
        }
        if (labels.containsKey(WorkloadLabels.LWS_NAME)) {
            return leaderWorkerSet(pod, ns, labels.get(WorkloadLabels.LWS_NAME));
        }
        if (labels.containsKey(WorkloadLabels.AIBRIX_ROLE_SET)) {
            return aibrix(ns, labels);
        }
        if (labels.containsKey(WorkloadLabels.AIBRIX_POD_SET)) {
            return lookup.get(WorkloadKind.POD_SET, ns, labels.get(WorkloadLabels.AIBRIX_POD_SET))
                    .flatMap(Workload::of).map(ps -> {
                        boolean volcano = ps.spec().path("schedulingStrategy").path("volcanoSchedulingStrategy").isObject();
                        return new Target(AibrixAdapter.podSetSources(ps),
                                volcano ? ps.name() : PodGroupNames.podSet(ps.name()),
                                PodGroupNames.labelValue(ps.name()), Map.of());
                    });
        }
        OwnerReference owner = controller(pod.getMetadata().getOwnerReferences());
        if (owner == null) {
            return Optional.empty();
        }
        if ("ReplicaSet".equals(owner.getKind())) {
            return deploymentName(ns, owner.getName(), labels.get(WorkloadLabels.POD_TEMPLATE_HASH))
                    .flatMap(name -> lookup.get(WorkloadKind.DEPLOYMENT, ns, name))
                    .flatMap(Workload::of).flatMap(this::replicated);
        }
        if ("StatefulSet".equals(owner.getKind())) {
            Optional<Workload> sts = lookup.get(WorkloadKind.STATEFUL_SET, ns, owner.getName()).flatMap(Workload::of);
            if (sts.isPresent() && sts.get().labels().containsKey(WorkloadLabels.LWS_NAME)) {
                return leaderWorkerSet(pod, ns, sts.get().labels().get(WorkloadLabels.LWS_NAME));
            }
            return sts.flatMap(this::replicated);
        }
        return Optional.empty();
    }

    private Optional<Target> replicated(Workload w) {
        Optional<GangScope> scope = translator.scopeOf(w.object(), lookup);
        if (scope.isEmpty()) {
            return Optional.empty();
        }
        if (scope.get().isGroup()) {
            String member = ReplicatedAdapter.memberValue(w);
            return Optional.of(new Target(ReplicatedAdapter.sources(w), PodGroupNames.group(scope.get().name()), member,
                    Map.of(WorkloadLabels.MEMBER, member)));
        }
        return Optional.of(new Target(ReplicatedAdapter.sources(w), ReplicatedAdapter.podGroupName(w),
                ReplicatedAdapter.taskSpec(w), Map.of()));
    }

    /** A Deployment's name from its ReplicaSet: the cached owner, else the name minus the template hash. */
    private Optional<String> deploymentName(String ns, String replicaSet, String hash) {
        Optional<HasMetadata> rs = lookup.get(WorkloadKind.REPLICA_SET, ns, replicaSet);
        if (rs.isPresent()) {
            OwnerReference owner = controller(rs.get().getMetadata().getOwnerReferences());
            return owner != null && "Deployment".equals(owner.getKind()) ? Optional.of(owner.getName()) : Optional.empty();
        }
        // the ReplicaSet informer may not have seen a ReplicaSet created a moment ago
        if (hash != null && replicaSet.endsWith("-" + hash)) {
            return Optional.of(replicaSet.substring(0, replicaSet.length() - hash.length() - 1));
        }
        return Optional.empty();
    }

    private Optional<Target> leaderWorkerSet(Pod pod, String ns, String lwsName) {
        Optional<Workload> lws = lookup.get(WorkloadKind.LEADER_WORKER_SET, ns, lwsName).flatMap(Workload::of);
        if (lws.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> lwsLabels = lws.get().labels();
        Optional<OwnerReference> ds = lws.get().owner(WorkloadKind.DISAGGREGATED_SET);
        if (ds.isPresent()) {
            return disaggregated(pod, ns, ds.get().getName(), lwsLabels.get(WorkloadLabels.DS_SLICE),
                    lwsLabels.get(WorkloadLabels.DS_ROLE), lwsName);
        }
        boolean leader = isLeader(pod, lwsName);
        int group = groupIndex(pod, lwsName, leader);
        Optional<GangScope> scope = translator.scopeOf(lws.get().object(), lookup);
        if (group < 0 || scope.isEmpty()) {
            return Optional.empty();
        }
        List<AnnotationSource> sources = LeaderWorkerSetAdapter.sources(lws.get());
        if (scope.get().isGroup()) {
            String prefix = LeaderWorkerSetAdapter.memberValue(lws.get()) + "-";
            return Optional.of(new Target(sources, PodGroupNames.group(scope.get().name()),
                    LeaderWorkerSetAdapter.taskSpec(prefix, leader), Map.of()));
        }
        String name = PodGroupNames.leaderWorkerSet(lwsName, group);
        if (!providerGroups(lwsName, ns).isEmpty()) {
            name = providerName(pod, lwsName, group);
        }
        return Optional.of(new Target(sources, name, LeaderWorkerSetAdapter.taskSpec("", leader), Map.of()));
    }

    private Optional<Target> disaggregated(Pod pod, String ns, String dsName, String sliceLabel, String role,
            String lwsName) {
        Optional<Workload> ds = lookup.get(WorkloadKind.DISAGGREGATED_SET, ns, dsName).flatMap(Workload::of);
        if (ds.isEmpty() || sliceLabel == null || role == null || !sliceLabel.matches("[0-9]{1,9}")) {
            return Optional.empty();
        }
        String lws = lwsName != null ? lwsName : ownerStatefulSetLws(pod, ns);
        boolean leader = lws != null ? isLeader(pod, lws) : isLeaderByIndex(pod);
        String name = PodGroupNames.disaggregatedSet(dsName, Integer.parseInt(sliceLabel));
        if (lws != null && !providerGroups(lws, ns).isEmpty()) {
            name = providerName(pod, lws, groupIndex(pod, lws, leader));
        }
        return Optional.of(new Target(DisaggregatedSetAdapter.sources(ds.get()), name,
                DisaggregatedSetAdapter.taskSpec(role, leader), Map.of()));
    }

    private Optional<Target> aibrix(String ns, Map<String, String> labels) {
        Optional<Workload> roleSet = lookup.get(WorkloadKind.ROLE_SET, ns, labels.get(WorkloadLabels.AIBRIX_ROLE_SET))
                .flatMap(Workload::of);
        String roleName = labels.get(WorkloadLabels.AIBRIX_ROLE);
        if (roleSet.isEmpty() || roleName == null) {
            return Optional.empty();
        }
        Workload rs = roleSet.get();
        List<AnnotationSource> sources = new ArrayList<>();
        Optional<OwnerReference> storm = rs.owner(WorkloadKind.STORM_SERVICE);
        if (storm.isPresent()) {
            Optional<Workload> parent = lookup.get(WorkloadKind.STORM_SERVICE, ns, storm.get().getName())
                    .flatMap(Workload::of);
            if (parent.isEmpty()) {
                return Optional.empty();
            }
            sources.add(parent.get().metadataSource());
        }
        sources.addAll(AibrixAdapter.roleSetSources(rs));
        String name = PodGroupNames.roleSet(rs.name());
        if (rs.spec().path("schedulingStrategy").path("volcanoSchedulingStrategy").isObject()) {
            name = rs.name();
        } else {
            for (AibrixAdapter.Role role : AibrixAdapter.roleSetRoles(rs)) {
                if (role.name().equals(roleName) && role.volcano() && role.podGroupSize() > 1) {
                    name = labels.get(WorkloadLabels.AIBRIX_POD_SET);
                }
            }
        }
        return Optional.of(new Target(sources, name, AibrixAdapter.taskSpec(roleName), Map.of()));
    }

    private List<String> providerGroups(String lws, String ns) {
        List<String> out = new ArrayList<>();
        for (HasMetadata pg : lookup.podGroups(ns)) {
            var refs = pg.getMetadata().getOwnerReferences();
            if (refs != null && refs.stream().anyMatch(r -> "Pod".equals(r.getKind()) && r.getName() != null
                    && r.getName().matches(java.util.regex.Pattern.quote(lws) + "-[0-9]+")
                    && pg.getMetadata().getName().startsWith(r.getName() + "-"))) {
                out.add(pg.getMetadata().getName());
            }
        }
        return out;
    }

    /** LWS's Volcano provider names a group's PodGroup {@code <lws>-<group>-<revision>}. */
    private static String providerName(Pod pod, String lws, int group) {
        String revision = pod.getMetadata().getLabels().get("leaderworkerset.sigs.k8s.io/template-revision-hash");
        return revision == null || group < 0 ? null : lws + "-" + group + "-" + revision;
    }

    private String ownerStatefulSetLws(Pod pod, String ns) {
        OwnerReference owner = controller(pod.getMetadata().getOwnerReferences());
        if (owner == null || !"StatefulSet".equals(owner.getKind())) {
            return null;
        }
        return lookup.get(WorkloadKind.STATEFUL_SET, ns, owner.getName())
                .map(sts -> sts.getMetadata().getLabels() == null ? null
                        : sts.getMetadata().getLabels().get(WorkloadLabels.LWS_NAME))
                .orElse(null);
    }

    private static boolean isLeaderByIndex(Pod pod) {
        return "0".equals(pod.getMetadata().getLabels().get(WorkloadLabels.LWS_WORKER_INDEX));
    }

    /**
     * The leader is worker 0; before LWS's own webhook labelled it, the owner tells: the leader
     * StatefulSet is named after the LWS, a worker StatefulSet after its leader pod ({@code <lws>-<group>}).
     */
    static boolean isLeader(Pod pod, String lws) {
        String index = pod.getMetadata().getLabels() == null ? null
                : pod.getMetadata().getLabels().get(WorkloadLabels.LWS_WORKER_INDEX);
        if (index != null) {
            return "0".equals(index);
        }
        OwnerReference owner = controller(pod.getMetadata().getOwnerReferences());
        if (owner != null && "StatefulSet".equals(owner.getKind())) {
            return lws.equals(owner.getName());
        }
        String name = pod.getMetadata().getName();
        return name != null && name.startsWith(lws + "-") && name.substring(lws.length() + 1).matches("[0-9]+");
    }

    /** The LWS group index: the label, else the leader's ordinal, else the worker StatefulSet's suffix. */
    static int groupIndex(Pod pod, String lws, boolean leader) {
        String label = pod.getMetadata().getLabels() == null ? null
                : pod.getMetadata().getLabels().get(WorkloadLabels.LWS_GROUP_INDEX);
        String candidate = label;
        if (candidate == null) {
            String name = pod.getMetadata().getName();
            OwnerReference owner = controller(pod.getMetadata().getOwnerReferences());
            if (leader && name != null && name.startsWith(lws + "-")) {
                candidate = name.substring(lws.length() + 1);
            } else if (!leader && owner != null && owner.getName() != null && owner.getName().startsWith(lws + "-")) {
                candidate = owner.getName().substring(lws.length() + 1);
            }
        }
        return candidate != null && candidate.matches("[0-9]{1,9}") ? Integer.parseInt(candidate) : -1;
    }

    static OwnerReference controller(List<OwnerReference> refs) {
        if (refs == null) {
            return null;
        }
        for (OwnerReference ref : refs) {
            if (Boolean.TRUE.equals(ref.getController())) {
                return ref;
            }
        }
        return refs.size() == 1 ? refs.get(0) : null;
    }
}

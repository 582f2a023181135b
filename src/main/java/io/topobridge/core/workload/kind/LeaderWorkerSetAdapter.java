package io.topobridge.core.workload.kind;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.core.Topobridge;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * LeaderWorkerSet ({@code leaderworkerset.x-k8s.io/v1}): one PodGroup per group (a leader and
 * {@code size - 1} workers; pods carry the LWS name and group index), with the LWS's own subgroups when
 * it sets {@code subGroupPolicy}. When LWS's Volcano provider already made the groups' PodGroups (named
 * {@code <lws>-<group>-<revision>}, owned by the leader pod), the bridge adopts those instead.
 */
public final class LeaderWorkerSetAdapter {

    static final String LEADER_READY = "LeaderReady";

    private LeaderWorkerSetAdapter() {
    }

    /** The parts of an LWS spec the bridge reads (an LWS spec, or the {@code spec} of a DisaggregatedSet role). */
    public record Shape(int replicas, int size, PodTemplateSpec leader, PodTemplateSpec worker, Integer subGroupSize,
            String subGroupType, String startupPolicy) {

        PodSpec leaderSpec() {
            PodTemplateSpec t = leader != null ? leader : worker;
            return t == null ? null : t.getSpec();
        }

        PodSpec workerSpec() {
            return worker == null ? null : worker.getSpec();
        }
    }

    static Shape shape(JsonNode spec, String at) {
        JsonNode lwt = spec.path("leaderWorkerTemplate");
        int replicas = Workload.integer(spec.get("replicas"), at + ".replicas", 1);
        int size = Workload.integer(lwt.get("size"), at + ".leaderWorkerTemplate.size", 1);
        if (size < 1) {
            throw new IllegalArgumentException(at + ".leaderWorkerTemplate.size must be at least 1: " + size);
        }
        JsonNode sgp = lwt.path("subGroupPolicy");
        Integer subGroupSize = sgp.has("subGroupSize")
                ? Workload.integer(sgp.get("subGroupSize"), at + ".leaderWorkerTemplate.subGroupPolicy.subGroupSize", 0)
                : null;
        return new Shape(replicas, size, Workload.template(lwt.get("leaderTemplate")),
                Workload.template(lwt.get("workerTemplate")), subGroupSize == null || subGroupSize < 1 ? null : subGroupSize,
                sgp.path("subGroupPolicyType").asText("LeaderWorker"), spec.path("startupPolicy").asText("LeaderCreated"));
    }

    public static Shape shape(Workload w) {
        return shape(w.spec(), "spec");
    }

    public static List<AnnotationSource> sources(Workload w) {
        Shape s = shape(w);
        List<AnnotationSource> out = new ArrayList<>();
        out.add(w.metadataSource());
        if (s.leader() != null) {
            out.add(w.templateSource(s.leader(), "leader template"));
        }
        out.add(w.templateSource(s.worker(), "worker template"));
        return out;
    }

    public static long podCount(Workload w) {
        Shape s = shape(w);
        return s.size();
    }

    /** The leader and worker roles of {@code groups} LWS groups, task-specs prefixed by {@code prefix}. */
    static List<PodRole> roles(Shape s, String prefix, long groups) {
        List<PodRole> roles = new ArrayList<>();
        roles.add(new PodRole(taskSpec(prefix, true), groups, s.leaderSpec()));
        if (s.size() > 1) {
            roles.add(new PodRole(taskSpec(prefix, false), groups * (s.size() - 1), s.workerSpec()));
        }
        return roles;
    }

    /** The task-spec of a leader or worker pod: {@code leader}/{@code worker} after an optional prefix. */
    public static String taskSpec(String prefix, boolean leader) {
        return prefix.isEmpty() ? (leader ? "leader" : "worker")
                : PodGroupNames.labelValue(prefix + (leader ? "leader" : "worker"));
    }

    /** The LWS's own subgroups, when it defines them (pods then carry the subgroup index). */
    static List<SubGroupPlan> ownSubGroups(Shape s) {
        if (s.subGroupSize() == null) {
            return List.of();
        }
        return List.of(new SubGroupPlan("lws-subgroup", Map.of(), List.of(WorkloadLabels.LWS_SUBGROUP_INDEX),
                List.of(WorkloadLabels.LWS_SUBGROUP_INDEX), s.subGroupSize()));
    }

    public static List<GangPlan> plans(Workload w, GangScope scope, WorkloadLookup lookup, List<Finding> findings) {
        Shape s = shape(w);
        List<String> provider = providerPodGroups(w.name(), w.namespace(), lookup);
        if (!provider.isEmpty()) {
            List<GangPlan> adopted = new ArrayList<>();
            for (String name : provider) {
                adopted.add(GangPlan.adopted(scope, name, ownSubGroups(s), GangPlan.Level.GANG));
            }
            findings.add(Finding.info(WorkloadReason.ADOPTED_POD_GROUP, w.ref(), w.ref()
                    + ": LeaderWorkerSet's Volcano provider made the PodGroups " + provider
                    + "; the bridge adds only its topology fields to them"));
            return adopted;
        }
        List<GangPlan> plans = new ArrayList<>();
        for (int group = 0; group < s.replicas(); group++) {
            GangPlan plan = GangPlan.owned(scope, PodGroupNames.leaderWorkerSet(w.name(), group), w.ownerReferences(),
                    roles(s, "", 1), ownSubGroups(s));
            if (LEADER_READY.equals(s.startupPolicy())) {
                // LeaderReady creates the workers only once the leader runs: a gang of all would never start
                plan = plan.withMinMember(1);
            }
            plans.add(plan);
        }
        return plans;
    }

    /** The task-spec prefix and member label of an LWS in a group. */
    public static String memberValue(Workload w) {
        return PodGroupNames.labelValue("lws-" + w.name());
    }

    public static Member member(Workload w) {
        Shape s = shape(w);
        String value = memberValue(w);
        if (s.replicas() == 0) {
            return new Member(List.of(), List.of(), Map.of());
        }
        var sub = new SubGroupPlan(value, Map.of(WorkloadLabels.LWS_NAME, w.name()), List.of(),
                List.of(WorkloadLabels.LWS_NAME, WorkloadLabels.LWS_GROUP_INDEX), s.size());
        return new Member(roles(s, value + "-", s.replicas()), List.of(sub), Map.of());
    }

    private static final Pattern ORDINAL = Pattern.compile("-([0-9]+)$");

    /**
     * Names of the PodGroups LWS's Volcano provider made for an LWS's groups: not the bridge's, controlled
     * by a leader pod {@code <lws>-<i>}, named after it.
     */
    static List<String> providerPodGroups(String lws, String namespace, WorkloadLookup lookup) {
        List<String> out = new ArrayList<>();
        for (HasMetadata pg : lookup.podGroups(namespace)) {
            var meta = pg.getMetadata();
            if (meta == null || meta.getName() == null || ours(pg)) {
                continue;
            }
            for (OwnerReference ref : meta.getOwnerReferences() == null ? List.<OwnerReference>of() : meta.getOwnerReferences()) {
                String owner = ref.getName();
                if ("Pod".equals(ref.getKind()) && owner != null && owner.startsWith(lws + "-")
                        && ORDINAL.matcher(owner).find() && owner.substring(lws.length() + 1).matches("[0-9]+")
                        && meta.getName().startsWith(owner + "-")) {
                    out.add(meta.getName());
                    break;
                }
            }
        }
        out.sort(null);
        return out;
    }

    static boolean ours(HasMetadata pg) {
        Map<String, String> labels = pg.getMetadata().getLabels();
        return labels != null && Topobridge.MANAGED_BY.equals(labels.get(Topobridge.MANAGED_BY_LABEL));
    }
}

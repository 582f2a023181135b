package io.topobridge.core.workload.kind;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DisaggregatedSet ({@code disaggregatedset.x-k8s.io/v1}): one PodGroup per slice, spanning the slice's
 * role LWSs (pods carry the set name, slice and role); {@code minMember} is the sum over roles of
 * {@code replicas × size}; one subgroup per role, split by LWS group.
 */
public final class DisaggregatedSetAdapter {

    static final String EXTERNAL = "External";

    private DisaggregatedSetAdapter() {
    }

    /** One role: its name, its LWS shape, its own metadata annotations (copied onto its LWSs) and scaling mode. */
    public record Role(String name, LeaderWorkerSetAdapter.Shape shape, Map<String, String> annotations, String scaling) {
    }

    public static int slices(Workload w) {
        int slices = Workload.integer(w.spec().get("slices"), "spec.slices", 1);
        if (slices < 1) {
            throw new IllegalArgumentException("spec.slices must be at least 1: " + slices);
        }
        return slices;
    }

    public static List<Role> roles(Workload w) {
        List<Role> out = new ArrayList<>();
        JsonNode roles = w.spec().path("roles");
        for (int i = 0; i < roles.size(); i++) {
            JsonNode role = roles.get(i);
            String name = role.path("name").asText("");
            if (name.isEmpty()) {
                throw new IllegalArgumentException("spec.roles[" + i + "].name is missing");
            }
            Map<String, String> annotations = new LinkedHashMap<>();
            role.path("metadata").path("annotations").fields()
                    .forEachRemaining(e -> annotations.put(e.getKey(), e.getValue().asText()));
            out.add(new Role(name, LeaderWorkerSetAdapter.shape(role.path("spec"), "spec.roles[" + i + "].spec"),
                    annotations, role.path("scaling").path("mode").asText("Static")));
        }
        return out;
    }

    public static List<AnnotationSource> sources(Workload w) {
        List<AnnotationSource> out = new ArrayList<>();
        out.add(w.metadataSource());
        for (Role role : roles(w)) {
            if (!role.annotations().isEmpty()) {
                out.add(new AnnotationSource(w.ref(), "metadata of role " + role.name(), role.annotations()));
            }
            if (role.shape().leader() != null) {
                out.add(w.templateSource(role.shape().leader(), "leader template of role " + role.name()));
            }
            out.add(w.templateSource(role.shape().worker(), "worker template of role " + role.name()));
        }
        return out;
    }

    public static long podCount(Workload w) {
        long total = 0;
        for (Role role : roles(w)) {
            total += (long) role.shape().replicas() * role.shape().size();
        }
        return total;
    }

    public static List<GangPlan> plans(Workload w, GangScope scope, WorkloadLookup lookup, List<Finding> findings) {
        List<Role> roles = roles(w);
        List<HasMetadata> children = children(w, lookup);
        List<String> provider = new ArrayList<>();
        for (HasMetadata lws : children) {
            provider.addAll(LeaderWorkerSetAdapter.providerPodGroups(lws.getMetadata().getName(), w.namespace(), lookup));
        }
        if (!provider.isEmpty()) {
            provider.sort(null);
            findings.add(Finding.warning(WorkloadReason.GANG_SPLIT_BY_PROVIDER, w.ref(), w.ref()
                    + ": LeaderWorkerSet's Volcano provider gangs each LWS group on its own (PodGroups " + provider
                    + "), so a slice cannot be one gang; the bridge adds its topology fields to each group's PodGroup"));
            List<GangPlan> adopted = new ArrayList<>();
            for (String name : provider) {
                adopted.add(GangPlan.adopted(scope, name, List.of(), GangPlan.Level.SUBGROUP));
            }
            return adopted;
        }
        List<GangPlan> plans = new ArrayList<>();
        for (int slice = 0; slice < slices(w); slice++) {
            List<PodRole> pods = new ArrayList<>();
            List<SubGroupPlan> subs = new ArrayList<>();
            for (Role role : roles) {
                long groups = replicas(w, role, slice, children);
                if (groups == 0) {
                    continue;
                }
                pods.addAll(LeaderWorkerSetAdapter.roles(role.shape(), role.name() + "-", groups));
                subs.add(new SubGroupPlan(role.name(), Map.of(WorkloadLabels.DS_ROLE, role.name()), List.of(),
                        List.of(WorkloadLabels.LWS_NAME, WorkloadLabels.LWS_GROUP_INDEX), role.shape().size()));
            }
            if (pods.isEmpty()) {
                continue;
            }
            plans.add(GangPlan.owned(scope, PodGroupNames.disaggregatedSet(w.name(), slice), w.ownerReferences(), pods, subs));
        }
        return plans;
    }

    /**
     * LWS groups of a role in a slice: the spec's replicas, or for an externally scaled role the replicas of
     * its LWSs in that slice (the scaler writes them there).
     */
    private static long replicas(Workload w, Role role, int slice, List<HasMetadata> children) {
        if (!EXTERNAL.equals(role.scaling())) {
            return role.shape().replicas();
        }
        long total = 0;
        boolean found = false;
        for (HasMetadata lws : children) {
            Map<String, String> labels = lws.getMetadata().getLabels();
            if (labels != null && role.name().equals(labels.get(WorkloadLabels.DS_ROLE))
                    && String.valueOf(slice).equals(labels.get(WorkloadLabels.DS_SLICE))) {
                found = true;
                total += Workload.of(lws).map(c -> (long) Workload.integer(c.spec().get("replicas"), "spec.replicas", 1))
                        .orElse(0L);
            }
        }
        return found ? total : role.shape().replicas();
    }

    /** The LWSs the set made: labelled with its name (and, when both uids are known, controlled by it). */
    static List<HasMetadata> children(Workload w, WorkloadLookup lookup) {
        List<HasMetadata> out = new ArrayList<>();
        for (HasMetadata lws : lookup.list(WorkloadKind.LEADER_WORKER_SET, w.namespace())) {
            Map<String, String> labels = lws.getMetadata().getLabels();
            if (labels == null || !w.name().equals(labels.get(WorkloadLabels.DS_NAME))) {
                continue;
            }
            var owner = Workload.owner(lws.getMetadata(), WorkloadKind.DISAGGREGATED_SET.group(),
                    WorkloadKind.DISAGGREGATED_SET.kind());
            if (owner.isPresent() && w.uid() != null && owner.get().getUid() != null
                    && !w.uid().equals(owner.get().getUid())) {
                continue;
            }
            out.add(lws);
        }
        return out;
    }

    /** Task-spec of a DisaggregatedSet pod: its role, leader or worker. */
    public static String taskSpec(String role, boolean leader) {
        return LeaderWorkerSetAdapter.taskSpec(role + "-", leader);
    }
}

package io.topobridge.core.workload.kind;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
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
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * AIBrix ({@code orchestration.aibrix.ai/v1alpha1}). A StormService runs {@code replicas} RoleSets (one P/D
 * replica each, named {@code <stormservice>-roleset-<random>}); each RoleSet is one gang of
 * {@code Σ roles replicas × max(podGroupSize, 1)} pods, with one subgroup per role (split per PodSet where
 * {@code podGroupSize > 1}). A RoleSet or PodSet made by hand is a gang of its own. Where AIBrix's
 * {@code volcanoSchedulingStrategy} already makes the PodGroup ({@code <roleset>}, or {@code <podset>} for a
 * role-level strategy), the bridge adopts it.
 */
public final class AibrixAdapter {

    private AibrixAdapter() {
    }

    /** One role of a RoleSet spec. */
    public record Role(String name, int replicas, int podGroupSize, PodTemplateSpec template, boolean volcano) {
        /** Pods of the role: PodSets of {@code podGroupSize} pods, or single pods. */
        long pods() {
            return (long) replicas * Math.max(podGroupSize, 1);
        }
    }

    /** Roles of a RoleSet spec ({@code spec} of a RoleSet, or {@code spec.template.spec} of a StormService). */
    public static List<Role> roles(JsonNode roleSetSpec, String at) {
        List<Role> out = new ArrayList<>();
        JsonNode roles = roleSetSpec.path("roles");
        for (int i = 0; i < roles.size(); i++) {
            JsonNode role = roles.get(i);
            String where = at + ".roles[" + i + "]";
            String name = role.path("name").asText("");
            if (name.isEmpty()) {
                throw new IllegalArgumentException(where + ".name is missing");
            }
            // AIBrix treats an absent replicas as zero
            int replicas = Workload.integer(role.get("replicas"), where + ".replicas", 0);
            int podGroupSize = Workload.integer(role.get("podGroupSize"), where + ".podGroupSize", 1);
            boolean volcano = role.path("schedulingStrategy").path("volcanoSchedulingStrategy").isObject();
            out.add(new Role(name, replicas, podGroupSize, Workload.template(role.get("template")), volcano));
        }
        return out;
    }

    /** The roles of a RoleSet (read once per view). */
    public static List<Role> roleSetRoles(Workload roleSet) {
        return roleSet.memo("roleset-roles", () -> roles(roleSet.spec(), "spec"));
    }

    static boolean roleSetVolcano(JsonNode roleSetSpec) {
        return roleSetSpec.path("schedulingStrategy").path("volcanoSchedulingStrategy").isObject();
    }

    /** Sources of a RoleSet: its metadata and every role's pod template. */
    public static List<AnnotationSource> roleSetSources(Workload roleSet) {
        List<AnnotationSource> out = new ArrayList<>();
        out.add(roleSet.metadataSource());
        for (Role role : roleSetRoles(roleSet)) {
            out.add(roleSet.templateSource(role.template(), "pod template of role " + role.name()));
        }
        return out;
    }

    /** Sources of a StormService: its metadata, its RoleSet template's metadata, every role's pod template. */
    public static List<AnnotationSource> stormServiceSources(Workload storm) {
        List<AnnotationSource> out = new ArrayList<>();
        out.add(storm.metadataSource());
        JsonNode template = storm.spec().path("template");
        Map<String, String> annotations = new java.util.LinkedHashMap<>();
        template.path("metadata").path("annotations").fields()
                .forEachRemaining(e -> annotations.put(e.getKey(), e.getValue().asText()));
        out.add(new AnnotationSource(storm.ref(), "RoleSet template", annotations));
        for (Role role : stormServiceRoles(storm)) {
            out.add(storm.templateSource(role.template(), "pod template of role " + role.name()));
        }
        return out;
    }

    public static List<AnnotationSource> podSetSources(Workload podSet) {
        return List.of(podSet.metadataSource(),
                podSet.templateSource(Workload.template(podSet.spec().get("template")), "pod template"));
    }

    private static List<Role> stormServiceRoles(Workload storm) {
        return storm.memo("storm-roles", () -> roles(storm.spec().path("template").path("spec"), "spec.template.spec"));
    }

    /** Pods of one RoleSet made from a StormService's template (for admission's min-member check). */
    public static long stormServicePodCount(Workload storm) {
        return stormServiceRoles(storm).stream().mapToLong(Role::pods).sum();
    }

    public static long roleSetPodCount(Workload roleSet) {
        return roleSetRoles(roleSet).stream().mapToLong(Role::pods).sum();
    }

    public static long podSetPodCount(Workload podSet) {
        return Workload.integer(podSet.spec().get("podGroupSize"), "spec.podGroupSize", 1);
    }

    /** The RoleSets a StormService made, sorted by name. */
    public static List<Workload> roleSetsOf(Workload storm, WorkloadLookup lookup) {
        List<Workload> out = new ArrayList<>();
        for (HasMetadata object : lookup.list(WorkloadKind.ROLE_SET, storm.namespace())) {
            Workload.of(object).filter(rs -> ownedBy(rs, storm)).ifPresent(out::add);
        }
        out.sort(Comparator.comparing(Workload::name));
        return out;
    }

    private static boolean ownedBy(Workload roleSet, Workload storm) {
        var owner = roleSet.owner(WorkloadKind.STORM_SERVICE);
        if (owner.isPresent()) {
            OwnerReference ref = owner.get();
            if (ref.getUid() != null && storm.uid() != null) {
                return ref.getUid().equals(storm.uid());
            }
            return storm.name().equals(ref.getName());
        }
        return false;
    }

    /** Task-spec of a pod of an AIBrix role. */
    public static String taskSpec(String role) {
        return PodGroupNames.labelValue(role);
    }

    /** The subgroup of one role: per PodSet when it has multi-pod PodSets, else the whole role. */
    static SubGroupPlan subGroup(Role role) {
        if (role.podGroupSize() > 1) {
            return new SubGroupPlan(role.name(), Map.of(WorkloadLabels.AIBRIX_ROLE, role.name()), List.of(),
                    List.of(WorkloadLabels.AIBRIX_POD_SET), role.podGroupSize());
        }
        return new SubGroupPlan(role.name(), Map.of(WorkloadLabels.AIBRIX_ROLE, role.name()), List.of(),
                List.of(WorkloadLabels.AIBRIX_ROLE), role.replicas());
    }

    /** The plans of one RoleSet; findings are reported on {@code subject} (the StormService, or the RoleSet). */
    public static List<GangPlan> roleSetPlans(Workload roleSet, GangScope scope, ObjectRef subject, WorkloadLookup lookup,
            List<Finding> findings) {
        List<Role> roles = roleSetRoles(roleSet);
        List<SubGroupPlan> allSubs = new ArrayList<>();
        roles.stream().filter(r -> r.replicas() > 0).forEach(r -> allSubs.add(subGroup(r)));
        if (roleSetVolcano(roleSet.spec())) {
            findings.add(Finding.info(WorkloadReason.ADOPTED_POD_GROUP, subject, subject + ": AIBrix's "
                    + "volcanoSchedulingStrategy makes PodGroup " + roleSet.name()
                    + "; the bridge adds only its topology fields to it").withKey(roleSet.name()));
            return List.of(GangPlan.adopted(scope, roleSet.name(), allSubs, GangPlan.Level.GANG));
        }
        List<GangPlan> plans = new ArrayList<>();
        List<PodRole> pods = new ArrayList<>();
        List<SubGroupPlan> subs = new ArrayList<>();
        for (Role role : roles) {
            if (role.replicas() == 0) {
                continue;
            }
            if (role.volcano() && role.podGroupSize() > 1) {
                for (String podSet : podSetsOf(roleSet, role.name(), lookup)) {
                    plans.add(GangPlan.adopted(scope, podSet, List.of(), GangPlan.Level.SUBGROUP));
                }
                findings.add(Finding.info(WorkloadReason.ADOPTED_POD_GROUP, subject, subject + ": AIBrix's "
                        + "volcanoSchedulingStrategy of role " + UserText.quote(role.name())
                        + " makes one PodGroup per PodSet of " + roleSet.name()
                        + "; the bridge adds only its topology fields to them")
                        .withKey(roleSet.name() + "/" + role.name()));
                continue;
            }
            pods.add(new PodRole(taskSpec(role.name()), role.pods(), role.template() == null ? null : role.template().getSpec()));
            subs.add(subGroup(role));
        }
        if (!pods.isEmpty()) {
            plans.add(0, GangPlan.owned(scope, PodGroupNames.roleSet(roleSet.name()), roleSet.ownerReferences(), pods, subs));
        }
        return plans;
    }

    /** Names of the PodSets AIBrix made for one role of a RoleSet, sorted. */
    static List<String> podSetsOf(Workload roleSet, String role, WorkloadLookup lookup) {
        List<String> out = new ArrayList<>();
        for (HasMetadata podSet : lookup.list(WorkloadKind.POD_SET, roleSet.namespace())) {
            Map<String, String> labels = podSet.getMetadata().getLabels();
            if (labels != null && roleSet.name().equals(labels.get(WorkloadLabels.AIBRIX_ROLE_SET))
                    && role.equals(labels.get(WorkloadLabels.AIBRIX_ROLE))) {
                out.add(podSet.getMetadata().getName());
            }
        }
        out.sort(null);
        return out;
    }

    /** A PodSet made by hand: a gang of {@code podGroupSize} pods. */
    public static List<GangPlan> podSetPlans(Workload podSet, GangScope scope, List<Finding> findings) {
        if (podSet.spec().path("schedulingStrategy").path("volcanoSchedulingStrategy").isObject()) {
            findings.add(Finding.info(WorkloadReason.ADOPTED_POD_GROUP, podSet.ref(), podSet.ref() + ": AIBrix's "
                    + "volcanoSchedulingStrategy makes PodGroup " + podSet.name()
                    + "; the bridge adds only its topology fields to it"));
            return List.of(GangPlan.adopted(scope, podSet.name(), List.of(), GangPlan.Level.GANG));
        }
        int size = (int) podSetPodCount(podSet);
        if (size == 0) {
            return List.of();
        }
        PodTemplateSpec template = Workload.template(podSet.spec().get("template"));
        var role = new PodRole(PodGroupNames.labelValue(podSet.name()), size, template == null ? null : template.getSpec());
        return List.of(GangPlan.owned(scope, PodGroupNames.podSet(podSet.name()), podSet.ownerReferences(),
                List.of(role), List.of()));
    }
}

package io.topobridge.core.kinds.aibrix;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.core.expand.Build;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What the three AIBrix kinds ({@code orchestration.aibrix.ai/v1alpha1}) share: the roles of a RoleSet spec
 * (each {@code replicas} PodSets of {@code podGroupSize} pods, or single pods), the one test for AIBrix's own
 * {@code volcanoSchedulingStrategy}, and the PodGroups of one RoleSet: one gang of
 * {@code Σ roles replicas × max(podGroupSize, 1)} pods with a subgroup per role (split per PodSet where
 * {@code podGroupSize > 1}), or the PodGroups AIBrix makes itself ({@code <roleset>}, or {@code <podset>} for a
 * role-level strategy), which the bridge adopts.
 */
final class Aibrix {

    /** The label and annotation keys AIBrix v0.7.0 writes (pkg/controller/constants) and the PodGroup keys it reads. */
    static final String AIBRIX_REVISION_LABEL = "storm-service-revision";

    static final String AIBRIX_TEMPLATE_HASH = "role-template-hash";
    static final String AIBRIX_ROLE_REPLICA_INDEX = "stormservice.orchestration.aibrix.ai/role-replica-index";
    static final String AIBRIX_POD_GROUP_INDEX = "stormservice.orchestration.aibrix.ai/pod-group-index";
    static final String AIBRIX_ROLE_REVISION = "stormservice.orchestration.aibrix.ai/role-revision";
    static final String AIBRIX_ROLE_REVISION_NAME = "stormservice.orchestration.aibrix.ai/role-revision-name";
    static final String AIBRIX_ROLE_SET_INDEX = "stormservice.orchestration.aibrix.ai/roleset-index";
    static final String AIBRIX_REVISION_ANNOTATION = "stormservice.orchestration.aibrix.ai/revision";
    static final String GODEL_POD_GROUP = "godel.bytedance.com/pod-group-name";
    static final String COSCHEDULING_POD_GROUP = "scheduling.x-k8s.io/pod-group";
    static final String VOLCANO_POD_GROUP = "scheduling.k8s.io/group-name";

    /** One role of a RoleSet spec. */
    public record Role(String name, int replicas, int podGroupSize, PodTemplateSpec template, boolean volcano) {
        /** Pods of the role: PodSets of {@code podGroupSize} pods, or single pods. */
        long pods(int replicas) {
            return (long) replicas * Math.max(podGroupSize, 1);
        }
    }

    /** The gang of a PodGroup AIBrix made for a {@code kind} object: the PodGroup is owned by it and named after it. */
    static Optional<GangScope> scopeOfPodGroup(WorkloadKind kind, HasMetadata podGroup, Snapshot snapshot) {
        String name = Workload.owner(podGroup.getMetadata(), kind)
                .map(OwnerReference::getName)
                .orElse(podGroup.getMetadata().getName());
        return snapshot.get(kind, podGroup.getMetadata().getNamespace(), name).flatMap(snapshot::scopeOf);
    }

    /** Whether a spec (of a RoleSet, a role, a PodSet) asks AIBrix to make its own Volcano PodGroup. */
    static boolean volcano(JsonNode spec, String at) {
        JsonNode strategy = Workload.object(spec.get("schedulingStrategy"), at + ".schedulingStrategy");
        return !Workload.object(
                        strategy.get("volcanoSchedulingStrategy"), at + ".schedulingStrategy.volcanoSchedulingStrategy")
                .isMissingNode();
    }

    /** Roles of a RoleSet spec ({@code spec} of a RoleSet, or {@code spec.template.spec} of a StormService). */
    public static List<Role> roles(JsonNode roleSetSpec, String at) {
        return Build.each(roleSetSpec.get("roles"), at + ".roles", (role, where) -> {
            String name = Workload.text(role.get("name"), where + ".name", "");
            if (name.isEmpty()) {
                throw new IllegalArgumentException(where + ".name is missing");
            }
            // AIBrix treats an absent replicas as zero
            int replicas = Workload.integer(role.get("replicas"), where + ".replicas", 0);
            int podGroupSize = Workload.integer(role.get("podGroupSize"), where + ".podGroupSize", 1);
            return new Role(
                    name,
                    replicas,
                    podGroupSize,
                    Workload.template(role.get("template"), where + ".template"),
                    volcano(role, where));
        });
    }

    static List<Role> roleSetRoles(Workload roleSet) {
        return roleSet.memo("roleset-roles", () -> roles(roleSet.spec(), "spec"));
    }

    static List<AnnotationSource> roleSetSources(Workload roleSet) {
        List<AnnotationSource> out = new ArrayList<>();
        out.add(roleSet.metadataSource());
        for (Role role : roleSetRoles(roleSet)) {
            out.add(roleSet.templateSource(role.template(), "pod template of role " + role.name()));
        }
        return out;
    }

    /** The subgroup of one role: per PodSet when it has multi-pod PodSets, else the whole role. */
    static SubGroupPlan subGroup(Role role, int replicas) {
        boolean podSets = role.podGroupSize() > 1;
        // an instance of a single-pod role is one pod: the subgroup is the whole role, all its replicas in one domain
        return new SubGroupPlan(
                        role.name(),
                        Map.of(WorkloadLabels.AIBRIX_ROLE, role.name()),
                        List.of(),
                        Map.of(),
                        List.of(podSets ? WorkloadLabels.AIBRIX_POD_SET : WorkloadLabels.AIBRIX_ROLE),
                        podSets ? role.podGroupSize() : replicas,
                        false,
                        false)
                .bestEffort(role.template() != null
                        && PodRequests.isBestEffort(role.template().getSpec()))
                .wholeRole(!podSets && replicas > 1);
    }

    /** What a RoleSet is, for planning: a RoleSet object, or the one AIBrix will make from a StormService's template. */
    record RoleSetShape(String name, String namespace, List<Role> roles, boolean volcano, List<OwnerReference> owners) {
        static RoleSetShape of(Workload roleSet) {
            return new RoleSetShape(
                    roleSet.name(),
                    roleSet.namespace(),
                    roleSetRoles(roleSet),
                    Aibrix.volcano(roleSet.spec(), "spec"),
                    roleSet.ownerReferences());
        }
    }

    private static PodRole podRole(RoleSetShape rs, Role role, int replicas) {
        PodIdentity selector = PodIdentity.of(
                PodIdentity.WORKLOAD, WorkloadKind.ROLE_SET.kind() + "/" + rs.name(), PodIdentity.ROLE, role.name());
        return PodRole.of(
                PodGroupNames.labelValue(role.name()),
                role.pods(replicas),
                role.template() == null ? null : role.template().getSpec(),
                selector);
    }

    /**
     * The PodGroups of one RoleSet; findings are reported on {@code subject} (the StormService, or the RoleSet).
     * {@code present} is a pod known to exist: its role counts at least one replica, and a role-level PodGroup
     * is planned for its PodSet even when the PodSet is not cached yet.
     */
    static List<GangPlan> roleSetPlans(
            RoleSetShape rs,
            GangScope scope,
            ObjectRef subject,
            Snapshot snapshot,
            PodIdentity present,
            List<Finding> findings) {
        List<PodRole> pods = new ArrayList<>();
        List<SubGroupPlan> subs = new ArrayList<>();
        List<GangPlan> plans = new ArrayList<>();
        for (Role role : rs.roles()) {
            PodRole base = podRole(rs, role, role.replicas());
            int replicas = base.selector().covers(present) ? Math.max(role.replicas(), 1) : role.replicas();
            if (replicas == 0) {
                continue;
            }
            if (!rs.volcano() && role.volcano() && role.podGroupSize() > 1) {
                List<String> podSets = podSetsOf(rs, role.name(), snapshot);
                String presentPodSet = base.selector().covers(present) ? present.get(PodIdentity.POD_SET) : null;
                if (presentPodSet != null && !podSets.contains(presentPodSet)) {
                    podSets.add(presentPodSet);
                }
                for (String podSet : podSets) {
                    PodRole one = PodRole.of(
                            base.taskSpec(),
                            role.podGroupSize(),
                            base.spec(),
                            base.selector().with(PodIdentity.POD_SET, podSet));
                    plans.add(GangPlan.adopted(scope, podSet, List.of(one), List.of(), GangPlan.Level.SUBGROUP));
                }
                findings.add(Finding.info(
                                WorkloadReason.ADOPTED_POD_GROUP,
                                subject,
                                subject + ": AIBrix's "
                                        + "volcanoSchedulingStrategy of role " + UserText.quote(role.name())
                                        + " makes one PodGroup per PodSet of " + rs.name()
                                        + "; the bridge adds only its topology fields to them")
                        .withKey(rs.name() + "/" + role.name()));
                continue;
            }
            pods.add(podRole(rs, role, replicas));
            subs.add(subGroup(role, replicas));
        }
        if (rs.volcano()) {
            findings.add(adopted(subject, rs.name()));
            return List.of(GangPlan.adopted(scope, rs.name(), pods, subs, GangPlan.Level.GANG));
        }
        if (!pods.isEmpty()) {
            plans.add(0, GangPlan.owned(scope, PodGroupNames.roleSet(rs.name()), rs.owners(), pods, subs));
        }
        return plans;
    }

    /** The note that AIBrix's own {@code volcanoSchedulingStrategy} makes PodGroup {@code name}, which is adopted. */
    static Finding adopted(ObjectRef subject, String name) {
        return Finding.info(
                        WorkloadReason.ADOPTED_POD_GROUP,
                        subject,
                        subject + ": AIBrix's volcanoSchedulingStrategy makes PodGroup " + name
                                + "; the bridge adds only its topology fields to it")
                .withKey(name);
    }

    private static List<String> podSetsOf(RoleSetShape rs, String role, Snapshot snapshot) {
        return snapshot.list(WorkloadKind.POD_SET, rs.namespace()).stream()
                .filter(podSet -> rs.name().equals(podSet.labels().get(WorkloadLabels.AIBRIX_ROLE_SET))
                        && role.equals(podSet.labels().get(WorkloadLabels.AIBRIX_ROLE)))
                .map(Workload::name)
                .sorted()
                .collect(Collectors.toCollection(ArrayList::new));
    }
}

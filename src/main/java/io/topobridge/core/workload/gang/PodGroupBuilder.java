package io.topobridge.core.workload.gang;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.topobridge.core.Topobridge;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.GangIntent;
import io.topobridge.core.workload.annotation.TopologyMode;
import io.topobridge.core.workload.resources.PodRequests;
import io.topobridge.core.workload.resources.ResourceSum;
import io.topobridge.volcano.model.NetworkTopologySpec;
import io.topobridge.volcano.model.PodGroupSpec;
import io.topobridge.volcano.model.SubGroupPolicySpec;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns a {@link GangPlan} and the validated intent into the PodGroup to apply. Tiers are always written as
 * {@code highestTierAllowed} (a number, never a name), hard mode always with a tier; every field a Volcano
 * API server would default is written explicitly so that an unchanged gang compares equal to what the
 * server stored and a resync writes nothing.
 */
public final class PodGroupBuilder {

    /** Annotation on owned PodGroups naming the scope that produced them ({@code Kind/name}). */
    public static final String GANG_ANNOTATION = Topobridge.PREFIX + "gang";

    /** The PodGroup, or null when the plan was refused, and what was noticed. */
    public record Built(DesiredPodGroup podGroup, List<Finding> findings) {
    }

    private PodGroupBuilder() {
    }

    /**
     * @param subjects the workloads the gang's annotations came from (findings are reported on them)
     * @param defaultQueue the queue of a gang whose annotations name none
     */
    public static Built build(GangPlan plan, GangIntent intent, List<ObjectRef> subjects, String defaultQueue) {
        List<Finding> findings = new ArrayList<>();
        var spec = new PodGroupSpec();
        if (plan.ownership() == DesiredPodGroup.Ownership.OWNED) {
            long pods = plan.podCount();
            int computed = plan.minMember() != null ? plan.minMember() : (int) Math.min(Integer.MAX_VALUE, pods);
            int minMember = computed;
            if (intent.minMember() != null) {
                if (intent.minMember() > pods) {
                    for (ObjectRef subject : subjects) {
                        findings.add(Finding.rejected(WorkloadReason.INVALID_ANNOTATION, subject,
                                minMemberMessage(subject, intent.minMember(), pods)).withKey(Topobridge.MIN_MEMBER));
                    }
                    return new Built(null, findings);
                }
                minMember = intent.minMember();
            }
            spec.setMinMember(minMember);
            spec.setMinResources(minResources(plan.roles()));
            spec.setQueue(intent.queue() != null ? intent.queue() : defaultQueue);
            String priority = priorityClass(plan, subjects, findings);
            if (priority != null) {
                spec.setPriorityClassName(priority);
            }
        }
        NetworkTopologySpec gangTopology = plan.level() == GangPlan.Level.SUBGROUP && intent.hasSubgroupTopology()
                ? topology(intent.subgroupTier(), intent.subgroupMode(), intent.effectiveSubgroupMode())
                : topology(intent.highestTier(), intent.mode(), intent.effectiveMode());
        spec.setNetworkTopology(gangTopology);
        if (!plan.subGroups().isEmpty()) {
            NetworkTopologySpec subTopology = intent.hasSubgroupTopology()
                    ? topology(intent.subgroupTier(), intent.subgroupMode(), intent.effectiveSubgroupMode())
                    : null;
            List<SubGroupPolicySpec> policies = new ArrayList<>();
            for (SubGroupPlan sub : plan.subGroups()) {
                policies.add(policy(sub, subTopology));
            }
            spec.setSubGroupPolicy(policies);
        }
        Map<String, String> labels = plan.ownership() == DesiredPodGroup.Ownership.OWNED
                ? Map.of(Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY) : Map.of();
        Map<String, String> annotations = plan.ownership() == DesiredPodGroup.Ownership.OWNED
                ? Map.of(GANG_ANNOTATION, plan.scope().key()) : Map.of();
        var desired = new DesiredPodGroup(plan.scope().namespace(), plan.name(), labels, annotations, plan.owners(),
                spec, plan.ownership());
        return new Built(desired, findings);
    }

    /** The refusal of a {@code min-member} above the gang's pod count. */
    private static String minMemberMessage(ObjectRef subject, int minMember, long pods) {
        return subject + ": " + Topobridge.MIN_MEMBER + "=\"" + minMember + "\" is more than the " + pods
                + " pods of the gang, so it could never start";
    }

    private static NetworkTopologySpec topology(Integer tier, TopologyMode written, TopologyMode effective) {
        if (tier == null && written == null) {
            return null;
        }
        // the parser refuses hard mode without a tier, so a tierless topology here is soft
        var out = new NetworkTopologySpec().mode(effective.volcano());
        if (tier != null) {
            out.setHighestTierAllowed(tier);
        }
        return out;
    }

    private static SubGroupPolicySpec policy(SubGroupPlan sub, NetworkTopologySpec topology) {
        var selector = new LabelSelector();
        if (!sub.matchLabels().isEmpty()) {
            selector.setMatchLabels(new TreeMap<>(sub.matchLabels()));
        }
        if (!sub.existsKeys().isEmpty()) {
            List<LabelSelectorRequirement> expressions = new ArrayList<>();
            for (String key : sub.existsKeys()) {
                expressions.add(new LabelSelectorRequirement(key, "Exists", null));
            }
            selector.setMatchExpressions(expressions);
        }
        var policy = new SubGroupPolicySpec()
                .name(sub.name())
                .subGroupSize(sub.size())
                .minSubGroups(0)
                .labelSelector(selector)
                .matchLabelKeys(new ArrayList<>(sub.matchLabelKeys()));
        if (topology != null) {
            policy.setNetworkTopology(topology);
        }
        return policy;
    }

    /** The exact sum of every pod's effective requests; a template's requests are computed once. */
    static Map<String, String> minResources(List<PodRole> roles) {
        var total = new ResourceSum();
        Map<PodSpec, ResourceSum> perSpec = new IdentityHashMap<>();
        for (PodRole role : roles) {
            if (role.count() <= 0) {
                continue;
            }
            ResourceSum one = perSpec.computeIfAbsent(role.spec(), PodRequests::of);
            total.add(one, role.count());
        }
        Map<String, String> out = total.canonical();
        return out.isEmpty() ? null : new TreeMap<>(out);
    }

    private static String priorityClass(GangPlan plan, List<ObjectRef> subjects, List<Finding> findings) {
        Set<String> names = new LinkedHashSet<>();
        for (PodRole role : plan.roles()) {
            if (role.count() > 0 && role.spec() != null && role.spec().getPriorityClassName() != null
                    && !role.spec().getPriorityClassName().isBlank()) {
                names.add(role.spec().getPriorityClassName());
            }
        }
        if (names.size() <= 1) {
            return names.isEmpty() ? null : names.iterator().next();
        }
        for (ObjectRef subject : subjects) {
            findings.add(Finding.warning(WorkloadReason.PRIORITY_CLASSES_DIFFER, subject, subject
                    + ": the pod templates of gang " + plan.name() + " name different priority classes "
                    + names.stream().map(UserText::quote).toList() + "; the PodGroup gets none").withKey(plan.name()));
        }
        return null;
    }
}

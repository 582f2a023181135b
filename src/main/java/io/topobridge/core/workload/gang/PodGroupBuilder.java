package io.topobridge.core.workload.gang;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.topobridge.core.Topobridge;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.recovery.OnDomainLoss;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.resources.ResourceSum;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.GangIntent;
import io.topobridge.core.workload.annotation.TopologyMode;
import io.topobridge.volcano.model.NetworkTopologySpec;
import io.topobridge.volcano.model.PodGroupSpec;
import io.topobridge.volcano.model.SubGroupPolicySpec;
import java.util.ArrayList;
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
    public record Built(DesiredPodGroup podGroup, List<Finding> findings) {}

    /**
     * @param subjects the workloads the gang's annotations came from (findings are reported on them)
     * @param defaultQueue the queue of a gang whose annotations name none
     * @param explanations annotations that say how the bridge chose (e.g. {@code topobridge.io/chosen-tier}), written
     *     on the PodGroups the bridge owns and on those it adopts
     * @param requests the templates' requests, computed once per translation (for minResources and the best-effort
     *     check)
     */
    public static Built build(
            GangPlan plan,
            GangIntent intent,
            List<ObjectRef> subjects,
            String defaultQueue,
            Map<String, String> explanations,
            PodRequests requests) {
        List<Finding> findings = new ArrayList<>();
        var spec = new PodGroupSpec();
        if (plan.ownership() == DesiredPodGroup.Ownership.OWNED) {
            long pods = PodRole.count(plan.roles(), false);
            long starting = PodRole.count(plan.roles(), true);
            int minMember = (int) Math.min(Integer.MAX_VALUE, starting);
            if (intent.minMember() != null) {
                if (intent.minMember() > starting) {
                    findings.addAll(WorkloadReason.refusals(
                            WorkloadReason.INVALID_ANNOTATION,
                            subjects,
                            Topobridge.MIN_MEMBER,
                            minMemberMessage(intent.minMember(), pods, starting)));
                    return new Built(null, findings);
                }
                minMember = intent.minMember();
                if (minMember < starting) {
                    spec.setMinTaskMember(roleFloor(plan));
                }
            }
            spec.setMinMember(minMember);
            spec.setMinResources(minResources(plan.roles(), requests));
            spec.setQueue(intent.queue() != null ? intent.queue() : defaultQueue);
            spec.setPriorityClassName(priorityClass(plan, subjects, findings));
        }
        NetworkTopologySpec gangTopology = plan.level() == GangPlan.Level.SUBGROUP && intent.hasSubgroupTopology()
                ? topology(intent.subgroupTier(), intent.subgroupMode(), intent.effectiveSubgroupMode())
                : topology(intent.highestTier(), intent.mode(), intent.effectiveMode());
        if (gangTopology != null && !plan.roles().isEmpty() && requestsNothing(plan.roles(), requests)) {
            // Volcano's allocate action skips pods that request nothing and its backfill places them on any node:
            // a tier written here would read as a promise the scheduler does not keep, so the PodGroup gets none
            findings.addAll(WorkloadReason.warnings(
                    WorkloadReason.BEST_EFFORT_IGNORES_TOPOLOGY,
                    subjects,
                    plan.name(),
                    "no pod of"
                            + " gang " + plan.name()
                            + " requests any resource, so Volcano places them by backfill on any"
                            + " node: its tier would not be enforced and is left out (request some CPU,"
                            + " e.g. 10m, to have it placed)"));
            gangTopology = null;
        }
        spec.setNetworkTopology(gangTopology);
        if (plan.surgeOnlyRollout()
                && gangTopology != null
                && gangTopology.getMode() == NetworkTopologySpec.ModeEnum.HARD) {
            findings.addAll(WorkloadReason.warnings(
                    WorkloadReason.ROLLOUT_NEEDS_ROOM,
                    subjects,
                    plan.name(),
                    "its rollouts add"
                            + " pods before taking any down (maxUnavailable comes to 0: set so, or a percentage such as"
                            + " Kubernetes' default 25 % of 1 to 3 replicas) and the tier is hard: each new pod must fit in"
                            + " the domain the gang already runs in, so a rollout waits while that domain is full; allow"
                            + " maxUnavailable 1 or keep spare room in the domain"));
        }
        if (!plan.subGroups().isEmpty()) {
            spec.setSubGroupPolicy(subGroupPolicies(plan, intent, subjects, findings));
        }
        return new Built(desired(plan, spec, explanations), findings);
    }

    /** The subgroups' policies, with a warning for each subgroup whose tier Volcano would not keep. */
    private static List<SubGroupPolicySpec> subGroupPolicies(
            GangPlan plan, GangIntent intent, List<ObjectRef> subjects, List<Finding> findings) {
        NetworkTopologySpec subTopology = intent.hasSubgroupTopology()
                ? topology(intent.subgroupTier(), intent.subgroupMode(), intent.effectiveSubgroupMode())
                : null;
        List<SubGroupPolicySpec> policies = new ArrayList<>();
        for (SubGroupPlan sub : plan.subGroups()) {
            if (sub.bestEffort() && subTopology != null) {
                findings.addAll(WorkloadReason.warnings(
                        WorkloadReason.BEST_EFFORT_IGNORES_TOPOLOGY,
                        subjects,
                        sub.name(),
                        "the pods of subgroup " + sub.name()
                                + " request no resources, so Volcano places"
                                + " them by backfill on any node: its subgroup tier would not be enforced and is left"
                                + " out (request some CPU, e.g. 10m, to have it placed)"));
            }
            if (sub.wholeRole() && subTopology != null && !sub.bestEffort()) {
                findings.addAll(
                        WorkloadReason.warnings(
                                WorkloadReason.SUBGROUP_IS_WHOLE_ROLE,
                                subjects,
                                sub.name(),
                                "role " + sub.name() + " has " + sub.size()
                                        + " single-pod instances, so its"
                                        + " subgroup is the whole role: the subgroup tier places all "
                                        + sub.size()
                                        + " replicas within one domain, all or none (a single pod needs no subgroup of its own)"));
            }
            policies.add(policy(sub, sub.bestEffort() ? null : subTopology));
        }
        return policies;
    }

    /** The PodGroup with its labels and annotations: an owned one names its gang; every one explains the choice. */
    private static DesiredPodGroup desired(GangPlan plan, PodGroupSpec spec, Map<String, String> explanations) {
        Map<String, String> labels = new TreeMap<>();
        // how the bridge chose goes on adopted PodGroups too: the tiers it explains are the bridge's fields there
        Map<String, String> annotations = new TreeMap<>(explanations);
        if (plan.ownership() == DesiredPodGroup.Ownership.OWNED) {
            labels.putAll(plan.labels());
            labels.put(Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY);
            annotations.put(GANG_ANNOTATION, plan.scope().key());
        }
        return new DesiredPodGroup(
                plan.scope().namespace(),
                plan.name(),
                labels,
                annotations,
                plan.owners(),
                spec,
                plan.ownership(),
                OnDomainLoss.WAIT);
    }

    private static String minMemberMessage(int minMember, long pods, long starting) {
        return Topobridge.MIN_MEMBER + "=\"" + minMember + "\" is more than the "
                + (starting == pods
                        ? pods + " pods of the gang"
                        : starting + " of its " + pods
                                + " pods that exist before it starts (the others are created only" + " once those run)")
                + ", so it could never start";
    }

    /**
     * With {@code min-member} below the gang's size, one pod of every role must still be placed, or a prefill/decode
     * gang could start with one side only: {@code minTaskMember} 1 per role (task-spec). Volcano reads it only for
     * gangs of several roles.
     */
    private static Map<String, Integer> roleFloor(GangPlan plan) {
        Map<String, Integer> floor = new TreeMap<>();
        plan.roles().stream().filter(r -> r.atStart() > 0).forEach(r -> floor.put(r.taskSpec(), 1));
        return floor.size() < 2 ? null : floor;
    }

    private static NetworkTopologySpec topology(Integer tier, TopologyMode written, TopologyMode effective) {
        if (tier == null && written == null) {
            return null;
        }
        // the parser refuses hard mode without a tier, so a tierless topology here is soft
        return new NetworkTopologySpec().mode(effective.volcano()).highestTierAllowed(tier);
    }

    private static SubGroupPolicySpec policy(SubGroupPlan sub, NetworkTopologySpec topology) {
        var selector = new LabelSelector();
        if (!sub.matchLabels().isEmpty()) {
            selector.setMatchLabels(new TreeMap<>(sub.matchLabels()));
        }
        List<LabelSelectorRequirement> expressions = new ArrayList<>(sub.existsKeys().stream()
                .map(key -> new LabelSelectorRequirement(key, "Exists", null))
                .toList());
        new TreeMap<>(sub.excluded())
                .forEach((key, values) ->
                        expressions.add(new LabelSelectorRequirement(key, "NotIn", new ArrayList<>(values))));
        if (!expressions.isEmpty()) {
            selector.setMatchExpressions(expressions);
        }
        return new SubGroupPolicySpec()
                .name(sub.name())
                .subGroupSize(sub.size())
                .minSubGroups(0)
                .labelSelector(selector)
                .matchLabelKeys(new ArrayList<>(sub.matchLabelKeys()))
                .networkTopology(topology);
    }

    /** Whether no pod of these roles requests anything (an unknown template does). */
    private static boolean requestsNothing(List<PodRole> roles, PodRequests requests) {
        for (PodRole r : roles) {
            if (r.count() > 0 && (r.spec() == null || !requests.sum(r.spec()).allZero())) {
                return false;
            }
        }
        return true;
    }

    /** The exact sum of every pod's effective requests. */
    private static Map<String, String> minResources(List<PodRole> roles, PodRequests requests) {
        var total = new ResourceSum();
        for (PodRole role : roles) {
            if (role.count() > 0) {
                total.add(requests.sum(role.spec()), role.count());
            }
        }
        Map<String, String> out = total.canonical();
        return out.isEmpty() ? null : new TreeMap<>(out);
    }

    private static String priorityClass(GangPlan plan, List<ObjectRef> subjects, List<Finding> findings) {
        Set<String> names = new LinkedHashSet<>();
        for (PodRole role : plan.roles()) {
            String name = role.count() > 0 && role.spec() != null ? role.spec().getPriorityClassName() : null;
            if (name != null && !name.isBlank()) {
                names.add(name);
            }
        }
        if (names.size() <= 1) {
            return names.isEmpty() ? null : names.iterator().next();
        }
        findings.addAll(WorkloadReason.warnings(
                WorkloadReason.PRIORITY_CLASSES_DIFFER,
                subjects,
                plan.name(),
                "the pod templates of gang " + plan.name() + " name different priority classes "
                        + names.stream().map(UserText::quote).toList() + "; the PodGroup gets none"));
        return null;
    }
}

package io.topobridge.core.workload.autotier;

import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.DomainFit;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.GangIntent;
import io.topobridge.core.workload.dra.DraDevices;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.volcano.model.NetworkTopologySpec;
import io.topobridge.volcano.model.SubGroupPolicySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Whether a gang (or each of its subgroups) fits in one domain of the tier it is held to, judged as {@code auto} sizes
 * domains: by what the nodes that take its pods have allocatable, the domain empty. A hard gang no domain of its tier
 * holds could never start (Volcano places it inside one), so it is refused like a gang larger than the whole cluster
 * ({@link WorkloadReason#GANG_EXCEEDS_DOMAIN}): no PodGroup is made, an existing one is kept as it was, and its pods are
 * still tied to it so they join it once a domain can hold it. A soft one gets a warning with the same facts and its
 * PodGroup. Nothing is judged while no domain of the tier is known.
 */
public final class TierFit {

    /**
     * The findings for one built PodGroup: a rejection on every subject for a hard tier no domain of which holds the
     * gang (or its largest subgroup), a warning for a soft one; none when it fits or cannot be judged. A tier
     * {@code auto} chose is left to its own rule ({@link AutoTiers}: {@code AutoTierNoFit}).
     *
     * @param intent the gang's intent: which of its tiers the user wrote
     * @param domains the domains, read only for a PodGroup held to a tier
     * @param exists whether the PodGroup exists already (it is then kept as it was)
     */
    public static List<Finding> findings(
            GangPlan plan,
            GangIntent intent,
            DesiredPodGroup podGroup,
            Supplier<TierDomains> domains,
            List<ObjectRef> subjects,
            BooleanSupplier exists) {
        NetworkTopologySpec gangTopology =
                intent.autoTier() ? null : podGroup.spec().getNetworkTopology();
        Optional<NetworkTopologySpec> subTopology =
                intent.autoSubgroupTier() ? Optional.empty() : subgroupTopology(podGroup);
        Integer tier = tierOf(gangTopology);
        if ((tier == null && subTopology.isEmpty()) || domains.get().isEmpty()) {
            return List.of();
        }
        // only the nodes that take the gang's pods are room, as for auto
        TierDomains usable = domains.get().usableBy(AutoTiers.tolerations(plan.roles()));
        List<Finding> out = new ArrayList<>();
        if (tier != null) {
            Amounts need = Amounts.parse(podGroup.spec().getMinResources());
            DomainFit.exceeded(usable, need, tier)
                    .ifPresent(
                            fit -> out.addAll(finding(subjects, podGroup.name(), hard(gangTopology), "", fit, exists)));
        }
        if (subTopology.isPresent() && plan.level() == GangPlan.Level.GANG) {
            Amounts need = AutoTiers.subgroupNeed(plan, DraDevices.GangDevices.NONE);
            if (need != null) {
                DomainFit.exceeded(usable, need, tierOf(subTopology.get()))
                        .ifPresent(fit -> out.addAll(
                                finding(subjects, podGroup.name(), hard(subTopology.get()), "subgroup ", fit, exists)));
            }
        }
        return out;
    }

    private static List<Finding> finding(
            List<ObjectRef> subjects,
            String podGroup,
            boolean hard,
            String what,
            DomainFit fit,
            BooleanSupplier exists) {
        String needs = what.isEmpty()
                ? "PodGroup " + podGroup + " needs " + fit.needs()
                : "the largest subgroup of PodGroup " + podGroup + " needs " + fit.needs();
        String message = needs + " within one domain of its " + (hard ? "hard " : "soft ") + what + "tier "
                + fit.tierLabel() + ", " + fit.sentence()
                + (hard
                        ? "; " + fit.verdict() + ", so "
                                + (exists.getAsBoolean() ? "the PodGroup is kept as it was" : "it is not made")
                                + " (raise the " + what
                                + "tier, make it soft or the gang smaller)"
                        : "; Volcano will place it across domains of that tier");
        String key = podGroup + " " + what + "tier";
        return hard
                ? WorkloadReason.refusals(WorkloadReason.GANG_EXCEEDS_DOMAIN, subjects, key, message)
                : WorkloadReason.warnings(WorkloadReason.GANG_EXCEEDS_DOMAIN, subjects, key, message);
    }

    /** The topology of the PodGroup's subgroups (the first policy that has one), if any holds them to a tier. */
    private static Optional<NetworkTopologySpec> subgroupTopology(DesiredPodGroup podGroup) {
        for (SubGroupPolicySpec policy :
                Objects.requireNonNullElse(podGroup.spec().getSubGroupPolicy(), List.<SubGroupPolicySpec>of())) {
            if (tierOf(policy.getNetworkTopology()) != null) {
                return Optional.of(policy.getNetworkTopology());
            }
        }
        return Optional.empty();
    }

    private static Integer tierOf(NetworkTopologySpec topology) {
        return topology == null ? null : topology.getHighestTierAllowed();
    }

    private static boolean hard(NetworkTopologySpec topology) {
        return topology.getMode() != NetworkTopologySpec.ModeEnum.SOFT;
    }
}

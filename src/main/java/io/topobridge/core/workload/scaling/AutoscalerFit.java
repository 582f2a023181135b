package io.topobridge.core.workload.scaling;

import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.autotier.AutoTier;
import io.topobridge.core.workload.autotier.AutoTiers;
import io.topobridge.core.workload.kind.ScaledRoles;
import io.topobridge.core.workload.kind.WorkloadAdapters;
import io.topobridge.core.workload.translate.ScopeResult;
import io.topobridge.volcano.model.NetworkTopologySpec;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Whether an autoscaled part of a gang held to a hard tier can grow as far as its autoscaler may take it: a
 * DisaggregatedSet role with {@code scaling.mode: External}, a Deployment, an AIBrix StormService role. A hard tier
 * places the whole gang within one domain of that tier, and a replica added later must find room in the domain the
 * gang runs in: when the gang at the autoscaler's {@code maxReplicas} needs more than the largest domain of the tier
 * holds even empty, the replicas past what fits stay pending however the cluster is used. Said as a warning on the
 * scaled workload, naming the autoscaler, its maximum, what the gang then needs, the largest domain and how many
 * replicas fit there; the PodGroup is made as it is.
 */
public final class AutoscalerFit {

    /** The warnings for one translated scope; none when its namespace has no autoscaler or its gangs no hard tier. */
    public static List<Finding> findings(ScopeResult result, WorkloadLookup lookup, WorkloadAdapters adapters) {
        List<Autoscaler> autoscalers = lookup.autoscalers(result.scope().namespace()).stream()
                .flatMap(o -> Autoscaler.of(o).stream())
                .toList();
        List<DesiredPodGroup> hard = result.podGroups().stream()
                .filter(pg -> pg.ownership() == DesiredPodGroup.Ownership.OWNED
                        && hardTier(pg).isPresent())
                .toList();
        if (autoscalers.isEmpty() || hard.isEmpty()) {
            return List.of();
        }
        List<ScaledRoles.Unit> units =
                ScaledRoles.of(result.scope(), autoscalers, adapters.snapshot(lookup, Integer.MAX_VALUE));
        if (units.stream().noneMatch(u -> u.autoscaler().maxReplicas() > u.current())) {
            return List.of();
        }
        TierDomains domains = lookup.domains();
        List<Finding> out = new ArrayList<>();
        for (ScaledRoles.Unit unit : units) {
            long max = unit.autoscaler().maxReplicas();
            if (max <= unit.current()) {
                continue;
            }
            for (DesiredPodGroup pg : hard) {
                int tier = hardTier(pg).orElseThrow();
                List<TierDomains.Domain> at = domains.at(tier);
                if (at.isEmpty()) {
                    continue; // no domain of the tier is known: nothing to judge against
                }
                // requests are never negative (Kubernetes refuses them): what is left is the rest of the gang
                Amounts base = Amounts.parse(pg.spec().getMinResources())
                        .minusClamped(AutoTiers.times(unit.perReplica(), unit.current()));
                Amounts need =
                        AutoTier.relevant(base.plus(AutoTiers.times(unit.perReplica(), max)), domains.accelerators());
                if (need.isEmpty() || at.stream().anyMatch(d -> d.allocatable().covers(need))) {
                    continue;
                }
                TierDomains.Domain largest = largest(at, need);
                long fit = fitting(at, base, unit.perReplica(), need.values().keySet());
                out.add(Finding.warning(
                                WorkloadReason.AUTOSCALER_EXCEEDS_DOMAIN,
                                unit.subject(),
                                unit.subject() + ": " + unit.autoscaler().describe() + " may scale " + unit.what()
                                        + " to " + max + " replicas (maxReplicas; " + unit.current() + " now), and"
                                        + " PodGroup " + pg.name() + " would then need " + AutoTier.describe(need)
                                        + ", more than any domain of its hard tier " + AutoTier.label(domains, tier)
                                        + " holds: the largest, " + largest.name() + ", has "
                                        + AutoTier.describe(only(largest.allocatable(), need))
                                        + (fit >= unit.current()
                                                ? ", room for " + fit + " replicas"
                                                : ", too little even for the replicas it has")
                                        + "; the replicas past that stay pending (hard places the whole gang in one"
                                        + " domain): lower maxReplicas, raise the tier or make it soft")
                        .withKey(unit.autoscaler().describe()));
                break; // one PodGroup named is enough (a StormService's RoleSets are alike)
            }
        }
        return out;
    }

    static Optional<Integer> hardTier(DesiredPodGroup pg) {
        NetworkTopologySpec topology = pg.spec().getNetworkTopology();
        return topology == null || topology.getMode() != NetworkTopologySpec.ModeEnum.HARD
                ? Optional.empty()
                : Optional.ofNullable(topology.getHighestTierAllowed());
    }

    /**
     * The most replicas the part may have for the gang to fit in one domain even empty: in the best domain, for each
     * compared resource the part requests, what is left after the rest of the gang divided by one replica's share.
     */
    private static long fitting(
            List<TierDomains.Domain> at, Amounts base, Amounts perReplica, Iterable<String> compared) {
        long best = 0;
        for (TierDomains.Domain d : at) {
            long fit = Long.MAX_VALUE;
            for (String r : compared) {
                BigDecimal left = d.allocatable().get(r).subtract(base.get(r));
                BigDecimal one = perReplica.get(r);
                if (left.signum() < 0) {
                    fit = -1;
                    break;
                }
                if (one.signum() > 0) {
                    fit = Math.min(fit, left.divide(one, 0, RoundingMode.FLOOR).longValue());
                }
            }
            best = Math.max(best, fit == Long.MAX_VALUE ? 0 : fit);
        }
        return best;
    }

    /** The domain with the most of the first compared resource (accelerators when the need has any). */
    private static TierDomains.Domain largest(List<TierDomains.Domain> at, Amounts need) {
        String first = need.values().keySet().iterator().next();
        return Collections.max(at, Comparator.comparing(d -> d.allocatable().get(first)));
    }

    private static Amounts only(Amounts a, Amounts need) {
        Map<String, BigDecimal> out = new TreeMap<>();
        need.values().keySet().forEach(r -> out.put(r, a.get(r)));
        return new Amounts(out);
    }
}

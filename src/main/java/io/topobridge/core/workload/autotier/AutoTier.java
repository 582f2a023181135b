package io.topobridge.core.workload.autotier;

import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.capacity.Withheld;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.workload.annotation.TopologyMode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The rule behind {@code highest-tier: auto}. A gang's need is its accelerators (the configured
 * {@link Accelerators}: {@code nvidia.com/gpu}, {@code amd.com/gpu}, {@code habana.ai/gaudi}…) when it requests any,
 * else its CPU and memory. Only nodes that take the gang's pods count as room (see {@link TierDomains}); where nodes
 * that do not would change the answer, the sentence says how many domains they keep from holding the gang and why. The chosen tier is the lowest (above the subgroups' tier, for a gang of several
 * subgroups each held to one) at which at least {@code minDomains} domains could hold the need when empty (their nodes' allocatable summed); failing that, the lowest at which one domain could; failing
 * that, none fits and the top tier is chosen, soft. The mode, unless the user wrote one, is {@code hard} when some
 * domain of the chosen tier has room for the need today (free capacity, counting what the gang itself already uses
 * there as free) and {@code soft} otherwise — or {@code hard} still while the gang may wait for room (a new gang,
 * under {@code topobridge.workloads.auto-wait-for-room}). The explanation is a deterministic sentence of allocatable figures only,
 * so it changes when the topology does, not when pods come and go.
 */
public final class AutoTier {

    /** The tier chosen, its mode, whether any domain could hold the need, and why, in one sentence. */
    public record Choice(int tier, TopologyMode mode, boolean fits, String explanation) {
        public Choice {
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(explanation, "explanation");
        }
    }

    /** The resources the rule compares: the accelerators the need has, else CPU and memory. */
    public static Amounts relevant(Amounts need, Accelerators accelerators) {
        List<String> wanted = accelerators.in(need.values());
        Map<String, BigDecimal> out = new TreeMap<>();
        (wanted.isEmpty() ? List.of("cpu", "memory") : wanted)
                .stream().filter(r -> need.get(r).signum() > 0).forEach(r -> out.put(r, need.get(r)));
        return new Amounts(out);
    }

    /**
     * Chooses a tier for one need, among the tiers from {@code lowest} (at least 1, at most {@code highest}) up: a gang
     * whose subgroups are each held to a tier takes a tier above theirs. With {@code wholeGang} (the need is the whole
     * PodGroup's, not one subgroup's), a gang whose bound pods already sit in more than one domain of the chosen tier
     * is {@code soft} unless the user wrote a mode: it was placed across domains (soft, when there was no room), and
     * {@code hard} would promise what its placement does not keep — and hold every replacement pod to a domain the
     * running pods are not in. With {@code waitForRoom} a gang without room today in any domain of the chosen tier is
     * {@code hard} all the same (it waits for room there instead of being placed across domains).
     *
     * @param need what the gang (or one subgroup) requests in total
     * @param lowest the lowest tier that may be chosen (1 where nothing holds the gang above it)
     * @param highest the highest tier that may be chosen (the top tier, or the gang's tier for a subgroup)
     * @param minDomains how many domains of a tier must be able to hold the need (at least 1)
     * @param gang {@code namespace/podgroup}, whose own bound pods count as free room; may be null
     * @param written the mode the user wrote, or null
     */
    public static Choice choose(
            Amounts need,
            TierDomains domains,
            int lowest,
            int highest,
            int minDomains,
            String gang,
            TopologyMode written,
            boolean wholeGang,
            boolean waitForRoom) {
        if (highest < 1) {
            throw new IllegalArgumentException("no tier to choose from");
        }
        int from = Math.max(1, Math.min(lowest, highest));
        int wanted = Math.max(1, minDomains);
        Amounts rel = relevant(need, domains.accelerators());
        int chosen = 0;
        int fallback = 0;
        for (int t = from; t <= highest; t++) {
            int holding = holding(domains.at(t), rel);
            if (holding >= wanted) {
                chosen = t;
                break;
            }
            if (holding > 0 && fallback == 0) {
                fallback = t;
            }
        }
        if (chosen == 0) {
            chosen = fallback;
        }
        if (chosen == 0) {
            String sentence = label(domains, highest) + ": " + describe(rel) + " fit in no domain of any tier; "
                    + label(domains, highest) + " holds at most " + largest(domains.at(highest), rel)
                    + would(domains.at(highest), rel, ", and ", "");
            return new Choice(highest, written != null ? written : TopologyMode.SOFT, false, sentence);
        }
        List<TierDomains.Domain> at = domains.at(chosen);
        StringBuilder sentence = new StringBuilder(label(domains, chosen) + ": " + describe(rel) + " fit in "
                + holding(at, rel) + " of " + at.size() + " " + word(domains, chosen) + " domains");
        if (holding(at, rel) < wanted) {
            sentence.append(", fewer than the ").append(wanted).append(" wanted, but no tier has more");
        }
        sentence.append(would(at, rel, "; ", " more"));
        if (chosen == lowest && lowest > 1) {
            sentence.append(
                    "; its subgroups keep to " + label(domains, from - 1) + ", the gang to a tier above theirs");
        } else if (chosen > 1) {
            List<TierDomains.Domain> below = domains.at(chosen - 1);
            int belowHolding = holding(below, rel);
            sentence.append("; ").append(label(domains, chosen - 1));
            if (belowHolding > 0) {
                sentence.append(" holds it in only " + belowHolding + " of " + below.size() + " domains");
            } else {
                sentence.append(" holds at most ").append(largest(below, rel));
            }
            sentence.append(would(below, rel, ", and ", ""));
        }
        TopologyMode mode = written;
        if (mode == null) {
            long holdingOwnPods = gang == null
                    ? 0
                    : at.stream()
                            .filter(d -> !d.gangUse()
                                    .getOrDefault(gang, Amounts.NONE)
                                    .isEmpty())
                            .count();
            boolean room = at.stream().anyMatch(d -> d.freeFor(gang).covers(rel));
            mode = (room || waitForRoom) && !(wholeGang && holdingOwnPods > 1) ? TopologyMode.HARD : TopologyMode.SOFT;
        }
        return new Choice(chosen, mode, true, sentence.toString());
    }

    private static int holding(List<TierDomains.Domain> domains, Amounts rel) {
        return (int) domains.stream().filter(d -> holds(d.allocatable(), rel)).count();
    }

    private static boolean holds(Amounts size, Amounts rel) {
        return size.covers(rel) && (!rel.isEmpty() || !size.isEmpty());
    }

    /**
     * {@code "; 1 more would but for 9 cordoned nodes"}: how many of the domains would hold the need if every node under
     * them took the gang's pods, but do not, and the nodes that keep them from it; empty when none.
     */
    private static String would(List<TierDomains.Domain> domains, Amounts rel, String prefix, String more) {
        int n = 0;
        Withheld withheld = Withheld.NONE;
        for (TierDomains.Domain d : domains) {
            if (!holds(d.allocatable(), rel)
                    && holds(d.nominal(), rel)
                    && !d.withheld().isEmpty()) {
                n++;
                withheld = withheld.plus(d.withheld());
            }
        }
        return n == 0 ? "" : prefix + n + more + " would but for " + withheld.describe();
    }

    /** {@code 2 (nvlink-domain)}, or {@code 2} for a tier without a name. */
    public static String label(TierDomains domains, int tier) {
        String name = domains.name(tier);
        return name.isEmpty() ? String.valueOf(tier) : tier + " (" + name + ")";
    }

    private static String word(TierDomains domains, int tier) {
        String name = domains.name(tier);
        return name.isEmpty() ? "tier-" + tier : name;
    }

    /** {@code 32 GPUs}, {@code 12 CPUs and 48Gi memory}, {@code no resources}. */
    public static String describe(Amounts rel) {
        return rel.isEmpty() ? "no resources" : joined(rel.values());
    }

    private static String joined(Map<String, BigDecimal> amounts) {
        List<String> parts = new ArrayList<>();
        new TreeMap<>(amounts).forEach((r, v) -> parts.add(amount(r, v)));
        return String.join(" and ", parts);
    }

    private static String amount(String resource, BigDecimal value) {
        String shown = Amounts.show(resource, value);
        boolean one = value.compareTo(BigDecimal.ONE) == 0;
        return switch (resource) {
            case "cpu" -> shown + (one ? " CPU" : " CPUs");
            case "memory" -> shown + " memory";
            default -> shown + " " + Accelerators.noun(resource, one);
        };
    }

    /** The most a single domain of the list has of each compared resource (each maximum on its own). */
    private static String largest(List<TierDomains.Domain> domains, Amounts rel) {
        if (rel.isEmpty()) {
            return "nothing";
        }
        Map<String, BigDecimal> max = new TreeMap<>();
        for (String r : rel.values().keySet()) {
            max.put(r, BigDecimal.ZERO);
            domains.forEach(d -> max.merge(r, d.allocatable().get(r), BigDecimal::max));
        }
        return joined(max);
    }
}

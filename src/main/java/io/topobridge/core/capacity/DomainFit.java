package io.topobridge.core.capacity;

import io.topobridge.core.node.Accelerators;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * A need that no domain of a tier holds even when empty: Volcano places a gang held to that tier inside one of its
 * domains, so such a gang could never start there. The need is compared by every resource it asks for that some node
 * offers (a resource no node offers is the whole cluster's shortfall, not a domain's), against what the nodes under
 * each domain that take the pods in question have allocatable ({@link TierDomains#usableBy}); the answer names the
 * largest domain and what it holds, and the lowest tier one of whose domains would hold the need.
 *
 * @param tier the tier judged
 * @param tierName its name ({@code ""} when it has none)
 * @param need what the need asks for of the resources the largest domain falls short of
 * @param largest the domain of the tier that comes closest
 * @param holds what that domain has of those resources (zero is absent)
 * @param holdingTier the lowest tier above with a domain that holds the need, or 0 when none does
 * @param holdingName that tier's name ({@code ""} when none or unnamed)
 * @param wouldBut how many domains of the tier would hold the need if every node under them took the pods
 * @param withheld the nodes that keep those domains from it
 */
public record DomainFit(
        int tier,
        String tierName,
        Amounts need,
        String largest,
        Amounts holds,
        int holdingTier,
        String holdingName,
        int wouldBut,
        Withheld withheld) {

    /**
     * Empty when some domain of {@code tier} holds {@code need} when empty, when no domain of the tier is known (no
     * HyperNodes yet: nothing to judge against), when the need asks for nothing some node offers, or when it is more
     * than every node under the HyperNodes has together (that is the whole cluster's shortfall, said as such).
     *
     * @param domains the domains of every tier, already limited to the nodes that take the pods in question
     */
    public static Optional<DomainFit> exceeded(TierDomains domains, Amounts need, int tier) {
        List<TierDomains.Domain> at = domains.at(tier);
        if (at.isEmpty()) {
            return Optional.empty();
        }
        Amounts compared = offered(domains, need);
        if (compared.isEmpty() || at.stream().anyMatch(d -> d.allocatable().covers(compared))) {
            return Optional.empty();
        }
        // the first of the closest on a tie
        TierDomains.Domain largest =
                Collections.max(at, Comparator.comparing(d -> d.allocatable().coverage(compared)));
        int holding = IntStream.rangeClosed(tier + 1, domains.top())
                .filter(t ->
                        domains.at(t).stream().anyMatch(d -> d.allocatable().covers(compared)))
                .findFirst()
                .orElse(0);
        if (holding == 0 && !whole(domains).covers(compared)) {
            // more than every node under the HyperNodes together: the cluster's shortfall (GangExceedsCluster), not
            // one domain's
            return Optional.empty();
        }
        int would = 0;
        Withheld withheld = Withheld.NONE;
        for (TierDomains.Domain d : at) {
            if (d.nominal().covers(compared) && !d.withheld().isEmpty()) {
                would++;
                withheld = withheld.plus(d.withheld());
            }
        }
        // said: the resources the largest domain falls short of
        Map<String, BigDecimal> over = new TreeMap<>();
        Map<String, BigDecimal> holds = new TreeMap<>();
        for (Map.Entry<String, BigDecimal> e : compared.values().entrySet()) {
            BigDecimal has = largest.allocatable().get(e.getKey());
            if (has.compareTo(e.getValue()) < 0) {
                over.put(e.getKey(), e.getValue());
                holds.put(e.getKey(), has);
            }
        }
        return Optional.of(new DomainFit(
                tier,
                domains.name(tier),
                new Amounts(over),
                largest.name(),
                new Amounts(holds),
                holding,
                holding == 0 ? "" : domains.name(holding),
                would,
                withheld));
    }

    /** What every node under the domains of the top tier has allocatable, whether it takes pods now or not. */
    private static Amounts whole(TierDomains domains) {
        return domains.at(domains.top()).stream()
                .map(TierDomains.Domain::nominal)
                .reduce(Amounts.NONE, Amounts::plus);
    }

    /** The resources of {@code need} that some node under some domain offers, Volcano's {@code pods} count left out. */
    private static Amounts offered(TierDomains domains, Amounts need) {
        Map<String, BigDecimal> out = new TreeMap<>();
        need.values().forEach((r, v) -> {
            if (!"pods".equals(r) && offers(domains, r)) {
                out.put(r, v);
            }
        });
        return new Amounts(out);
    }

    private static boolean offers(TierDomains domains, String resource) {
        return IntStream.rangeClosed(1, domains.top())
                .anyMatch(t -> domains.at(t).stream()
                        .anyMatch(d -> d.nominal().get(resource).signum() > 0));
    }

    /** What the need asks for of the resources the largest domain falls short of: {@code 80 GPUs}. */
    public String needs() {
        return describe(need, need);
    }

    /** {@code "it could never start"}, or, when nodes that take no pods now would make room, until when it cannot. */
    public String verdict() {
        return wouldBut > 0 ? "it cannot start while those nodes take no pods" : "it could never start";
    }

    /** {@code 1 (nvlink)}, or {@code 1} for a tier without a name. */
    public String tierLabel() {
        return label(tier, tierName);
    }

    /**
     * The facts in one phrase, after the need and its tier have been named: {@code "more than any domain of that tier
     * holds even empty: the largest, r05, holds 72 GPUs; tier 2 (leaf) would hold it"}.
     */
    public String sentence() {
        StringBuilder s = new StringBuilder("more than any domain of that tier holds even empty: the largest, ")
                .append(largest)
                .append(", holds ")
                .append(describe(holds, need));
        if (wouldBut > 0) {
            s.append(" (")
                    .append(wouldBut)
                    .append(wouldBut == 1 ? " domain" : " domains")
                    .append(" would hold it but for ")
                    .append(withheld.describe())
                    .append(')');
        }
        if (holdingTier > 0) {
            s.append("; tier ").append(label(holdingTier, holdingName)).append(" would hold it");
        } else {
            s.append("; no domain of any tier holds it");
        }
        return s.toString();
    }

    private static String label(int tier, String name) {
        return name.isEmpty() ? String.valueOf(tier) : tier + " (" + name + ")";
    }

    /** {@code 80 GPUs}, {@code 12 CPUs and 48Gi memory}: accelerators first, then by name; {@code nothing}. */
    private static String describe(Amounts amounts, Amounts of) {
        List<String> names = new ArrayList<>(of.values().keySet());
        names.sort(Comparator.comparing(
                        (String r) -> Accelerators.DEFAULT.resources().contains(r) ? 0 : 1)
                .thenComparing(r -> r));
        List<String> parts = new ArrayList<>();
        for (String r : names) {
            BigDecimal v = amounts.get(r);
            String shown = Amounts.show(r, v);
            boolean one = v.compareTo(BigDecimal.ONE) == 0;
            parts.add(
                    switch (r) {
                        case "cpu" -> shown + (one ? " CPU" : " CPUs");
                        case "memory" -> shown + " memory";
                        default -> shown + " " + Accelerators.noun(r, one);
                    });
        }
        return parts.isEmpty() ? "nothing" : String.join(" and ", parts);
    }
}

package io.topobridge.core.diagnosis;

import io.topobridge.core.capacity.Achieved;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.DomainFit;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.capacity.Withheld;
import io.topobridge.core.node.Accelerators;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Explains a gang from its PodGroup, its pods and the cluster's capacity. For a pending gang it compares what the
 * gang needs with the largest free capacity in any single domain of each tier up to the allowed one (and the first
 * tier above where it would fit), as Volcano's HyperNode prefilter does with idle resources, and checks that the
 * gang's pods also pack onto the nodes of the domain one by one (a domain with 8 free GPUs on 8 nodes does not hold
 * a 4-GPU pod).
 */
public final class Explain {

    /**
     * The explanation of a gang; for a running hard-tier gang also the judgement of its domain: a gang short of pods
     * (a replacement pending, a pod on a node that is gone or not ready) is explained by whether its domain has room
     * for them ({@link PendingReason#NO_ROOM_IN_DOMAIN}, {@link PendingReason#DOMAIN_LOST}), not by whether the whole
     * gang would fit somewhere from scratch; a placed gang shows the nodes of its domain that take no new pods.
     */
    public static Explanation of(GangView gang, Capacity cluster) {
        // room for this gang: nodes that take its pods (not cordoned, ready, every taint tolerated by its pods)
        Capacity capacity = cluster.forPods(
                gang.pods().stream().map(PodView::effectiveTolerations).toList());
        Forest forest = capacity.forest();
        Map<Integer, String> tierNames = forest.tiers();
        int top = tierNames.keySet().stream().max(Integer::compare).orElse(0);
        Amounts need = need(gang);
        // the pods are packed onto a domain's nodes one by one only once they all exist
        List<Amounts> podNeeds = gang.pods().size() < gang.minMember()
                ? List.of()
                : gang.pods().stream()
                        .filter(p -> !p.bound())
                        .map(PodView::requests)
                        .filter(a -> !a.isEmpty())
                        .toList();
        Integer allowed = gang.hard() ? gang.highestTier() : null;
        GangDomain domain = GangDomain.of(gang, capacity).orElse(null);
        // a gang short of pods is pending for that reason, with no capacity picture
        boolean runsShort = domain != null && domain.verdict() != GangDomain.Verdict.HOLDS;

        Optional<Achieved> achieved = runsShort ? Optional.empty() : Achieved.of(gang, forest);
        Map<Integer, Explanation.TierPicture> byTier = new java.util.TreeMap<>();
        // the capacity picture answers why a gang waits; a placed gang needs none
        for (int tier = 1; !runsShort && achieved.isEmpty() && tier <= top; tier++) {
            byTier.put(tier, picture(tier, tierNames.getOrDefault(tier, ""), allowed, capacity, need, podNeeds));
        }
        Verdict v = runsShort
                ? new Verdict(PendingReason.of(domain.verdict()), "runs short of pods: " + domain.sentence())
                : achieved.isPresent()
                        ? new Verdict(null, placed(gang, achieved.get()))
                        : waiting(gang, need, capacity, byTier, allowed);
        String sentence = v.sentence();
        if (domain != null && !runsShort && !domain.unusable().isEmpty()) {
            // a placed gang: its sentence also names the nodes of its domain that take no new pods (cordoned, down)
            sentence += "; no new pods on " + String.join(", ", domain.unusable()) + " in " + domain.domain();
        }
        return new Explanation(
                gang.namespace(),
                gang.podGroup(),
                gang.workload(),
                gang.phase(),
                gang.conditions(),
                gang.mode(),
                gang.highestTier(),
                gang.highestTier() == null ? null : tierNames.get(gang.highestTier()),
                gang.minMember(),
                gang.pods().size(),
                (int) gang.pods().stream().filter(PodView::bound).count(),
                need.shown(),
                achieved.isEmpty(),
                v.reason(),
                sentence,
                List.copyOf(byTier.values()),
                achieved.orElse(null),
                gang.chosenTier(),
                domain);
    }

    /** Why a gang that is not placed waits: more than its hard tier holds, its pods missing, or capacity. */
    private static Verdict waiting(
            GangView gang,
            Amounts need,
            Capacity capacity,
            Map<Integer, Explanation.TierPicture> byTier,
            Integer allowed) {
        Optional<DomainFit> never = exceeded(gang, capacity, need);
        if (never.isPresent()) {
            return new Verdict(
                    PendingReason.GANG_EXCEEDS_DOMAIN,
                    "needs " + never.get().needs() + " within one domain of its hard tier "
                            + never.get().tierLabel() + ", " + never.get().sentence()
                            + ": " + never.get().verdict() + " (raise the tier, make it soft or the gang smaller)");
        }
        Verdict v = verdict(gang, need, capacity, byTier, allowed);
        // whatever capacity says, a gang whose pods do not all exist yet waits for them first
        return gang.pods().size() < gang.minMember() ? new Verdict(PendingReason.PODS_MISSING, v.sentence()) : v;
    }

    /**
     * Whether a hard gang needs more than any domain of its tier holds even empty, counting the nodes that take its
     * pods, as the bridge judges a gang before it makes its PodGroup ({@link DomainFit}), while a domain of a higher
     * tier would hold it (where none would, the capacity verdict says more: the whole cluster, the nodes withheld); not
     * judged before its pods exist (their tolerations say which nodes count).
     */
    private static Optional<DomainFit> exceeded(GangView gang, Capacity capacity, Amounts need) {
        if (!gang.hard() || gang.highestTier() == null || gang.pods().isEmpty()) {
            return Optional.empty();
        }
        TierDomains domains = TierDomains.of(capacity.nodes(), List.of(), capacity.forest(), capacity.accelerators())
                .usableBy(
                        gang.pods().stream().map(PodView::effectiveTolerations).toList());
        return DomainFit.exceeded(domains, need, gang.highestTier()).filter(fit -> fit.holdingTier() > 0);
    }

    /**
     * What the gang needs: its {@code minResources}, or the sum of its pods' requests where that is empty; and the
     * devices its pods claim through DRA, which neither holds.
     */
    static Amounts need(GangView gang) {
        if (!gang.minResources().isEmpty()) {
            return relevant(gang.minResources().plus(gang.draDevices()));
        }
        return relevant(gang.pods().stream().map(PodView::requests).reduce(gang.draDevices(), Amounts::plus));
    }

    /** Only resources nodes offer count (Volcano's {@code pods} count and zero amounts are left out). */
    private static Amounts relevant(Amounts amounts) {
        Map<String, BigDecimal> out = new java.util.TreeMap<>(amounts.values());
        out.remove("pods");
        return new Amounts(out);
    }

    private static Explanation.TierPicture picture(
            int tier, String name, Integer allowed, Capacity capacity, Amounts need, List<Amounts> podNeeds) {
        List<HyperNodeView> domains = capacity.forest().atTier(tier);
        int fit = 0;
        HyperNodeView best = null;
        for (HyperNodeView d : domains) {
            if (fits(d, capacity, need, podNeeds)) {
                fit++;
            }
            if (best == null || better(d, best, capacity, need)) {
                best = d;
            }
        }
        return new Explanation.TierPicture(
                tier,
                name,
                allowed == null || tier <= allowed,
                domains.size(),
                fit,
                best == null ? null : best.name(),
                best == null ? Map.of() : capacity.domainFree(best.name()).shown(),
                best == null
                        ? Map.of()
                        : capacity.domainAllocatable(best.name()).shown());
    }

    /** More of the need covered; then more of the spoken-of resource free; then the smaller name. */
    private static boolean better(HyperNodeView a, HyperNodeView b, Capacity capacity, Amounts need) {
        Amounts fa = capacity.domainFree(a.name());
        Amounts fb = capacity.domainFree(b.name());
        int c = fa.coverage(need).compareTo(fb.coverage(need));
        if (c != 0) {
            return c > 0;
        }
        String r = Amounts.spoken(need, fa, capacity.accelerators());
        int d = r == null ? 0 : fa.get(r).compareTo(fb.get(r));
        return d != 0 ? d > 0 : a.name().compareTo(b.name()) < 0;
    }

    static boolean fits(HyperNodeView domain, Capacity capacity, Amounts need, List<Amounts> podNeeds) {
        return capacity.domainFree(domain.name()).covers(need)
                && (podNeeds.isEmpty()
                        || Amounts.packs(
                                podNeeds,
                                capacity.forest().nodesUnder(domain.name()).stream()
                                        .map(capacity::free)
                                        .toList(),
                                capacity.accelerators()));
    }

    /**
     * {@code "; 1 more would but for 9 cordoned nodes"}: the domains of a tier that would have room for the gang if
     * every node under them took its pods, and the nodes that keep them from it; empty when none.
     */
    private static String withheld(List<HyperNodeView> domains, Capacity capacity, Amounts need, String prefix) {
        int n = 0;
        Withheld withheld = Withheld.NONE;
        for (HyperNodeView d : domains) {
            Withheld w = capacity.domainWithheld(d.name());
            if (!w.isEmpty()
                    && !capacity.domainFree(d.name()).covers(need)
                    && capacity.domainFreeIfUsable(d.name()).covers(need)) {
                n++;
                withheld = withheld.plus(w);
            }
        }
        return n == 0 ? "" : prefix + n + " more would but for " + withheld.describe();
    }

    private record Verdict(PendingReason reason, String sentence) {}

    private static Verdict verdict(
            GangView gang,
            Amounts need,
            Capacity capacity,
            Map<Integer, Explanation.TierPicture> byTier,
            Integer allowed) {
        String prefix = gang.pods().size() < gang.minMember()
                ? "waits for its pods: " + gang.pods().size() + " of " + gang.minMember() + " exist; "
                : "";
        if (need.isEmpty()) {
            return new Verdict(
                    PendingReason.WAITING_FOR_SCHEDULER, prefix + "it requests no resources" + volcano(gang));
        }
        Amounts clusterFree = capacity.clusterFree();
        String r = Amounts.spoken(need, clusterFree, capacity.accelerators());
        Withheld clusterWithheld = capacity.clusterWithheld();
        String notCounted = clusterWithheld.isEmpty() ? "" : " (not counting " + clusterWithheld.describe() + ")";
        String needs = "needs " + Amounts.show(r, need.get(r)) + " " + r;
        if (allowed == null || byTier.get(allowed) == null) {
            String where = allowed == null ? "" : " (tier " + allowed + " is above every HyperNode)";
            if (clusterFree.covers(need)) {
                return new Verdict(
                        PendingReason.WAITING_FOR_SCHEDULER,
                        prefix + needs + where + "; the cluster has " + Amounts.show(r, clusterFree.get(r))
                                + " free, enough" + volcano(gang));
            }
            return new Verdict(
                    PendingReason.INSUFFICIENT_CAPACITY,
                    prefix + needs + where + "; the whole cluster has " + Amounts.show(r, clusterFree.get(r)) + " free"
                            + notCounted + shortOf(need, clusterFree, r));
        }
        Explanation.TierPicture at = byTier.get(allowed);
        String within =
                " within one tier-" + allowed + " domain" + (at.tierName().isEmpty() ? "" : " (" + at.tierName() + ")");
        if (at.domainsThatFit() > 0) {
            return new Verdict(
                    PendingReason.WAITING_FOR_SCHEDULER,
                    prefix + needs + within
                            + "; " + at.domainsThatFit() + " of " + at.domains() + " have room, the best " + at.best()
                            + " with "
                            + free(at, r) + " free" + volcano(gang));
        }
        StringBuilder s = new StringBuilder(prefix).append(needs).append(within).append("; ");
        s.append(
                at.best() == null
                        ? "there is none"
                        : "the best has " + free(at, r) + " free (" + at.best() + ")"
                                + shortOf(need, capacity.domainFree(at.best()), r)
                                + withheld(capacity.forest().atTier(allowed), capacity, need, "; "));
        Optional<Explanation.TierPicture> above = byTier.values().stream()
                .filter(p -> p.tier() > allowed && p.domainsThatFit() > 0)
                .findFirst();
        if (above.isPresent()) {
            var p = above.get();
            s.append("; tier " + p.tier() + (p.tierName().isEmpty() ? "" : " (" + p.tierName() + ")") + " has "
                    + free(p, r) + " free in " + p.best());
            return new Verdict(PendingReason.NO_DOMAIN_FITS, s.toString());
        }
        s.append("; no domain at any tier has room (the whole cluster has " + Amounts.show(r, clusterFree.get(r))
                + " free" + notCounted + ")");
        return new Verdict(
                clusterFree.covers(need) ? PendingReason.NO_DOMAIN_FITS : PendingReason.INSUFFICIENT_CAPACITY,
                s.toString());
    }

    private static String free(Explanation.TierPicture p, String resource) {
        return p.bestFree().getOrDefault(resource, "0");
    }

    /** Where the spoken-of resource suffices but another does not, say which. */
    private static String shortOf(Amounts need, Amounts free, String spoken) {
        if (free.get(spoken).compareTo(need.get(spoken)) < 0) {
            return "";
        }
        String scarce = free.scarcest(need, Accelerators.DEFAULT);
        return scarce == null || free.get(scarce).compareTo(need.get(scarce)) >= 0
                ? ""
                : ", but only " + Amounts.show(scarce, free.get(scarce)) + " of the "
                        + Amounts.show(scarce, need.get(scarce)) + " " + scarce + " it needs";
    }

    /** Volcano's own word, when capacity is not what holds the gang. */
    private static String volcano(GangView gang) {
        for (GangView.Condition c : gang.conditions()) {
            if ("True".equals(c.status())
                    && c.message() != null
                    && !c.message().isBlank()
                    && !"Scheduled".equals(c.type())) {
                return "; Volcano says: " + io.topobridge.core.finding.UserText.excerpt(c.message());
            }
        }
        return "; waiting for Volcano";
    }

    private static String placed(GangView gang, Achieved achieved) {
        StringBuilder s = new StringBuilder("placed: all " + gang.pods().size() + " pods within "
                + achieved.gang().describe());
        if (gang.highestTier() != null) {
            s.append(" (asked for tier " + gang.highestTier() + " or below, " + (gang.hard() ? "hard" : "soft") + ")");
        }
        if (!achieved.subGroups().isEmpty()) {
            s.append("; subgroups: ").append(achieved.subGroupSummary());
        }
        for (Achieved.RolePair pair : achieved.roles()) {
            s.append("; " + pair.a() + " and " + pair.b() + " meet at "
                    + pair.meet().describe());
        }
        return s.toString();
    }
}

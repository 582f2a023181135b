package io.topobridge.core.diagnosis;

import io.topobridge.core.capacity.Achieved;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.GangView;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The answer to "why is my gang pending" (and "where did it go"): the PodGroup, its phase and Volcano's conditions,
 * the requested tiers, what it needs, the capacity picture per tier and one sentence saying it; for a placed gang the
 * tiers it achieved; {@code chosenTier}: why {@code highest-tier: auto} chose the tier, or null; {@code domain}: for a
 * running hard-tier gang, the domain it occupies, its nodes that take no new pods (cordoned, down) and whether its
 * replacement pods can be placed there (null when not judged).
 */
public record Explanation(
        String namespace,
        String podGroup,
        String workload,
        String phase,
        List<GangView.Condition> conditions,
        String mode,
        Integer highestTier,
        String highestTierName,
        int minMember,
        int pods,
        int boundPods,
        Map<String, String> needs,
        boolean pending,
        PendingReason reason,
        String sentence,
        List<TierPicture> tiers,
        Achieved achieved,
        String chosenTier,
        GangDomain domain) {

    /**
     * One tier: how many domains it has, how many could hold the gang now, and the one with the most free capacity
     * with what is free and allocatable there.
     */
    public record TierPicture(
            int tier,
            String tierName,
            boolean allowed,
            int domains,
            int domainsThatFit,
            String best,
            Map<String, String> bestFree,
            Map<String, String> bestAllocatable) {
        public TierPicture {
            bestFree = Collections.unmodifiableMap(new TreeMap<>(bestFree));
            bestAllocatable = Collections.unmodifiableMap(new TreeMap<>(bestAllocatable));
        }
    }

    public Explanation {
        conditions = List.copyOf(conditions);
        needs = Collections.unmodifiableMap(new TreeMap<>(needs));
        tiers = List.copyOf(tiers);
    }
}

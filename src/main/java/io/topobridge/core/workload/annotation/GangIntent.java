package io.topobridge.core.workload.annotation;

import io.topobridge.core.recovery.DomainLossPolicy;

/**
 * What a workload's annotations ask for, every value validated; {@code null} where nothing was given.
 * Tiers are numbers (names already resolved through the tier catalog); {@code autoTier} and {@code autoSubgroupTier}
 * say the user wrote {@code auto}, and the tier is chosen once the gang's plan and the domains are known.
 * {@code onDomainLoss} and {@code domainLossGrace}: what to do with the running gang when its domain can no longer
 * hold it, and after how long ({@code null}: the defaults, wait and the configured grace). {@code sliceSize}: the gang's
 * pods are cut into slices of that many by their index (another scheduler's slices or segments), each a subgroup
 * held to the subgroup tier; {@code podIndexLabel}: the pod label that carries the index, when the workload names one.
 */
public record GangIntent(
        boolean managed,
        Integer highestTier,
        TopologyMode mode,
        Integer subgroupTier,
        TopologyMode subgroupMode,
        String group,
        String queue,
        Integer minMember,
        boolean autoTier,
        boolean autoSubgroupTier,
        DomainLossPolicy onDomainLoss,
        java.time.Duration domainLossGrace,
        Integer sliceSize,
        String podIndexLabel) {

    public static final GangIntent UNMANAGED =
            new GangIntent(false, null, null, null, null, null, null, null, false, false, null, null, null, null);

    /** The same intent with the tiers {@code auto} chose (and the modes that go with them) in place of {@code auto}. */
    public GangIntent resolved(Integer tier, TopologyMode gangMode, Integer subTier, TopologyMode subMode) {
        return new GangIntent(
                managed,
                tier,
                gangMode,
                subTier,
                subMode,
                group,
                queue,
                minMember,
                false,
                false,
                onDomainLoss,
                domainLossGrace,
                sliceSize,
                podIndexLabel);
    }

    /** The gang's mode: as written, else hard. */
    public TopologyMode effectiveMode() {
        return mode == null ? TopologyMode.HARD : mode;
    }

    /** The subgroups' mode: as written, else hard. */
    public TopologyMode effectiveSubgroupMode() {
        return subgroupMode == null ? TopologyMode.HARD : subgroupMode;
    }

    public boolean hasSubgroupTopology() {
        return subgroupTier != null || subgroupMode != null || autoSubgroupTier;
    }
}

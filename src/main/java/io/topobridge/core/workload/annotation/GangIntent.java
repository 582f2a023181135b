package io.topobridge.core.workload.annotation;

/**
 * What a workload's annotations ask for, every value validated; {@code null} where nothing was given.
 * Tiers are numbers (names already resolved through the tier catalog).
 */
public record GangIntent(
        boolean managed,
        Integer highestTier,
        TopologyMode mode,
        Integer subgroupTier,
        TopologyMode subgroupMode,
        String group,
        String queue,
        Integer minMember) {

    public static final GangIntent UNMANAGED = new GangIntent(false, null, null, null, null, null, null, null);

    /** The gang's mode: as written, else hard. */
    public TopologyMode effectiveMode() {
        return mode == null ? TopologyMode.HARD : mode;
    }

    /** The subgroups' mode: as written, else hard. */
    public TopologyMode effectiveSubgroupMode() {
        return subgroupMode == null ? TopologyMode.HARD : subgroupMode;
    }

    /** True when any subgroup topology setting was given. */
    public boolean hasSubgroupTopology() {
        return subgroupTier != null || subgroupMode != null;
    }
}

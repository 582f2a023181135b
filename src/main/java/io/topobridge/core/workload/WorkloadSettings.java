package io.topobridge.core.workload;

import java.util.Objects;

/**
 * Validated workload configuration for the translator: the queue of a gang that names none, and for
 * {@code highest-tier: auto} how many domains of a tier must be able to hold a gang for that tier to be chosen.
 */
public record WorkloadSettings(String defaultQueue, int autoTierMinDomains) {
    public WorkloadSettings {
        Objects.requireNonNull(defaultQueue, "defaultQueue");
        if (autoTierMinDomains < 1) {
            throw new IllegalArgumentException("autoTierMinDomains must be at least 1, got " + autoTierMinDomains);
        }
    }

    /** Settings with the default of one domain for {@code auto}. */
    public WorkloadSettings(String defaultQueue) {
        this(defaultQueue, 1);
    }

    public static WorkloadSettings defaults() {
        return new WorkloadSettings("default");
    }
}

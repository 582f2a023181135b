package io.topobridge.core.workload;

import java.util.Objects;

/** Validated workload configuration for the translator. */
public record WorkloadSettings(String defaultQueue) {
    public WorkloadSettings {
        Objects.requireNonNull(defaultQueue, "defaultQueue");
    }

    public static WorkloadSettings defaults() {
        return new WorkloadSettings("default");
    }
}

package io.topobridge.config;

import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code topobridge.diagnosis.*}: explaining gangs that wait. */
public interface DiagnosisConfig {

    /** How long a gang must have been pending before its workload gets an Event saying why (at least 1s). */
    @WithDefault("5m")
    Duration pendingEventAfter();
}

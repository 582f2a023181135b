package io.topobridge.controller.workload;

import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.workload.reconcile.ReconcileSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * What the controller needs from configuration: timing, and the namespace and group rules it hands the
 * reconciler ({@link ReconcileSettings}).
 */
public record WorkloadControllerOptions(
        boolean enabled,
        Duration debounce,
        Duration maxDelay,
        Duration resync,
        boolean requireNamespaceOptIn,
        String namespaceLabel,
        Duration groupAssembly,
        DomainLossRestarts.Settings restarts) {
    public WorkloadControllerOptions {
        Objects.requireNonNull(restarts, "restarts");
        Objects.requireNonNull(debounce, "debounce");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(resync, "resync");
        Objects.requireNonNull(namespaceLabel, "namespaceLabel");
        Objects.requireNonNull(groupAssembly, "groupAssembly");
        if (groupAssembly.isNegative()) {
            throw new IllegalArgumentException(
                    "topobridge.workloads.group-assembly=" + groupAssembly + ": must not be negative");
        }
    }
}

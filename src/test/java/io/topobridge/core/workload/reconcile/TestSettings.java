package io.topobridge.core.workload.reconcile;

import io.topobridge.core.recovery.DomainLossRestarts;
import java.time.Duration;

/** Reconcile settings for tests. */
public final class TestSettings {

    /** No opt-in required and no wait for a group's members. */
    public static final ReconcileSettings OPEN =
            new ReconcileSettings(false, "topobridge.io/enabled", Duration.ZERO, DomainLossRestarts.Settings.DEFAULTS);

    private TestSettings() {}

    /** The configured defaults: namespaces opt in with {@code topobridge.io/enabled=true}; groups wait 2 s. */
    public static ReconcileSettings defaults() {
        return new ReconcileSettings(
                true, "topobridge.io/enabled", Duration.ofSeconds(2), DomainLossRestarts.Settings.DEFAULTS);
    }
}

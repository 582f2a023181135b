package io.topobridge.core.workload.reconcile;

import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.workload.changes.Reservations;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/** Reconcile settings for tests. */
public final class TestSettings {

    /** No opt-in required and no wait for a group's members. */
    public static final ReconcileSettings OPEN =
            new ReconcileSettings(false, "topobridge.io/enabled", Duration.ZERO, DomainLossRestarts.Settings.DEFAULTS);

    /** No limit on what a namespace's PodGroups reserve but its ResourceQuotas. */
    public static final Reservations.Settings NO_RESERVATION_LIMITS = new Reservations.Settings(null, Map.of());

    /** The configured default: a namespace's PodGroups may reserve at most the whole cluster together. */
    public static final Reservations.Settings DEFAULT_RESERVATIONS =
            new Reservations.Settings(BigDecimal.ONE, Map.of());

    private TestSettings() {}

    /** The configured defaults: namespaces opt in with {@code topobridge.io/enabled=true}; groups wait 2 s. */
    public static ReconcileSettings defaults() {
        return new ReconcileSettings(
                true, "topobridge.io/enabled", Duration.ofSeconds(2), DomainLossRestarts.Settings.DEFAULTS);
    }
}

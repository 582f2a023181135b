package io.topobridge.config;

import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** {@code topobridge.leader-election.*}: one active controller among replicas (webhooks serve on all). */
public interface LeaderElectionConfig {

    /** Elect a leader through a Lease before starting the controllers; off for a single replica. */
    @WithDefault("false")
    boolean enabled();

    /** Name of the Lease object. */
    @WithDefault("topobridge-leader")
    String leaseName();

    /** Namespace of the Lease (default: the pod's namespace from POD_NAMESPACE, else {@code default}). */
    Optional<String> leaseNamespace();

    /** How long a lease is valid without renewal. */
    @WithDefault("15s")
    Duration leaseDuration();

    /** How long the leader keeps trying to renew before giving up leadership. */
    @WithDefault("10s")
    Duration renewDeadline();

    /** Interval between acquisition and renewal attempts. */
    @WithDefault("2s")
    Duration retryPeriod();
}

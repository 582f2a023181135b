package io.topobridge.core.recovery;

import java.time.Duration;
import java.util.Objects;

/**
 * What a gang asks for when its domain is lost, as its translation read it from {@code topobridge.io/on-domain-loss}
 * and {@code topobridge.io/domain-loss-grace}: the policy, and the gang's own grace (null: the configured one).
 */
public record OnDomainLoss(DomainLossPolicy policy, Duration grace) {

    public static final OnDomainLoss WAIT = new OnDomainLoss(DomainLossPolicy.WAIT, null);

    public OnDomainLoss {
        Objects.requireNonNull(policy, "policy");
    }

    /** From the parsed intent: a restart with its grace, else (nothing or a bad value given) {@link #WAIT}. */
    public static OnDomainLoss of(DomainLossPolicy policy, Duration grace) {
        return policy == DomainLossPolicy.RESTART ? new OnDomainLoss(policy, grace) : WAIT;
    }

    /** Whether the gang is restarted once its domain has been lost for its grace. */
    public boolean restarts() {
        return policy == DomainLossPolicy.RESTART;
    }

    /** The gang's grace, else {@code configured}. */
    public Duration graceOr(Duration configured) {
        return grace != null ? grace : configured;
    }
}

package io.topobridge.core.recovery;

/** What the bridge does with a running gang whose domain can no longer hold it ({@code topobridge.io/on-domain-loss}). */
public enum DomainLossPolicy {
    /** Nothing destructive: the bridge reports, and the gang waits for its nodes to come back (the default). */
    WAIT,
    /**
     * Once the domain has been lost for the grace, the whole gang is restarted through its own controller, so that
     * Volcano places it afresh, as a whole, in a domain with room.
     */
    RESTART;

    /** As written in the annotation. */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

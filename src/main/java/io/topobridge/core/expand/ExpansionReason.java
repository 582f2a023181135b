package io.topobridge.core.expand;

import io.topobridge.core.finding.Reason;

/**
 * Why the expansion of a workload into the objects its controllers make reported something: {@code render} prints
 * these on stderr as {@code NOTE} lines (they never change its exit code); the controller never raises them.
 */
public enum ExpansionReason implements Reason {
    /**
     * Names or values the controllers pick at random or hash from a Go struct (a {@code generateName} suffix, a
     * {@code pod-template-hash}, a revision hash) are deterministic stand-ins of the same shape.
     */
    GENERATED_NAMES,
    /** The workload would make more objects than the cap lets render show: the first ones are shown. */
    EXPANSION_CAPPED,
    /** The workload cannot be read, or its controller (or the API server, or a webhook) would refuse what it makes. */
    NOT_EXPANDED,
    /** The controller makes nothing for this workload as written (for example no replicas, or a selector mismatch). */
    NOTHING_TO_MAKE
}

package io.topobridge.core.finding;

/** Reasons of findings about findings themselves. */
public enum FindingReason implements Reason {
    /** One object had more findings of one source than are kept: the rest are counted in this one. */
    TOO_MANY_FINDINGS
}

package io.topobridge.core.finding;

/** How bad a finding is: {@link #REJECTED} means the object produced nothing (and {@code render} exits 1). */
public enum Severity {
    /** Worth knowing, nothing was lost. */
    INFO,
    /** Something was left out or may not behave as the user expects. */
    WARNING,
    /** The named object was refused: no output was produced for it. */
    REJECTED
}

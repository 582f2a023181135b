package io.topobridge.controller.workload;

import io.topobridge.core.workload.GangScope;

/** What a batch asks for: one gang scope, or every scope. */
sealed interface Due permits Due.All, Due.Scope {

    /** Every scope there is. */
    record All() implements Due {}

    /** One gang scope. */
    record Scope(GangScope scope) implements Due {}

    Due ALL = new All();
}

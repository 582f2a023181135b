package io.topobridge.core.workload.annotation;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.WorkloadReason;
import java.util.List;

/** The parsed intent and what was wrong on the way; {@link #rejected()} means no PodGroup may be made. */
public record ParsedIntent(GangIntent intent, List<Finding> findings) {
    public ParsedIntent {
        findings = List.copyOf(findings);
    }

    public boolean rejected() {
        return Finding.anyRejection(findings);
    }

    /**
     * True when the only rejections are tiers that cannot be resolved because no tier is known yet: the
     * intent is well formed and waits for the topology, so its pods may already be tied to their gang.
     */
    public boolean waitingForTiers() {
        return rejected()
                && findings.stream()
                        .filter(Finding::isRejection)
                        .allMatch(f -> f.reason() == WorkloadReason.TIERS_UNKNOWN);
    }
}

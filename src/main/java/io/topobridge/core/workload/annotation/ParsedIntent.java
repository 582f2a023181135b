package io.topobridge.core.workload.annotation;

import io.topobridge.core.finding.Finding;
import java.util.List;

/** The parsed intent and what was wrong on the way; {@link #rejected()} means no PodGroup may be made. */
public record ParsedIntent(GangIntent intent, List<Finding> findings) {
    public ParsedIntent {
        findings = List.copyOf(findings);
    }

    public boolean rejected() {
        return findings.stream().anyMatch(Finding::isRejection);
    }
}

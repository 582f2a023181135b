package io.topobridge.core.workload.translate;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import java.util.List;

/**
 * The translation of one {@link GangScope}: the workloads it was read from ({@code subjects}, which findings
 * and events concern), the PodGroups to keep, and the findings.
 */
public record ScopeResult(
        GangScope scope, List<ObjectRef> subjects, List<DesiredPodGroup> podGroups, List<Finding> findings) {

    public ScopeResult {
        subjects = List.copyOf(subjects);
        podGroups = List.copyOf(podGroups);
        findings = List.copyOf(findings);
    }

    public static ScopeResult empty(GangScope scope) {
        return new ScopeResult(scope, List.of(), List.of(), List.of());
    }
}

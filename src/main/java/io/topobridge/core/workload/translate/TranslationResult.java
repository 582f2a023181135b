package io.topobridge.core.workload.translate;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.DesiredPodGroup;
import java.util.List;

/** Output of the workload translator: the PodGroups to keep and findings (rejections included). */
public record TranslationResult(List<DesiredPodGroup> podGroups, List<Finding> findings) {
    public TranslationResult {
        podGroups = List.copyOf(podGroups);
        findings = List.copyOf(findings);
    }
}

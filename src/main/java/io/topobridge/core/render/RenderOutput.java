package io.topobridge.core.render;

import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.topology.DesiredHyperNode;
import io.topobridge.core.workload.DesiredPodGroup;
import java.util.List;

/** Everything {@code render} prints: objects in a deterministic order and the findings. */
public record RenderOutput(
        List<DesiredHyperNode> hyperNodes, List<DesiredPodGroup> podGroups, List<Pod> pods, List<Finding> findings) {

    public RenderOutput {
        hyperNodes = List.copyOf(hyperNodes);
        podGroups = List.copyOf(podGroups);
        pods = List.copyOf(pods);
        findings = List.copyOf(findings);
    }

    /** True when some input object was refused ({@code render} then exits 1). */
    public boolean rejected() {
        return findings.stream().anyMatch(Finding::isRejection);
    }
}

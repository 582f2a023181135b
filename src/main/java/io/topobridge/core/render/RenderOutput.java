package io.topobridge.core.render;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.topology.DesiredHyperNode;
import io.topobridge.core.workload.DesiredPodGroup;
import java.util.List;

/**
 * Everything {@code render} prints: objects in a deterministic order, the findings, and notes on what the input did
 * not give (so a check that needs it was left out) and on what the expansion made or left out. {@code expanded}
 * holds the objects other than pods that the expansion made (RoleSets, PodSets, StatefulSets, ReplicaSets,
 * LeaderWorkerSets), parents before their children; the pods it made are among {@code pods}, as admitted.
 * {@code refused} names what the controller refuses to make ({@code PodGroup/namespace/name}, or the workload of a
 * namespace that did not opt in): a finding says why, and the pods of such a gang are printed untied.
 */
public record RenderOutput(
        List<DesiredHyperNode> hyperNodes,
        List<DesiredPodGroup> podGroups,
        List<HasMetadata> expanded,
        List<Pod> pods,
        List<Finding> findings,
        List<String> notes,
        List<String> refused) {

    public RenderOutput {
        hyperNodes = List.copyOf(hyperNodes);
        podGroups = List.copyOf(podGroups);
        expanded = List.copyOf(expanded);
        pods = List.copyOf(pods);
        findings = List.copyOf(findings);
        notes = List.copyOf(notes);
        refused = List.copyOf(refused);
    }

    /**
     * True when some input object was refused or the controller refuses to make a PodGroup a gang wants
     * ({@code render} then exits 1).
     */
    public boolean rejected() {
        return !refused.isEmpty() || Finding.anyRejection(findings);
    }
}

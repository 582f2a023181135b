package io.topobridge.core.workload.reconcile;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.translate.ScopeResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What reconciling one gang scope decided: the writes to make, in order, the scope's findings, and when to look at
 * it again with nothing changed (a wait for room or for a group's members that ends then).
 *
 * @param translation the scope's translation: the workloads it was read from and the PodGroups it wants
 * @param steps the writes, in order: the PodGroups', then the gangs to restart whole
 *     ({@code topobridge.io/on-domain-loss: restart})
 * @param findings every finding of the scope (the translation's, the planner's and the untied pods')
 * @param requeueAfter when the scope is due again though nothing changes; null when never
 * @param deferred true when the scope is not judged yet (a group's first PodGroup waits for the group's other
 *     members): nothing is written, and the scope's findings stay as they were
 * @param remembered what the restart ledger remembers next of the scope's gangs ({@link DomainLossRestarts.Entry#NONE}:
 *     forgotten); empty where nothing was decided
 */
public record Outcome(
        ScopeResult translation,
        List<PodGroupChanges.Step> steps,
        List<Finding> findings,
        Duration requeueAfter,
        boolean deferred,
        Map<String, DomainLossRestarts.Entry> remembered) {

    public Outcome {
        Objects.requireNonNull(translation, "translation");
        steps = List.copyOf(steps);
        findings = List.copyOf(findings);
        remembered = Map.copyOf(remembered);
    }

    public GangScope scope() {
        return translation.scope();
    }

    /**
     * Whether some gang waits for room in its namespace (its PodGroup limit or its reservations): another PodGroup of
     * the bridge going may make room.
     */
    public boolean waitsForNamespaceRoom() {
        return findings.stream()
                .anyMatch(f -> f.reason() == WorkloadReason.POD_GROUP_LIMIT_REACHED
                        || f.reason() == WorkloadReason.NAMESPACE_RESERVATION_EXCEEDED);
    }
}

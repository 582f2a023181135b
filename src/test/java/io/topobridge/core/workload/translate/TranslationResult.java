package io.topobridge.core.workload.translate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.kind.Snapshot;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Tests' translation of a set of workloads: the PodGroups to keep and the findings (rejections included). */
public record TranslationResult(List<DesiredPodGroup> podGroups, List<Finding> findings) {
    public TranslationResult {
        podGroups = List.copyOf(podGroups);
        findings = List.copyOf(findings);
    }

    /**
     * Translates every scope the given workloads belong to (the given objects win over {@code lookup}'s), over one
     * snapshot, the scopes sorted by their text (each text made once, ties kept in the given order).
     */
    public static TranslationResult of(
            WorkloadTranslator translator,
            Collection<? extends HasMetadata> workloads,
            TierCatalog tiers,
            WorkloadLookup lookup) {
        Snapshot snapshot = translator
                .adapters()
                .snapshot(lookup.withObjects(workloads), translator.settings().maxGangsPerWorkload());
        Set<GangScope> scopes = new LinkedHashSet<>();
        for (HasMetadata object : workloads) {
            snapshot.scopeOf(object).ifPresent(scopes::add);
        }
        List<Map.Entry<String, GangScope>> keyed = new ArrayList<>(scopes.size());
        for (GangScope scope : scopes) {
            keyed.add(Map.entry(scope.toString(), scope));
        }
        keyed.sort(Map.Entry.comparingByKey());
        List<DesiredPodGroup> podGroups = new ArrayList<>();
        Set<Finding> findings = new LinkedHashSet<>();
        for (Map.Entry<String, GangScope> scope : keyed) {
            ScopeResult result = translator.translateScope(scope.getValue(), tiers, snapshot);
            podGroups.addAll(result.podGroups());
            findings.addAll(result.findings());
        }
        return new TranslationResult(podGroups, new ArrayList<>(findings));
    }
}

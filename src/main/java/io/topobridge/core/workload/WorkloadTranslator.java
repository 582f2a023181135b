package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.admission.PodAssignment;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.topology.TierCatalog;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Pure function from annotated workloads and tiers to desired PodGroups and findings. */
public final class WorkloadTranslator {

    private final WorkloadSettings settings;

    public WorkloadTranslator(WorkloadSettings settings) {
        this.settings = settings;
    }

    public TranslationResult translate(Collection<? extends HasMetadata> workloads, TierCatalog tiers,
            WorkloadLookup lookup) {
        return new TranslationResult(List.of(), List.of());
    }

    /**
     * The gang a pod being created belongs to, found from its labels and owner chain through
     * {@code lookup}; empty for a pod of no managed workload.
     */
    public Optional<PodAssignment> assign(Pod pod, TierCatalog tiers, WorkloadLookup lookup) {
        return Optional.empty();
    }

    /** Rejections of a workload's {@code topobridge.io/} annotations (the validating webhook's answer). */
    public List<Finding> validate(HasMetadata workload, TierCatalog tiers) {
        return List.of();
    }
}

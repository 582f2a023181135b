package io.topobridge.core.admission;

import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.WorkloadLookup;
import java.util.List;

/** Pure pod admission: the pod as admission lets it in, tied to its gang. Shared by webhook and render. */
public final class PodAdmission {

    /** The admitted pod (a copy; the input is never mutated) and what was noticed on the way. */
    public record Result(Pod pod, List<Finding> findings) {
    }

    private final AdmissionSettings settings;

    public PodAdmission(AdmissionSettings settings) {
        this.settings = settings;
    }

    public Result admit(Pod pod, TierCatalog tiers, WorkloadLookup lookup) {
        return new Result(pod, List.of());
    }
}

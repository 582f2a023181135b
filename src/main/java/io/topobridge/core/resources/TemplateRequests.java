package io.topobridge.core.resources;

import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * {@link PodRequests} of pod templates, each template's computed once: one translation reads the same template for
 * every PodGroup of a workload and again for its subgroups' best-effort check. Keyed by identity, so a template
 * parsed anew (a changed object) is computed anew; one instance serves one translation and one thread.
 */
public final class TemplateRequests {

    private final Map<PodSpec, ResourceSum> bySpec = new IdentityHashMap<>();

    /**
     * The template's requests (read only: the sum is shared).
     *
     * @throws IllegalArgumentException as {@link PodRequests#of}, on every call for a template it refuses
     */
    public ResourceSum of(PodSpec spec) {
        return bySpec.computeIfAbsent(spec, PodRequests::of);
    }

    /**
     * Whether pods of this template request nothing (Volcano's BestEffort: no resource above zero): the scheduler
     * places such pods by backfill, on any node, outside any network topology. An unknown template is not.
     */
    public boolean isBestEffort(PodSpec spec) {
        return spec != null && of(spec).allZero();
    }
}

package io.topobridge.core.resources;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * {@link PodRequests} of pod templates, each template's computed once: one translation reads the same template for
 * every PodGroup of a workload and again for its subgroups' best-effort check. Keyed by identity, so a template
 * parsed anew (a changed object) is computed anew; one instance serves one translation and one thread.
 */
public final class TemplateRequests {

    private final Map<PodSpec, ResourceSum> bySpec = new IdentityHashMap<>();
    /** Amounts of the quantities read so far, by amount then format (templates repeat the same few). */
    private final Map<String, Map<String, BigDecimal>> amounts = new HashMap<>();

    /**
     * The template's requests (read only: the sum is shared).
     *
     * @throws IllegalArgumentException as {@link PodRequests#of}, on every call for a template it refuses
     */
    public ResourceSum of(PodSpec spec) {
        return bySpec.computeIfAbsent(spec, s -> PodRequests.of(s, this::amount));
    }

    /** {@link Quantities#amount}, each quantity read once; one it refuses is refused again each time. */
    private BigDecimal amount(Quantity quantity) {
        if (quantity == null) {
            return Quantities.amount(quantity);
        }
        return amounts.computeIfAbsent(quantity.getAmount(), a -> new HashMap<>())
                .computeIfAbsent(quantity.getFormat(), f -> Quantities.amount(quantity));
    }

    /**
     * Whether pods of this template request nothing (Volcano's BestEffort: no resource above zero): the scheduler
     * places such pods by backfill, on any node, outside any network topology. An unknown template is not.
     */
    public boolean isBestEffort(PodSpec spec) {
        return spec != null && of(spec).allZero();
    }
}

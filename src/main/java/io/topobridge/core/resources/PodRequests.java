package io.topobridge.core.resources;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.topobridge.core.finding.UserText;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The effective resource requests of one pod, by Kubernetes' own rule: a container's request defaults to
 * its limit; the pod needs the sum of its containers and of its restartable (sidecar) init containers, or,
 * if larger, what its biggest regular init container needs next to the sidecars started before it; pod-level
 * resources replace the container sum where set; pod overhead is added on top. An instance keeps what it computed, for
 * one translation on one thread: the requests of each template (by identity, so a template parsed anew is computed
 * anew), which every PodGroup of a workload reads, and the amount of each quantity text, both made by the first
 * {@link #sum}: a one-off {@link #of} keeps nothing.
 */
public final class PodRequests {

    private static final String ALWAYS = "Always";

    private Map<PodSpec, ResourceSum> bySpec;
    private Map<String, Map<String, BigDecimal>> amounts;

    /**
     * @throws IllegalArgumentException naming the container and resource when a quantity cannot be parsed
     */
    public static ResourceSum of(PodSpec spec) {
        return new PodRequests().compute(spec);
    }

    /**
     * A template's requests, computed once (read only: the sum is shared).
     *
     * @throws IllegalArgumentException as {@link #of}, on every call for a template it refuses
     */
    public ResourceSum sum(PodSpec spec) {
        if (bySpec == null) {
            bySpec = new IdentityHashMap<>();
            amounts = new HashMap<>();
        }
        return bySpec.computeIfAbsent(spec, this::compute);
    }

    private ResourceSum compute(PodSpec spec) {
        var total = new ResourceSum();
        if (spec == null) {
            return total;
        }
        for (Container container : list(spec.getContainers())) {
            addRequests(total, container);
        }
        var sidecars = new ResourceSum();
        var initPeak = new ResourceSum();
        for (Container init : list(spec.getInitContainers())) {
            var own = new ResourceSum();
            addRequests(own, init);
            if (ALWAYS.equals(init.getRestartPolicy())) {
                // a sidecar keeps running next to the app containers and every later init container
                total.add(own, 1);
                sidecars.add(own, 1);
                initPeak.max(sidecars);
            } else {
                initPeak.max(own.add(sidecars, 1));
            }
        }
        total.max(initPeak);
        ResourceRequirements podLevel = spec.getResources();
        if (podLevel != null) {
            Map<String, Quantity> limits = map(podLevel.getLimits());
            Map<String, Quantity> requests = map(podLevel.getRequests());
            limits.forEach((name, q) -> {
                if (!requests.containsKey(name) && podLevelSupported(name)) {
                    set(total, () -> "pod resources", name, q);
                }
            });
            requests.forEach((name, q) -> {
                if (podLevelSupported(name)) {
                    set(total, () -> "pod resources", name, q);
                }
            });
        }
        map(spec.getOverhead()).forEach((name, q) -> add(total, () -> "pod overhead", name, q));
        return total;
    }

    /**
     * Whether pods of this template request nothing (Volcano's BestEffort: no resource above zero): the scheduler
     * places such pods by backfill, on any node, outside any network topology. An unknown template is not.
     */
    public static boolean isBestEffort(PodSpec spec) {
        return spec != null && of(spec).allZero();
    }

    /** Kubernetes honours pod-level resources for CPU, memory and huge pages only. */
    private static boolean podLevelSupported(String name) {
        return name.equals("cpu") || name.equals("memory") || name.startsWith("hugepages-");
    }

    private void addRequests(ResourceSum sum, Container container) {
        ResourceRequirements resources = container.getResources();
        if (resources == null) {
            return;
        }
        Map<String, Quantity> requests = map(resources.getRequests());
        Map<String, Quantity> limits = map(resources.getLimits());
        // the container is named only in an error: most pods have none, and naming it costs a scan of the name
        Supplier<String> where = () -> "container " + UserText.identifier(container.getName());
        requests.forEach((name, q) -> add(sum, where, name, q));
        limits.forEach((name, q) -> {
            if (!requests.containsKey(name)) {
                add(sum, where, name, q);
            }
        });
    }

    private void add(ResourceSum sum, Supplier<String> where, String name, Quantity quantity) {
        sum.add(name, amount(where, name, quantity), Quantities.binary(quantity));
    }

    private void set(ResourceSum sum, Supplier<String> where, String name, Quantity quantity) {
        sum.set(name, amount(where, name, quantity), Quantities.binary(quantity));
    }

    /**
     * A quantity's amount, each quantity text read once; Kubernetes refuses negative requests, and an unparsable one
     * has none (refused each time it is read).
     */
    private BigDecimal amount(Supplier<String> where, String name, Quantity quantity) {
        BigDecimal amount;
        try {
            amount = quantity == null || amounts == null
                    ? Quantities.amount(quantity)
                    : amounts.computeIfAbsent(quantity.getAmount(), a -> new HashMap<>())
                            .computeIfAbsent(quantity.getFormat(), f -> Quantities.amount(quantity));
        } catch (IllegalArgumentException e) {
            // the reason names a bounded excerpt of the value: too long, not a quantity, or beyond 2^63-1
            throw new IllegalArgumentException(
                    where.get() + ": resource " + UserText.identifier(name) + ": " + e.getMessage());
        }
        if (amount.signum() < 0) {
            throw new IllegalArgumentException(where.get() + ": resource " + UserText.identifier(name) + "="
                    + UserText.quote(String.valueOf(quantity)) + " is negative");
        }
        return amount;
    }

    private static <T> List<T> list(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static Map<String, Quantity> map(Map<String, Quantity> map) {
        return map == null ? Map.of() : map;
    }
}

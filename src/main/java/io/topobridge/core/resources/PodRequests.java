package io.topobridge.core.resources;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.topobridge.core.finding.UserText;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The effective resource requests of one pod, by Kubernetes' own rule: a container's request defaults to
 * its limit; the pod needs the sum of its containers and of its restartable (sidecar) init containers, or,
 * if larger, what its biggest regular init container needs next to the sidecars started before it; pod-level
 * resources replace the container sum where set; pod overhead is added on top.
 */
public final class PodRequests {

    private static final String ALWAYS = "Always";

    /**
     * @throws IllegalArgumentException naming the container and resource when a quantity cannot be parsed
     */
    public static ResourceSum of(PodSpec spec) {
        return of(spec, Quantities::amount);
    }

    /**
     * {@link #of(PodSpec)}, reading each quantity's amount with {@code amounts} ({@link Quantities#amount}, or a memo
     * of it).
     */
    static ResourceSum of(PodSpec spec, Function<Quantity, BigDecimal> amounts) {
        var total = new ResourceSum();
        if (spec == null) {
            return total;
        }
        for (Container container : list(spec.getContainers())) {
            addRequests(total, container, amounts);
        }
        var sidecars = new ResourceSum();
        var initPeak = new ResourceSum();
        for (Container init : list(spec.getInitContainers())) {
            var own = new ResourceSum();
            addRequests(own, init, amounts);
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
                    set(total, () -> "pod resources", name, q, amounts);
                }
            });
            requests.forEach((name, q) -> {
                if (podLevelSupported(name)) {
                    set(total, () -> "pod resources", name, q, amounts);
                }
            });
        }
        map(spec.getOverhead()).forEach((name, q) -> add(total, () -> "pod overhead", name, q, amounts));
        return total;
    }

    /** Kubernetes honours pod-level resources for CPU, memory and huge pages only. */
    private static boolean podLevelSupported(String name) {
        return name.equals("cpu") || name.equals("memory") || name.startsWith("hugepages-");
    }

    private static void addRequests(ResourceSum sum, Container container, Function<Quantity, BigDecimal> amounts) {
        ResourceRequirements resources = container.getResources();
        if (resources == null) {
            return;
        }
        Map<String, Quantity> requests = map(resources.getRequests());
        Map<String, Quantity> limits = map(resources.getLimits());
        // the container is named only in an error: most pods have none, and naming it costs a scan of the name
        Supplier<String> where = () -> "container " + UserText.identifier(container.getName());
        requests.forEach((name, q) -> add(sum, where, name, q, amounts));
        limits.forEach((name, q) -> {
            if (!requests.containsKey(name)) {
                add(sum, where, name, q, amounts);
            }
        });
    }

    private static void add(
            ResourceSum sum,
            Supplier<String> where,
            String name,
            Quantity quantity,
            Function<Quantity, BigDecimal> amounts) {
        sum.add(name, amount(where, name, quantity, amounts), Quantities.binary(quantity));
    }

    private static void set(
            ResourceSum sum,
            Supplier<String> where,
            String name,
            Quantity quantity,
            Function<Quantity, BigDecimal> amounts) {
        sum.set(name, amount(where, name, quantity, amounts), Quantities.binary(quantity));
    }

    /** A quantity's amount; Kubernetes refuses negative requests, and an unparsable one has none. */
    private static BigDecimal amount(
            Supplier<String> where, String name, Quantity quantity, Function<Quantity, BigDecimal> amounts) {
        BigDecimal amount;
        try {
            amount = amounts.apply(quantity);
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

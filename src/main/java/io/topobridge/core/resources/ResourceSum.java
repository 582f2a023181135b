package io.topobridge.core.resources;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A mutable sum of resources by name that remembers, per resource, whether the first amount added was
 * written in binary units, so the total prints the way Kubernetes would print it.
 */
public final class ResourceSum {

    /** One resource's amount, and whether the first amount added was written in binary units. */
    private record Amount(BigDecimal value, boolean binary) {}

    private final Map<String, Amount> amounts = new LinkedHashMap<>();

    public ResourceSum add(String name, BigDecimal amount, boolean binaryFormat) {
        amounts.merge(name, new Amount(amount, binaryFormat), (a, b) -> new Amount(a.value.add(b.value), a.binary));
        return this;
    }

    /** Adds {@code times} copies of another sum. */
    public ResourceSum add(ResourceSum other, long times) {
        BigDecimal factor = BigDecimal.valueOf(times);
        other.amounts.forEach((name, amount) -> add(name, amount.value.multiply(factor), amount.binary));
        return this;
    }

    /** Raises each resource to at least the other's amount. */
    public ResourceSum max(ResourceSum other) {
        other.amounts.forEach((name, amount) -> amounts.merge(
                name, amount, (a, b) -> a.value.compareTo(b.value) < 0 ? new Amount(b.value, a.binary) : a));
        return this;
    }

    /** Sets one resource to an amount, replacing what was summed. */
    public ResourceSum set(String name, BigDecimal amount, boolean binaryFormat) {
        amounts.put(name, new Amount(amount, binaryFormat));
        return this;
    }

    public BigDecimal get(String name) {
        Amount amount = amounts.get(name);
        return amount == null ? BigDecimal.ZERO : amount.value;
    }

    /** Whether no resource has an amount above zero. */
    public boolean allZero() {
        return amounts.values().stream().allMatch(a -> a.value.signum() <= 0);
    }

    public boolean isEmpty() {
        return amounts.isEmpty();
    }

    /** Canonical quantity strings by resource name, sorted; zero amounts dropped. */
    public Map<String, String> canonical() {
        var out = new TreeMap<String, String>();
        amounts.forEach((name, amount) -> {
            if (amount.value.signum() != 0) {
                out.put(name, Quantities.canonical(amount.value, amount.binary));
            }
        });
        return Collections.unmodifiableMap(out);
    }
}

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

    private final Map<String, BigDecimal> amounts = new LinkedHashMap<>();
    private final Map<String, Boolean> binary = new LinkedHashMap<>();

    public ResourceSum add(String name, BigDecimal amount, boolean binaryFormat) {
        amounts.merge(name, amount, BigDecimal::add);
        binary.putIfAbsent(name, binaryFormat);
        return this;
    }

    /** Adds {@code times} copies of another sum. */
    public ResourceSum add(ResourceSum other, long times) {
        BigDecimal factor = BigDecimal.valueOf(times);
        other.amounts.forEach((name, amount) -> add(name, amount.multiply(factor), other.binary.get(name)));
        return this;
    }

    /** Raises each resource to at least the other's amount. */
    public ResourceSum max(ResourceSum other) {
        other.amounts.forEach((name, amount) -> {
            BigDecimal mine = amounts.get(name);
            if (mine == null || mine.compareTo(amount) < 0) {
                amounts.put(name, amount);
            }
            binary.putIfAbsent(name, other.binary.get(name));
        });
        return this;
    }

    /** Sets one resource to an amount, replacing what was summed. */
    public ResourceSum set(String name, BigDecimal amount, boolean binaryFormat) {
        amounts.put(name, amount);
        binary.put(name, binaryFormat);
        return this;
    }

    public BigDecimal get(String name) {
        return amounts.getOrDefault(name, BigDecimal.ZERO);
    }

    /** Whether no resource has an amount above zero. */
    public boolean allZero() {
        return amounts.values().stream().allMatch(a -> a.signum() <= 0);
    }

    public boolean isEmpty() {
        return amounts.isEmpty();
    }

    /** Canonical quantity strings by resource name, sorted; zero amounts dropped. */
    public Map<String, String> canonical() {
        var out = new TreeMap<String, String>();
        amounts.forEach((name, amount) -> {
            if (amount.signum() != 0) {
                out.put(name, Quantities.canonical(amount, binary.getOrDefault(name, false)));
            }
        });
        return Collections.unmodifiableMap(out);
    }
}

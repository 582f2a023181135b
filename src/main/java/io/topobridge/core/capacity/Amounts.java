package io.topobridge.core.capacity;

import io.topobridge.core.node.Accelerators;
import io.topobridge.core.resources.Quantities;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Immutable resource amounts by name (accelerators, {@code cpu} in cores, {@code memory} in bytes), as allocatable,
 * requests or free capacity; a resource that is absent is zero.
 */
public record Amounts(Map<String, BigDecimal> values) {

    public static final Amounts NONE = new Amounts(Map.of());
    /** NVIDIA's GPUs; other accelerators are named by {@link Accelerators}. */
    public static final String GPU = "nvidia.com/gpu";

    public Amounts {
        Map<String, BigDecimal> copy = new TreeMap<>();
        if (values != null) {
            values.forEach((k, v) -> {
                if (v != null && v.signum() != 0) {
                    copy.put(k, v);
                }
            });
        }
        values = Map.copyOf(copy);
    }

    /** Amounts parsed from Kubernetes quantity strings ({@code "16"}, {@code "128Gi"}, {@code "500m"}). */
    public static Amounts parse(Map<String, String> quantities) {
        Map<String, BigDecimal> out = new TreeMap<>();
        if (quantities != null) {
            quantities.forEach(
                    (k, v) -> out.put(k, Quantities.amount(new io.fabric8.kubernetes.api.model.Quantity(v))));
        }
        return new Amounts(out);
    }

    public BigDecimal get(String resource) {
        return values.getOrDefault(resource, BigDecimal.ZERO);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public Amounts plus(Amounts other) {
        Map<String, BigDecimal> out = new TreeMap<>(values);
        other.values.forEach((k, v) -> out.merge(k, v, BigDecimal::add));
        return new Amounts(out);
    }

    /** What is left of this after {@code used}, never below zero. */
    public Amounts minusClamped(Amounts used) {
        Map<String, BigDecimal> out = new TreeMap<>(values);
        used.values.forEach((k, v) ->
                out.computeIfPresent(k, (key, mine) -> mine.subtract(v).max(BigDecimal.ZERO)));
        return new Amounts(out);
    }

    public boolean covers(Amounts need) {
        return need.values.entrySet().stream().allMatch(e -> get(e.getKey()).compareTo(e.getValue()) >= 0);
    }

    /**
     * The resource of {@code need} this is shortest of, relative to the need (accelerators of the list first on a tie);
     * null when {@code need} is empty.
     */
    public String scarcest(Amounts need, Accelerators accelerators) {
        String best = null;
        BigDecimal lowest = null;
        for (var e : need.values.entrySet()) {
            BigDecimal ratio = get(e.getKey()).divide(e.getValue(), 6, RoundingMode.HALF_UP);
            boolean acceleratorTie = lowest != null && ratio.compareTo(lowest) == 0 && accelerators.is(e.getKey());
            if (lowest == null || ratio.compareTo(lowest) < 0 || acceleratorTie) {
                lowest = ratio;
                best = e.getKey();
            }
        }
        return best;
    }

    /** How much of {@code need} this covers, as the smallest ratio over its resources (1 and more: it fits). */
    public BigDecimal coverage(Amounts need) {
        String scarce = scarcest(need, Accelerators.DEFAULT);
        return scarce == null ? BigDecimal.ONE : get(scarce).divide(need.get(scarce), 6, RoundingMode.HALF_UP);
    }

    /** Whether the pods fit on the nodes one by one (first fit, largest pods first). */
    public static boolean packs(List<Amounts> pods, List<Amounts> nodes, Accelerators accelerators) {
        List<Amounts> free = new ArrayList<>(nodes);
        List<Amounts> sorted = new ArrayList<>(pods);
        Amounts total = sorted.stream().reduce(NONE, Amounts::plus);
        String key = spoken(total, NONE, accelerators);
        if (key != null) {
            sorted.sort(Comparator.comparing((Amounts a) -> a.get(key)).reversed());
        }
        for (Amounts pod : sorted) {
            boolean placed = false;
            for (int i = 0; i < free.size() && !placed; i++) {
                placed = free.get(i).covers(pod);
                if (placed) {
                    free.set(i, free.get(i).minusClamped(pod));
                }
            }
            if (!placed) {
                return false;
            }
        }
        return true;
    }

    /** The resource a sentence speaks of: an accelerator when needed, else the one {@code free} is shortest of. */
    public static String spoken(Amounts need, Amounts free, Accelerators accelerators) {
        return need.values.keySet().stream()
                .filter(accelerators::is)
                .findFirst()
                .orElseGet(() -> free.scarcest(need, accelerators));
    }

    /** The amounts of the accelerators of the list together (what the topology page counts as accelerators). */
    public long accelerators(Accelerators accelerators) {
        return accelerators.resources().stream()
                .map(this::get)
                .reduce(BigDecimal.ZERO, BigDecimal::add)
                .longValue();
    }

    /** One amount as a person reads it: {@code 36}, {@code 16.5}, {@code 940Gi}. */
    public static String show(String resource, BigDecimal amount) {
        if ("memory".equals(resource) || resource.startsWith("hugepages-") || "ephemeral-storage".equals(resource)) {
            BigDecimal gib = amount.divide(BigDecimal.valueOf(1L << 30), 1, RoundingMode.DOWN);
            return gib.compareTo(BigDecimal.ONE) >= 0
                    ? gib.stripTrailingZeros().toPlainString() + "Gi"
                    : Quantities.canonical(amount, true);
        }
        return amount.stripTrailingZeros().toPlainString();
    }

    /** Every amount in canonical Kubernetes form, sorted by resource. */
    public Map<String, String> shown() {
        Map<String, String> out = new TreeMap<>();
        values.forEach((k, v) -> out.put(k, show(k, v)));
        return out;
    }
}

package io.topobridge.core.workload.changes;

import java.math.BigDecimal;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Volcano's queues as the cache shows them: their state by name ({@code Open}, {@code Closed}…; empty when Volcano
 * has not written one yet) and their {@code spec.capability} by name, each resource's amount (cores, bytes, GPUs;
 * a queue without capability, or a resource it does not list, is not limited). {@code known} is false while queues
 * cannot be read, and then nothing is judged.
 */
public record QueueStates(boolean known, Map<String, String> states, Map<String, Map<String, BigDecimal>> capability) {

    public static final QueueStates UNKNOWN = new QueueStates(false, Map.of(), Map.of());

    public QueueStates {
        states = states == null ? Map.of() : Map.copyOf(states);
        capability = capability == null
                ? Map.of()
                : capability.entrySet().stream()
                        .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> Map.copyOf(e.getValue())));
    }
}

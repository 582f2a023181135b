package io.topobridge.core.workload.changes;

import java.util.Map;

/**
 * Volcano's queues as the cache shows them: their state by name ({@code Open}, {@code Closed}…; empty when Volcano
 * has not written one yet). {@code known} is false while queues cannot be read, and then nothing is judged.
 */
public record QueueStates(boolean known, Map<String, String> states) {

    public static final QueueStates UNKNOWN = new QueueStates(false, Map.of());

    public QueueStates {
        states = states == null ? Map.of() : Map.copyOf(states);
    }
}

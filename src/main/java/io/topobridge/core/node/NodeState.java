package io.topobridge.core.node;

import java.util.List;

/**
 * Whether a node takes new pods: cordoned ({@code spec.unschedulable}), not Ready, and its taints that keep pods off
 * ({@code NoSchedule}, {@code NoExecute}). A node whose {@code Ready} condition is {@code False} or {@code Unknown}
 * (the node controller lost its kubelet) is not ready: the node controller taints it so that the scheduler places
 * nothing new there. A node that reports no {@code Ready} condition at all (one just registered, or a node object
 * made by hand) is taken as ready: nothing says it is not, and its taints still count.
 *
 * @param ready the status of the {@code Ready} condition ({@code True}, {@code False}, {@code Unknown}), or null when
 *     the node reports none
 * @param taints the {@code NoSchedule} and {@code NoExecute} taints (others are dropped)
 */
public record NodeState(boolean cordoned, String ready, List<Taint> taints) {

    public static final NodeState SCHEDULABLE = new NodeState(false, null, List.of());

    public NodeState {
        taints = taints == null || taints.isEmpty()
                ? List.of()
                : taints.stream().filter(t -> Taint.repels(t.effect())).toList();
    }

    /** Whether the node is Ready (or says nothing about it). */
    public boolean isReady() {
        return ready == null || "True".equals(ready);
    }

    /** Whether the node takes no new pod whatever it tolerates: cordoned or not ready. */
    public boolean closed() {
        return cordoned || !isReady();
    }

    /** Why it is closed: {@code cordoned}, {@code Ready=Unknown}, {@code cordoned, Ready=False}; {@code ""} if open. */
    public String whyClosed() {
        String notReady = isReady() ? "" : "Ready=" + ready;
        return cordoned ? (notReady.isEmpty() ? "cordoned" : "cordoned, " + notReady) : notReady;
    }
}

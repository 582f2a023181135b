package io.topobridge.core.node;

import java.util.Objects;

/**
 * A node taint that keeps pods off the node: effect {@code NoSchedule} or {@code NoExecute}. ({@code PreferNoSchedule}
 * only asks the scheduler to avoid the node, so it never makes a node unusable and is not kept.)
 *
 * @param value empty when the taint has none
 */
public record Taint(String key, String value, String effect) {

    public static final String NO_SCHEDULE = "NoSchedule";
    public static final String NO_EXECUTE = "NoExecute";

    public Taint {
        Objects.requireNonNull(key, "key");
        value = value == null ? "" : value;
        Objects.requireNonNull(effect, "effect");
    }

    /** Whether a taint of this effect keeps pods that do not tolerate it off the node. */
    public static boolean repels(String effect) {
        return NO_SCHEDULE.equals(effect) || NO_EXECUTE.equals(effect);
    }

    /** {@code key=value:Effect}, or {@code key:Effect} without a value, as kubectl writes taints. */
    @Override
    public String toString() {
        return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
    }
}

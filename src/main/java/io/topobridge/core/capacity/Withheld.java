package io.topobridge.core.capacity;

import io.topobridge.core.node.NodeState;
import io.topobridge.core.node.Taint;
import io.topobridge.core.node.Toleration;
import java.util.ArrayList;
import java.util.List;

/**
 * Nodes whose resources are not room for new pods: cordoned, not ready, or with a taint the pods in question do not
 * tolerate (with the first such taint as an example). A node is counted once, under the first of these that holds.
 */
public record Withheld(int cordoned, int notReady, int tainted, Taint example) {

    public static final Withheld NONE = new Withheld(0, 0, 0, null);

    public boolean isEmpty() {
        return cordoned + notReady + tainted == 0;
    }

    /**
     * One node that takes no new pod (cordoned or not ready), or none; {@code tolerations} null: its taints are not
     * judged (as on the topology page, where a tainted node's room is room for the pods that tolerate it).
     */
    public static Withheld of(NodeState state, List<List<Toleration>> tolerations) {
        if (state.cordoned()) {
            return new Withheld(1, 0, 0, null);
        }
        if (!state.isReady()) {
            return new Withheld(0, 1, 0, null);
        }
        Taint repelling = tolerations == null ? null : repelling(state.taints(), tolerations);
        return repelling == null ? NONE : new Withheld(0, 0, 1, repelling);
    }

    /** The first taint that one of the pods (each its tolerations, in order) does not tolerate, or null. */
    static Taint repelling(List<Taint> taints, List<List<Toleration>> pods) {
        return pods.stream()
                .flatMap(pod -> taints.stream().filter(taint -> !Toleration.tolerated(pod, taint)))
                .findFirst()
                .orElse(null);
    }

    public Withheld plus(Withheld other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        return new Withheld(
                cordoned + other.cordoned,
                notReady + other.notReady,
                tainted + other.tainted,
                example != null ? example : other.example);
    }

    /**
     * {@code 9 cordoned nodes}, {@code 2 nodes not ready and 3 nodes with a taint the gang does not tolerate
     * (k=v:NoSchedule)}; empty when nothing is withheld.
     */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (cordoned > 0) {
            parts.add(cordoned + " cordoned node" + (cordoned == 1 ? "" : "s"));
        }
        if (notReady > 0) {
            parts.add(notReady + " node" + (notReady == 1 ? "" : "s") + " not ready");
        }
        if (tainted > 0) {
            parts.add(tainted + " node" + (tainted == 1 ? "" : "s") + " with a taint the gang does not tolerate"
                    + (example == null ? "" : " (" + example + ")"));
        }
        if (parts.size() <= 1) {
            return parts.isEmpty() ? "" : parts.get(0);
        }
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }
}

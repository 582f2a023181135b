package io.topobridge.core.capacity;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.node.Taint;
import io.topobridge.core.resources.Quantities;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A node as diagnosis needs it: name, labels, allocatable resources and whether it takes new pods (cordoned, Ready,
 * its NoSchedule/NoExecute taints).
 */
public record NodeView(String name, Map<String, String> labels, Amounts allocatable, NodeState state) {

    public NodeView {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        allocatable = allocatable == null ? Amounts.NONE : allocatable;
        state = state == null ? NodeState.SCHEDULABLE : state;
    }

    /** Whether the node has accelerators: some allocatable resource of the list, or GPU feature discovery's labels. */
    public boolean accelerator(Accelerators accelerators) {
        // else the labels GPU feature discovery puts on GPU nodes
        return accelerators.resources().stream()
                        .anyMatch(r -> allocatable.get(r).signum() > 0)
                || "true".equals(labels.get("nvidia.com/gpu.present"))
                || labels.containsKey("nvidia.com/gpu.count")
                || labels.containsKey("nvidia.com/gpu.product");
    }

    /** A Node as read from the API server (or an input file). */
    public static NodeView of(Node node) {
        Map<String, BigDecimal> allocatable = new TreeMap<>();
        if (node.getStatus() != null && node.getStatus().getAllocatable() != null) {
            node.getStatus().getAllocatable().forEach((k, v) -> {
                try {
                    allocatable.put(k, Quantities.amount(v));
                } catch (IllegalArgumentException e) {
                    // a quantity no one can read counts as nothing
                }
            });
        }
        return new NodeView(
                node.getMetadata().getName(), node.getMetadata().getLabels(), new Amounts(allocatable), state(node));
    }

    public static NodeState state(Node node) {
        boolean cordoned =
                node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        List<Taint> taints = node.getSpec() == null || node.getSpec().getTaints() == null
                ? List.of()
                : node.getSpec().getTaints().stream()
                        .filter(t -> t != null && t.getKey() != null && Taint.repels(t.getEffect()))
                        .map(t -> new Taint(t.getKey(), t.getValue(), t.getEffect()))
                        .toList();
        return new NodeState(
                cordoned,
                ready(node.getStatus() == null ? null : node.getStatus().getConditions()),
                taints);
    }

    /** The status of the {@code Ready} condition, or null when there is none. */
    public static String ready(List<NodeCondition> conditions) {
        return conditions == null
                ? null
                : conditions.stream()
                        .filter(c -> c != null && "Ready".equals(c.getType()))
                        .findFirst()
                        .map(NodeCondition::getStatus)
                        .orElse(null);
    }
}

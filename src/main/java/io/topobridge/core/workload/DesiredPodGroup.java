package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.topobridge.core.recovery.OnDomainLoss;
import io.topobridge.volcano.model.PodGroupSpec;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A PodGroup as the bridge wants it. {@link Ownership#OWNED}: the bridge creates it and owns its spec.
 * {@link Ownership#ADOPTED}: another controller (AIBrix, LWS) made it; the bridge applies only
 * {@code spec.networkTopology} and {@code spec.subGroupPolicy} to it. {@code onDomainLoss}: what the gang asks for
 * when its domain is lost (null: {@link OnDomainLoss#WAIT}), carried to the reconciler as a value; its annotations
 * only tell the user.
 */
public record DesiredPodGroup(
        String namespace,
        String name,
        Map<String, String> labels,
        Map<String, String> annotations,
        List<OwnerReference> owners,
        PodGroupSpec spec,
        Ownership ownership,
        OnDomainLoss onDomainLoss) {

    /** Who created the PodGroup and therefore which fields the bridge owns. */
    public enum Ownership {
        OWNED,
        ADOPTED
    }

    public DesiredPodGroup {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(ownership, "ownership");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        owners = owners == null ? List.of() : List.copyOf(owners);
        onDomainLoss = onDomainLoss == null ? OnDomainLoss.WAIT : onDomainLoss;
    }

    public DesiredPodGroup withOnDomainLoss(OnDomainLoss onLoss) {
        return new DesiredPodGroup(namespace, name, labels, annotations, owners, spec, ownership, onLoss);
    }

    public DesiredPodGroup withAnnotations(Map<String, String> value) {
        return new DesiredPodGroup(namespace, name, labels, value, owners, spec, ownership, onDomainLoss);
    }

    /** The same PodGroup in another queue (every other field of the spec as it is). */
    public DesiredPodGroup withQueue(String queue) {
        var copy = new PodGroupSpec()
                .minMember(spec.getMinMember())
                .minTaskMember(spec.getMinTaskMember())
                .minResources(spec.getMinResources())
                .queue(queue)
                .priorityClassName(spec.getPriorityClassName())
                .networkTopology(spec.getNetworkTopology())
                .subGroupPolicy(spec.getSubGroupPolicy());
        return new DesiredPodGroup(namespace, name, labels, annotations, owners, copy, ownership, onDomainLoss);
    }
}

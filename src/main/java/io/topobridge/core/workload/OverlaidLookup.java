package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.capacity.TierDomains;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A lookup that answers like another one, except for what it is given in place of it: the tiers' domains, the live
 * pods. Everything else (objects, PodGroups, namespaces, quotas, autoscalers) is the base's.
 */
final class OverlaidLookup implements WorkloadLookup {

    private final WorkloadLookup base;
    private final Supplier<TierDomains> domains;
    private final Function<String, List<Pod>> pods;

    /** {@code domains} and {@code pods} may be null: the base's are kept. */
    OverlaidLookup(WorkloadLookup base, Supplier<TierDomains> domains, Function<String, List<Pod>> pods) {
        this.base = Objects.requireNonNull(base, "base");
        this.domains = domains;
        this.pods = pods;
    }

    @Override
    public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
        return base.get(kind, namespace, name);
    }

    @Override
    public List<HasMetadata> list(WorkloadKind kind, String namespace) {
        return base.list(kind, namespace);
    }

    @Override
    public List<HasMetadata> podGroups(String namespace) {
        return base.podGroups(namespace);
    }

    @Override
    public Map<String, String> namespaceAnnotations(String namespace) {
        return base.namespaceAnnotations(namespace);
    }

    @Override
    public Map<String, String> namespaceLabels(String namespace) {
        return base.namespaceLabels(namespace);
    }

    @Override
    public List<HasMetadata> resourceQuotas(String namespace) {
        return base.resourceQuotas(namespace);
    }

    @Override
    public List<HasMetadata> autoscalers(String namespace) {
        return base.autoscalers(namespace);
    }

    @Override
    public TierDomains domains() {
        return domains != null ? domains.get() : base.domains();
    }

    @Override
    public List<Pod> pods(String namespace) {
        return pods != null ? pods.apply(namespace) : base.pods(namespace);
    }

    @Override
    public Optional<io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate> resourceClaimTemplate(
            String namespace, String name) {
        return base.resourceClaimTemplate(namespace, name);
    }

    @Override
    public Optional<io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim> resourceClaim(
            String namespace, String name) {
        return base.resourceClaim(namespace, name);
    }

    @Override
    public String resourceClaimsUnknown() {
        return base.resourceClaimsUnknown();
    }
}

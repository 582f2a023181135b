package io.topobridge.core.render;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.expand.Index;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link WorkloadLookup} over a fixed set of objects, e.g. the files given to {@code render}: workloads, Namespaces
 * (their labels and annotations: opt-in and the queues their workloads may use), PodGroups that exist already,
 * ResourceQuotas, autoscalers, and the ResourceClaimTemplates and ResourceClaims ({@code resource.k8s.io/v1}) pods
 * claim devices from. A namespace that is not among them is unknown (its labels are {@code null}).
 */
public final class InMemoryLookup implements WorkloadLookup {

    private final Map<WorkloadKind, Map<String, Map<String, HasMetadata>>> byKind = new EnumMap<>(WorkloadKind.class);
    private final TierDomains domains;

    private final Map<String, Map<String, String>> namespaceAnnotations = new HashMap<>();
    private final Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
    private final Map<String, List<HasMetadata>> podGroups = new HashMap<>();
    private final Map<String, List<HasMetadata>> quotas = new HashMap<>();
    private final Map<String, List<HasMetadata>> autoscalers = new HashMap<>();
    private final Map<String, ResourceClaimTemplate> claimTemplates = new HashMap<>();
    private final Map<String, ResourceClaim> claims = new HashMap<>();

    public InMemoryLookup(Collection<? extends HasMetadata> objects) {
        this(objects, TierDomains.NONE);
    }

    public InMemoryLookup(Collection<? extends HasMetadata> objects, TierDomains domains) {
        this.domains = Objects.requireNonNull(domains, "domains");
        for (HasMetadata object : objects) {
            ObjectMeta meta = object.getMetadata();
            if (meta == null || meta.getName() == null) {
                continue;
            }
            String ns = Objects.requireNonNullElse(meta.getNamespace(), "");
            if ("Namespace".equals(object.getKind()) && "v1".equals(object.getApiVersion())) {
                namespaceAnnotations.put(
                        meta.getName(),
                        meta.getAnnotations() == null ? Map.of() : new HashMap<>(meta.getAnnotations()));
                namespaceLabels.put(
                        meta.getName(), meta.getLabels() == null ? Map.of() : new HashMap<>(meta.getLabels()));
            } else if (Index.kindOf(object).equals(VolcanoApi.SCHEDULING_GROUP + "/" + VolcanoApi.PODGROUP_KIND)) {
                podGroups.computeIfAbsent(ns, k -> new ArrayList<>()).add(object);
            } else if (Autoscaler.of(object).isPresent()) {
                autoscalers.computeIfAbsent(ns, k -> new ArrayList<>()).add(object);
            } else if ("ResourceQuota".equals(object.getKind()) && "v1".equals(object.getApiVersion())) {
                quotas.computeIfAbsent(ns, k -> new ArrayList<>()).add(object);
            } else if (object instanceof ResourceClaimTemplate template) {
                claimTemplates.put(ns + "/" + meta.getName(), template);
            } else if (object instanceof ResourceClaim claim) {
                claims.put(ns + "/" + meta.getName(), claim);
            } else {
                WorkloadKind.of(object.getApiVersion(), object.getKind())
                        .ifPresent(kind -> byKind.computeIfAbsent(kind, k -> new HashMap<>())
                                .computeIfAbsent(ns, k -> new HashMap<>())
                                .put(meta.getName(), object));
            }
        }
    }

    @Override
    public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
        return Optional.ofNullable(byKind.getOrDefault(kind, Map.of())
                .getOrDefault(Objects.requireNonNullElse(namespace, ""), Map.of())
                .get(name));
    }

    @Override
    public List<HasMetadata> list(WorkloadKind kind, String namespace) {
        List<HasMetadata> out = new ArrayList<>();
        if (namespace == null) {
            byKind.getOrDefault(kind, Map.of()).values().forEach(m -> out.addAll(m.values()));
        } else {
            out.addAll(byKind.getOrDefault(kind, Map.of())
                    .getOrDefault(namespace, Map.of())
                    .values());
        }
        out.sort(Comparator.comparing(o -> o.getMetadata().getName()));
        return out;
    }

    @Override
    public List<HasMetadata> podGroups(String namespace) {
        return List.copyOf(podGroups.getOrDefault(Objects.requireNonNullElse(namespace, ""), List.of()));
    }

    public List<HasMetadata> allPodGroups() {
        return podGroups.values().stream().flatMap(List::stream).toList();
    }

    @Override
    public Map<String, String> namespaceAnnotations(String namespace) {
        return namespaceAnnotations.getOrDefault(Objects.requireNonNullElse(namespace, ""), Map.of());
    }

    @Override
    public Map<String, String> namespaceLabels(String namespace) {
        return namespaceLabels.get(Objects.requireNonNullElse(namespace, ""));
    }

    @Override
    public List<HasMetadata> autoscalers(String namespace) {
        return List.copyOf(autoscalers.getOrDefault(namespace, List.of()));
    }

    @Override
    public List<HasMetadata> resourceQuotas(String namespace) {
        return List.copyOf(quotas.getOrDefault(Objects.requireNonNullElse(namespace, ""), List.of()));
    }

    @Override
    public Optional<ResourceClaimTemplate> resourceClaimTemplate(String namespace, String name) {
        return Optional.ofNullable(claimTemplates.get(Objects.requireNonNullElse(namespace, "") + "/" + name));
    }

    @Override
    public Optional<ResourceClaim> resourceClaim(String namespace, String name) {
        return Optional.ofNullable(claims.get(Objects.requireNonNullElse(namespace, "") + "/" + name));
    }

    /** The objects given are all there is: a ResourceClaimTemplate not among them does not exist. */
    @Override
    public String resourceClaimsUnknown() {
        return null;
    }

    public boolean hasNamespaces() {
        return !namespaceLabels.isEmpty();
    }

    @Override
    public TierDomains domains() {
        return domains;
    }
}

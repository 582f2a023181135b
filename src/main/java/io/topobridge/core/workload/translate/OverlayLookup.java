package io.topobridge.core.workload.translate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Given objects laid over a lookup: they replace the lookup's objects of the same kind, namespace and name. So
 * {@code render} sees workloads that are in no cache, and the webhooks see the cluster as it would be with the
 * incoming object (a workload, or a PodGroup) admitted.
 */
final class OverlayLookup implements WorkloadLookup {

    private final Map<WorkloadKind, Map<String, Map<String, HasMetadata>>> given = new TreeMap<>();
    private final Map<String, Map<String, HasMetadata>> podGroups = new TreeMap<>();
    private final WorkloadLookup base;

    OverlayLookup(Collection<? extends HasMetadata> objects, WorkloadLookup base) {
        this.base = base;
        for (HasMetadata object : objects) {
            var meta = object.getMetadata();
            if (meta == null || meta.getName() == null) {
                continue;
            }
            if (VolcanoApi.PODGROUP_KIND.equals(object.getKind())) {
                podGroups
                        .computeIfAbsent(ns(meta.getNamespace()), k -> new TreeMap<>())
                        .put(meta.getName(), object);
                continue;
            }
            WorkloadKind.of(object.getApiVersion(), object.getKind())
                    .ifPresent(kind -> given.computeIfAbsent(kind, k -> new TreeMap<>())
                            .computeIfAbsent(ns(meta.getNamespace()), k -> new TreeMap<>())
                            .put(meta.getName(), object));
        }
    }

    @Override
    public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
        HasMetadata mine = given.getOrDefault(kind, Map.of())
                .getOrDefault(ns(namespace), Map.of())
                .get(name);
        return mine != null ? Optional.of(mine) : base.get(kind, namespace, name);
    }

    @Override
    public List<HasMetadata> list(WorkloadKind kind, String namespace) {
        Map<String, HasMetadata> out = new LinkedHashMap<>();
        for (HasMetadata object : base.list(kind, namespace)) {
            out.put(object.getMetadata().getName(), object);
        }
        if (namespace == null) {
            given.getOrDefault(kind, Map.of()).values().forEach(out::putAll);
        } else {
            out.putAll(given.getOrDefault(kind, Map.of()).getOrDefault(ns(namespace), Map.of()));
        }
        List<HasMetadata> list = new ArrayList<>(out.values());
        list.sort(Comparator.comparing(o -> o.getMetadata().getName()));
        return list;
    }

    @Override
    public List<HasMetadata> podGroups(String namespace) {
        Map<String, HasMetadata> mine = podGroups.getOrDefault(ns(namespace), Map.of());
        if (mine.isEmpty()) {
            return base.podGroups(namespace);
        }
        Map<String, HasMetadata> out = new LinkedHashMap<>();
        base.podGroups(namespace).forEach(pg -> out.put(pg.getMetadata().getName(), pg));
        out.putAll(mine);
        return new ArrayList<>(out.values());
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
    public io.topobridge.core.capacity.TierDomains domains() {
        return base.domains();
    }

    @Override
    public List<HasMetadata> autoscalers(String namespace) {
        return base.autoscalers(namespace);
    }

    @Override
    public List<io.fabric8.kubernetes.api.model.Pod> pods(String namespace) {
        return base.pods(namespace);
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

    private static String ns(String namespace) {
        return Objects.requireNonNullElse(namespace, "");
    }
}

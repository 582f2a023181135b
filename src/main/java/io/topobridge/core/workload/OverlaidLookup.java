package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.TierDomains;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A lookup that answers like another one, with one thing laid over it (see the {@code with…} methods of
 * {@link WorkloadLookup}): given objects that win over the base's of the same kind, namespace and name, what the base
 * does not show yet ({@link WorkloadLookup.Recent}), the tiers' domains, or the live pods. Everything else is the base's.
 */
final class OverlaidLookup implements WorkloadLookup {

    private final WorkloadLookup base;
    /** Given workloads by kind, namespace ("" for none) and name; null when no objects are laid over the base. */
    private final Map<WorkloadKind, Map<String, Map<String, HasMetadata>>> given;

    private final Map<String, Map<String, HasMetadata>> podGroups = new TreeMap<>();

    private final Recent recent;
    private final Supplier<TierDomains> domains;
    private final Function<String, List<Pod>> pods;

    /**
     * Each of {@code objects}, {@code recent}, {@code domains} and {@code pods} may be null: the base's answers are
     * kept. Laid objects, even none, make {@link #list} answer by name, sorted.
     */
    OverlaidLookup(
            WorkloadLookup base,
            Collection<? extends HasMetadata> objects,
            Recent recent,
            Supplier<TierDomains> domains,
            Function<String, List<Pod>> pods) {
        this.base = Objects.requireNonNull(base, "base");
        this.recent = recent;
        this.domains = domains;
        this.pods = pods;
        this.given = objects == null ? null : new TreeMap<>();
        if (objects != null) {
            objects.forEach(this::give);
        }
    }

    private void give(HasMetadata object) {
        var meta = object.getMetadata();
        if (meta == null || meta.getName() == null) {
            return;
        }
        if (VolcanoApi.PODGROUP_KIND.equals(object.getKind())) {
            podGroups
                    .computeIfAbsent(ns(meta.getNamespace()), k -> new TreeMap<>())
                    .put(meta.getName(), object);
            return;
        }
        WorkloadKind.of(object.getApiVersion(), object.getKind())
                .ifPresent(kind -> given.computeIfAbsent(kind, k -> new TreeMap<>())
                        .computeIfAbsent(ns(meta.getNamespace()), k -> new HashMap<>()) // list() sorts by name
                        .put(meta.getName(), object));
    }

    @Override
    public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
        HasMetadata mine = given == null
                ? null
                : given.getOrDefault(kind, Map.of())
                        .getOrDefault(ns(namespace), Map.of())
                        .get(name);
        if (mine != null) {
            return Optional.of(mine);
        }
        Optional<HasMetadata> hit = base.get(kind, namespace, name);
        if (recent == null || hit.isPresent() || namespace == null || name == null) {
            return hit;
        }
        return recent.get(kind, namespace, name);
    }

    @Override
    public List<HasMetadata> list(WorkloadKind kind, String namespace) {
        List<HasMetadata> listed = base.list(kind, namespace);
        if (recent != null) {
            listed = recent.list(kind, namespace, listed);
        }
        if (given == null) {
            return listed;
        }
        Map<String, Map<String, HasMetadata>> mine = given.getOrDefault(kind, Map.of());
        Map<String, HasMetadata> out = new LinkedHashMap<>();
        for (HasMetadata object : listed) {
            out.put(object.getMetadata().getName(), object);
        }
        if (namespace == null) {
            mine.values().forEach(out::putAll);
        } else {
            out.putAll(mine.getOrDefault(ns(namespace), Map.of()));
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
    public TierDomains domains() {
        return domains != null ? domains.get() : base.domains();
    }

    @Override
    public List<Pod> pods(String namespace) {
        return pods != null ? pods.apply(namespace) : base.pods(namespace);
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
    public Optional<ResourceClaimTemplate> resourceClaimTemplate(String namespace, String name) {
        return base.resourceClaimTemplate(namespace, name);
    }

    @Override
    public Optional<ResourceClaim> resourceClaim(String namespace, String name) {
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

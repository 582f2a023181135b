package io.topobridge.core.render;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.diagnosis.TierDomains;
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
 * A {@link WorkloadLookup} over a fixed set of objects, e.g. the files given to {@code render}; Namespaces among them
 * give their annotations (the queues their workloads may use).
 */
public final class InMemoryLookup implements WorkloadLookup {

    private final Map<WorkloadKind, Map<String, Map<String, HasMetadata>>> byKind = new EnumMap<>(WorkloadKind.class);
    private final TierDomains domains;

    private final Map<String, Map<String, String>> namespaceAnnotations = new HashMap<>();

    public InMemoryLookup(Collection<? extends HasMetadata> objects) {
        this(objects, TierDomains.NONE);
    }

    /** A lookup over {@code objects} whose tiers have the given domains. */
    public InMemoryLookup(Collection<? extends HasMetadata> objects, TierDomains domains) {
        this.domains = Objects.requireNonNull(domains, "domains");
        for (HasMetadata object : objects) {
            if (object.getMetadata() == null || object.getMetadata().getName() == null) {
                continue;
            }
            if ("Namespace".equals(object.getKind()) && "v1".equals(object.getApiVersion())) {
                Map<String, String> annotations = object.getMetadata().getAnnotations();
                namespaceAnnotations.put(
                        object.getMetadata().getName(), annotations == null ? Map.of() : new HashMap<>(annotations));
                continue;
            }
            WorkloadKind.of(object.getApiVersion(), object.getKind())
                    .ifPresent(kind -> byKind.computeIfAbsent(kind, k -> new HashMap<>())
                            .computeIfAbsent(namespaceOf(object), k -> new HashMap<>())
                            .put(object.getMetadata().getName(), object));
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
        var out = new ArrayList<>(byKind.getOrDefault(kind, Map.of())
                .getOrDefault(Objects.requireNonNullElse(namespace, ""), Map.of())
                .values());
        out.sort(Comparator.comparing(o -> o.getMetadata().getName()));
        return out;
    }

    @Override
    public Map<String, String> namespaceAnnotations(String namespace) {
        return namespaceAnnotations.getOrDefault(Objects.requireNonNullElse(namespace, ""), Map.of());
    }

    @Override
    public TierDomains domains() {
        return domains;
    }

    private static String namespaceOf(HasMetadata object) {
        return Objects.requireNonNullElse(object.getMetadata().getNamespace(), "");
    }
}

package io.topobridge.core.workload.kind;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One translation's view of the cluster: workloads read through one lookup, each object wrapped once (so its
 * templates are read once) and its scope computed once. Valid while the caches it reads do not change; a new
 * pass takes a new snapshot.
 */
public final class Snapshot {

    private final WorkloadLookup lookup;
    private io.topobridge.core.capacity.TierDomains domains;
    private final WorkloadAdapters adapters;
    private final Map<HasMetadata, Optional<Workload>> views = new IdentityHashMap<>();
    private final Map<HasMetadata, Optional<GangScope>> scopes = new IdentityHashMap<>();
    private final Map<String, Map<String, List<Workload>>> groupsByNamespace = new HashMap<>();
    private final Map<WorkloadKind, Map<String, List<Workload>>> lists = new EnumMap<>(WorkloadKind.class);
    private final PodRequests requests = new PodRequests();

    private final int maxGangsPerWorkload;

    Snapshot(WorkloadLookup lookup, WorkloadAdapters adapters, int maxGangsPerWorkload) {
        this.lookup = lookup;
        this.adapters = adapters;
        this.maxGangsPerWorkload = maxGangsPerWorkload;
    }

    /**
     * The most gangs (LWS groups, DisaggregatedSet slices) one workload may ask for: a workload asking for more is
     * refused before any of its gangs is planned, so one object cannot make a pass plan millions of PodGroups.
     */
    public int maxGangsPerWorkload() {
        return maxGangsPerWorkload;
    }

    public WorkloadAdapters adapters() {
        return adapters;
    }

    public Optional<Workload> view(HasMetadata object) {
        return views.computeIfAbsent(object, Workload::of);
    }

    public Optional<Workload> get(WorkloadKind kind, String namespace, String name) {
        return name == null
                ? Optional.empty()
                : lookup.get(kind, namespace, name).flatMap(this::view);
    }

    /** Every object of a kind in a namespace, sorted by name; listed once per snapshot. */
    public List<Workload> list(WorkloadKind kind, String namespace) {
        return lists.computeIfAbsent(kind, k -> new HashMap<>()).computeIfAbsent(namespace, ns -> {
            List<Workload> out = new ArrayList<>();
            for (HasMetadata object : lookup.list(kind, ns)) {
                view(object).ifPresent(out::add);
            }
            out.sort(Comparator.comparing(Workload::name));
            return Collections.unmodifiableList(out);
        });
    }

    /** The requests of the templates this snapshot's workloads hold, each computed once. */
    public PodRequests requests() {
        return requests;
    }

    /** The lookup this snapshot reads (for what it does not hold itself: PodGroups, pods, namespaces, DRA claims). */
    public WorkloadLookup lookup() {
        return lookup;
    }

    /** The domains of every tier (for {@code highest-tier: auto}), read once per snapshot, when first needed. */
    public io.topobridge.core.capacity.TierDomains domains() {
        if (domains == null) {
            domains = lookup.domains();
        }
        return domains;
    }

    /**
     * The scope an object belongs to (see {@link KindAdapter#scopeOf}). An object that cannot be read is a scope
     * of its own, where the error is reported.
     */
    public Optional<GangScope> scopeOf(HasMetadata object) {
        return scopes.computeIfAbsent(object, o -> view(o).flatMap(this::computeScope));
    }

    public Optional<GangScope> scopeOf(Workload workload) {
        return scopeOf(workload.object());
    }

    private Optional<GangScope> computeScope(Workload workload) {
        Optional<KindAdapter> adapter = adapters.of(workload.kind());
        if (adapter.isEmpty()) {
            return Optional.empty();
        }
        try {
            return adapter.get().scopeOf(workload, this);
        } catch (RuntimeException e) {
            return Optional.of(new GangScope.Single(workload.kind(), workload.namespace(), workload.name()));
        }
    }

    /** Members of a group, sorted by kind and name; the groups of a namespace are found once. */
    public List<Workload> groupMembers(GangScope.Group group) {
        Map<String, List<Workload>> groups = groupsByNamespace.computeIfAbsent(group.namespace(), ns -> {
            Map<String, List<Workload>> out = new HashMap<>();
            for (KindAdapter adapter : adapters.all()) {
                if (!(adapter instanceof GroupMember member)) {
                    continue;
                }
                for (Workload w : list(adapter.kind(), ns)) {
                    if (!member.joins(w)) {
                        continue;
                    }
                    scopeOf(w)
                            .filter(GangScope.Group.class::isInstance)
                            .ifPresent(s -> out.computeIfAbsent(s.name(), k -> new ArrayList<>())
                                    .add(w));
                }
            }
            out.values()
                    .forEach(list -> list.sort(
                            Comparator.comparing((Workload w) -> w.kind().ordinal())
                                    .thenComparing(Workload::name)));
            return out;
        });
        return groups.getOrDefault(group.name(), List.of());
    }
}

package io.topobridge.diagnosis;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.cache.ClusterView;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.Topobridge;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.changes.ObservedPodGroup;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.volcano.PodGroup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The gangs the bridge manages (PodGroups it made, and PodGroups of AIBrix or LWS it adds topology to), found by
 * PodGroup or by workload name and explained from the caches. Read-only; every replica.
 */
@ApplicationScoped
public class Gangs {

    /** One managed gang: its PodGroup, the workload scope it belongs to (null when none claims it) and its view. */
    public record Managed(PodGroup podGroup, GangScope scope, GangView gang) {

        /** The workload kind the metric is labelled with ({@code Group} for a {@code topobridge.io/group}). */
        public String kind() {
            if (scope instanceof GangScope.Single single) {
                return single.kind().kind();
            }
            return scope == null ? "" : GangScope.GROUP;
        }
    }

    private final ClusterView view;
    private final WorkloadCaches lookup;
    private final WorkloadTranslator translator;

    public Gangs(ClusterView view, WorkloadCaches lookup, WorkloadSettings settings) {
        this.view = view;
        this.lookup = lookup;
        this.translator = new WorkloadTranslator(
                settings, io.topobridge.core.kinds.Kinds.adapters(), java.time.Clock.systemUTC());
    }

    /** Every managed gang, by namespace and PodGroup name. */
    public List<Managed> all() {
        return lookup.allPodGroups().stream()
                .filter(pg -> Topobridge.managed(pg) || ObservedPodGroup.ownsFields(pg))
                .map(this::explained)
                .sorted(Comparator.comparing(
                                (Managed m) -> m.podGroup().getMetadata().getNamespace())
                        .thenComparing(m -> m.podGroup().getMetadata().getName()))
                .toList();
    }

    /**
     * The gangs a name means in a namespace: the PodGroup of that name, or else every gang of the workload (or
     * {@code topobridge.io/group}) of that name.
     */
    public List<Managed> find(String namespace, String name) {
        PodGroup pg = lookup.podGroup(namespace, name);
        if (pg != null) {
            return List.of(explained(pg));
        }
        return all().stream()
                .filter(m -> namespace.equals(m.podGroup().getMetadata().getNamespace())
                        && m.scope() != null
                        && name.equals(m.scope().name()))
                .toList();
    }

    /** The workloads a gang's Events go to: the workload of its scope, or every member of its group. */
    public List<ObjectRef> workloads(Managed gang) {
        List<ObjectRef> out = new ArrayList<>();
        if (gang.scope() instanceof GangScope.Single single) {
            lookup.get(single.kind(), single.namespace(), single.name()).ifPresent(o -> out.add(ObjectRef.of(o)));
        } else if (gang.scope() instanceof GangScope.Group group) {
            for (WorkloadKind kind : lookup.cachedKinds()) {
                for (HasMetadata o : lookup.list(kind, group.namespace())) {
                    Map<String, String> a = o.getMetadata().getAnnotations();
                    if (a != null && group.name().equals(a.get(Topobridge.GROUP))) {
                        out.add(ObjectRef.of(o));
                    }
                }
            }
        }
        return out;
    }

    private Managed explained(PodGroup pg) {
        return new Managed(pg, translator.scopeOfPodGroup(pg, lookup).orElse(null), view.gang(pg));
    }
}

package io.topobridge.diagnosis;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.cache.ClusterView;
import io.topobridge.cache.KindRegistry;
import io.topobridge.cache.NodeCache;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.diagnosis.Doctor;
import io.topobridge.core.diagnosis.DoctorCheck;
import io.topobridge.core.workload.WorkloadKind;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The doctor in the running controller: the same checks as the {@code doctor} command, with nodes, HyperNodes,
 * queues and workloads from the caches and a few GETs for the rest. A result is reused for 10 seconds, so the
 * API, the metrics and the findings never multiply the GETs. Every replica; it only reads.
 */
@ApplicationScoped
public class DoctorService {

    private static final Duration REUSE = Duration.ofSeconds(10);

    /** One run: its checks and when it was made. */
    public record Run(List<DoctorCheck> checks, long atNanos) {}

    private final DoctorGatherer gatherer;
    private final ClusterView view;
    private final NodeCache nodes;
    private final WorkloadCaches lookup;
    private final KindRegistry kinds;
    private final Gangs gangs;
    private final DoctorGatherer.Settings settings;
    private volatile Run last;

    public DoctorService(
            KubernetesClient client,
            DoctorGatherer.Settings settings,
            ClusterView view,
            NodeCache nodes,
            WorkloadCaches lookup,
            KindRegistry kinds,
            Gangs gangs) {
        this.gatherer = new DoctorGatherer(client, settings);
        this.settings = settings;
        this.view = view;
        this.nodes = nodes;
        this.lookup = lookup;
        this.kinds = kinds;
        this.gangs = gangs;
    }

    /** The checks now (or from the last few seconds). */
    public synchronized Run run() {
        Run previous = last;
        if (previous != null && System.nanoTime() - previous.atNanos() < REUSE.toNanos()) {
            return previous;
        }
        var sources = new DoctorGatherer.Sources(
                nodes::views,
                view::hyperNodes,
                () -> lookup.queuesKnown()
                        ? QueueNames.states(lookup.allQueues())
                        : kinds.installed(VolcanoApi.QUEUE_CRD) ? java.util.Map.of() : null,
                this::namedQueues,
                false,
                this::gangDomains);
        Run now = new Run(Doctor.run(gatherer.gather(sources)), System.nanoTime());
        last = now;
        return now;
    }

    /**
     * The running hard-tier gangs whose domain has a node that takes no new pods, or cannot give them back a pod, by
     * {@code namespace/podGroup}; none until the caches are listed.
     */
    private Map<String, GangDomain> gangDomains() {
        if (!view.ready()) {
            return Map.of();
        }
        Map<String, GangDomain> out = new TreeMap<>();
        Capacity capacity = null;
        for (Gangs.Managed m : gangs.all()) {
            GangView gang = m.gang();
            if (!gang.hard() || gang.livePods().stream().noneMatch(PodView::bound)) {
                continue;
            }
            if (capacity == null) {
                capacity = view.capacity();
            }
            GangDomain.of(
                            gang,
                            capacity.forPods(gang.pods().stream()
                                    .map(PodView::effectiveTolerations)
                                    .toList()))
                    .filter(d ->
                            d.stuck() || !d.unusable().isEmpty() || !d.lost().isEmpty())
                    .ifPresent(d -> out.put(gang.namespace() + "/" + gang.podGroup(), d));
        }
        return out;
    }

    /** The last run, if any (for readiness details). */
    public Run last() {
        return last;
    }

    private java.util.Map<String, List<String>> namedQueues() {
        List<HasMetadata> workloads = new ArrayList<>();
        for (WorkloadKind kind : lookup.cachedKinds()) {
            if (kind != WorkloadKind.REPLICA_SET) {
                workloads.addAll(lookup.list(kind, null));
            }
        }
        return QueueNames.named(
                workloads,
                lookup.allPodGroups().stream().filter(Topobridge::managed).toList(),
                settings.defaultQueue(),
                ns -> lookup.namespaceAnnotations(ns).get(VolcanoApi.QUEUE_NAME_ANNOTATION));
    }
}

package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.WorkloadKind;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * Which of the CRDs the bridge cares about are installed and serve the version it reads. Seeded by one GET
 * per CRD at start-up, then kept current by the controller's CRD watch; listeners hear of every change
 * so a kind installed later is picked up without a restart.
 */
@ApplicationScoped
public class KindRegistry {

    private static final Logger LOG = Logger.getLogger(KindRegistry.class);

    /** A watched CRD appeared, changed or disappeared. */
    public record Change(String crdName, boolean installed) {}

    /** CRD name to the API version the bridge needs from it. */
    static final Map<String, String> WATCHED = watched();

    private final KubernetesClient client;

    private final Map<String, Boolean> installed = new ConcurrentHashMap<>();
    private final List<Consumer<Change>> listeners = new CopyOnWriteArrayList<>();

    public KindRegistry(KubernetesClient client) {
        this.client = client;
    }

    private static Map<String, String> watched() {
        var out = new TreeMap<String, String>();
        out.put(VolcanoApi.PODGROUP_CRD, VolcanoApi.SCHEDULING_VERSION);
        out.put(VolcanoApi.QUEUE_CRD, VolcanoApi.SCHEDULING_VERSION);
        out.put(VolcanoApi.HYPERNODE_CRD, VolcanoApi.TOPOLOGY_VERSION);
        out.put(Autoscaler.AIBRIX_CRD, Autoscaler.AIBRIX_VERSION);
        Arrays.stream(WorkloadKind.values())
                .filter(WorkloadKind::custom)
                .forEach(k -> out.put(k.crdName(), k.version()));
        return Map.copyOf(out);
    }

    public static boolean isWatched(String crdName) {
        return WATCHED.containsKey(crdName);
    }

    /** One GET per watched CRD; a failure leaves that CRD unknown (absent) until the watch reports it. */
    public void seed() {
        for (String name : WATCHED.keySet()) {
            try {
                CustomResourceDefinition crd = client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(name)
                        .get();
                update(name, crd);
            } catch (KubernetesClientException e) {
                LOG.warnf("cannot read CustomResourceDefinition %s: %s", name, e.getMessage());
            }
        }
    }

    /** Records the current state of a watched CRD ({@code null}: deleted) and tells listeners on change. */
    public void update(String crdName, CustomResourceDefinition crd) {
        if (!isWatched(crdName)) {
            return;
        }
        boolean now =
                crd != null && crd.getMetadata().getDeletionTimestamp() == null && serves(crd, WATCHED.get(crdName));
        Boolean before = installed.put(crdName, now);
        if (before == null || before != now) {
            LOG.infof("CustomResourceDefinition %s %s", crdName, now ? "is installed" : "is not installed");
            var change = new Change(crdName, now);
            listeners.forEach(l -> l.accept(change));
        }
    }

    private static boolean serves(CustomResourceDefinition crd, String version) {
        return crd.getSpec() != null
                && crd.getSpec().getVersions() != null
                && crd.getSpec().getVersions().stream()
                        .anyMatch(v -> version.equals(v.getName()) && Boolean.TRUE.equals(v.getServed()));
    }

    public boolean installed(String crdName) {
        return installed.getOrDefault(crdName, false);
    }

    public boolean installed(WorkloadKind kind) {
        return !kind.custom() || installed(kind.crdName());
    }

    /** Workload kinds that can be managed now. */
    public Set<WorkloadKind> managedKinds() {
        return Stream.of(WorkloadKind.values())
                .filter(k -> k != WorkloadKind.REPLICA_SET)
                .filter(this::installed)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** Watched CRDs and whether each is installed, for health details and the status API. */
    public Map<String, Boolean> snapshot() {
        var out = new TreeMap<String, Boolean>();
        WATCHED.keySet().forEach(name -> out.put(name, installed(name)));
        return out;
    }

    public void addListener(Consumer<Change> listener) {
        listeners.add(listener);
    }
}

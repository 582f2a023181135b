package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.topobridge.apply.RecentObjects;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.process.ProcessPart;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.Queue;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The controller's {@link WorkloadLookup}: informer caches of every installed workload kind (a custom kind's
 * informer starts when its CRD appears and stops when it goes), a metadata-only ReplicaSet cache (to follow a
 * pod to its Deployment), Volcano's PodGroups and Queues, Namespaces (their opt-in label and queue policy),
 * ResourceQuotas (what a namespace's PodGroups may reserve together), autoscalers (HorizontalPodAutoscalers, and
 * AIBrix's PodAutoscalers where their CRD is installed: how far a gang may grow), and the ResourceClaimTemplates and
 * ResourceClaims pods claim DRA devices from (optional: Kubernetes 1.34 and later). PodGroups are shown with the bridge's own
 * writes the cache has not caught up with ({@link RecentObjects}): a PodGroup just created counts at once. Objects
 * handed out are cached objects: callers read them and never change them. Shared by the workload controller and
 * the pod admission webhook.
 */
@ApplicationScoped
public class WorkloadCaches implements WorkloadLookup, ProcessPart {

    private static final Logger LOG = Logger.getLogger(WorkloadCaches.class);

    /** What changed in a cache: {@code kind} is the workload kind, or "PodGroup", "Queue", "Namespace". */
    public record Change(String kind, HasMetadata before, HasMetadata after) {
        /** The object as it is now, or as it was when deleted. */
        public HasMetadata object() {
            return after != null ? after : before;
        }
    }

    private final KubernetesClient client;
    private final KindRegistry kinds;
    private final RecentObjects recent;

    // Thread safety: the caches are read from the webhook's event loop, the reconciler's worker and REST threads,
    // while start, stop and CRD changes replace informers under this object's lock. Readers never take the lock:
    // the informer references are volatile and the map of workload informers is an immutable snapshot replaced as
    // a whole (copy on write), so a reader sees either the old or the new informer, fully constructed. An
    // informer's store is itself safe for concurrent reads. failures and started are only
    // touched under the lock.
    private volatile Map<WorkloadKind, SharedIndexInformer<? extends HasMetadata>> informers = Map.of();
    private final Map<WorkloadKind, Throwable> failures = new EnumMap<>(WorkloadKind.class);
    private volatile SharedIndexInformer<PodGroup> podGroupInformer;
    private volatile SharedIndexInformer<Queue> queueInformer;
    private volatile SharedIndexInformer<Namespace> namespaceInformer;
    private volatile SharedIndexInformer<ResourceQuota> quotaInformer;
    private volatile SharedIndexInformer<HorizontalPodAutoscaler> hpaInformer;
    private volatile SharedIndexInformer<GenericKubernetesResource> podAutoscalerInformer;
    private volatile SharedIndexInformer<ResourceClaimTemplate> claimTemplateInformer;
    private volatile SharedIndexInformer<ResourceClaim> claimInformer;
    /** Why DRA objects cannot be cached (their API is not served, or access is denied), or null. */
    private volatile String claimsFailure;

    private final List<Consumer<Change>> listeners = new CopyOnWriteArrayList<>();
    private boolean started;

    public WorkloadCaches(KubernetesClient client, KindRegistry kinds, RecentObjects recent) {
        this.client = client;
        this.kinds = kinds;
        this.recent = recent;
    }

    /** The bridge's writes the caches may not show yet, overlaid on what they hand out. */
    public RecentObjects recent() {
        return recent;
    }

    /** Hears every cache change (informer threads; keep it quick). */
    public void addListener(Consumer<Change> listener) {
        listeners.add(listener);
    }

    @Override
    public String name() {
        return "workload-caches";
    }

    @Override
    public Role role() {
        return Role.EVERY_REPLICA;
    }

    /** Starts the informers of every installed kind; idempotent, never blocks for the initial lists. */
    @Override
    public synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        for (WorkloadKind kind : WorkloadKind.values()) {
            if (kinds.installed(kind)) {
                startKind(kind);
            }
        }
        if (kinds.installed(VolcanoApi.PODGROUP_CRD)) {
            startPodGroups();
        }
        if (kinds.installed(VolcanoApi.QUEUE_CRD)) {
            startQueues();
        }
        namespaceInformer = startInformer("Namespace", client.namespaces().runnableInformer(0), null);
        quotaInformer = startInformer(
                "ResourceQuota", client.resourceQuotas().inAnyNamespace().runnableInformer(0), null);
        hpaInformer = startInformer(
                Autoscaler.HPA_KIND,
                client.autoscaling()
                        .v2()
                        .horizontalPodAutoscalers()
                        .inAnyNamespace()
                        .runnableInformer(0),
                null);
        if (kinds.installed(Autoscaler.AIBRIX_CRD)) {
            startPodAutoscalers();
        }
        claimsFailure = null;
        claimTemplateInformer = startClaimInformer(
                "ResourceClaimTemplate",
                client.resources(ResourceClaimTemplate.class).inAnyNamespace().runnableInformer(0));
        claimInformer = startClaimInformer(
                "ResourceClaim",
                client.resources(ResourceClaim.class).inAnyNamespace().runnableInformer(0));
        kinds.addListener(this::onCrdChange);
    }

    /**
     * A cache of DRA objects ({@code resource.k8s.io/v1}, Kubernetes 1.34 and later): optional, its failure (an older
     * cluster, RBAC without them) holds nothing back and is said in the findings of gangs that claim devices.
     */
    private <T extends HasMetadata> SharedIndexInformer<T> startClaimInformer(
            String kind, SharedIndexInformer<T> informer) {
        return startInformer(
                kind,
                informer,
                null,
                error -> claimsFailure = "resource.k8s.io/v1 " + kind + "s cannot be listed ("
                        + io.topobridge.core.finding.UserText.excerpt(error.getMessage()) + ")");
    }

    private synchronized void onCrdChange(KindRegistry.Change change) {
        if (!started) {
            return;
        }
        for (WorkloadKind kind : WorkloadKind.values()) {
            if (kind.custom() && kind.crdName().equals(change.crdName())) {
                if (change.installed() && !informers.containsKey(kind)) {
                    LOG.infof("CustomResourceDefinition %s appeared: caching %s", change.crdName(), kind.kind());
                    startKind(kind);
                } else if (!change.installed() && informers.containsKey(kind)) {
                    LOG.infof(
                            "CustomResourceDefinition %s went away: no longer caching %s",
                            change.crdName(), kind.kind());
                    SharedIndexInformer<? extends HasMetadata> gone = informers.get(kind);
                    informers = without(informers, kind);
                    gone.stop();
                    failures.remove(kind);
                }
            }
        }
        if (VolcanoApi.PODGROUP_CRD.equals(change.crdName())) {
            if (change.installed() && podGroupInformer == null) {
                startPodGroups();
            } else if (!change.installed() && podGroupInformer != null) {
                podGroupInformer.stop();
                podGroupInformer = null;
            }
        }
        if (Autoscaler.AIBRIX_CRD.equals(change.crdName())) {
            if (change.installed() && podAutoscalerInformer == null) {
                startPodAutoscalers();
            } else if (!change.installed() && podAutoscalerInformer != null) {
                podAutoscalerInformer.stop();
                podAutoscalerInformer = null;
            }
        }
        if (VolcanoApi.QUEUE_CRD.equals(change.crdName())) {
            if (change.installed() && queueInformer == null) {
                startQueues();
            } else if (!change.installed() && queueInformer != null) {
                queueInformer.stop();
                queueInformer = null;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void startKind(WorkloadKind kind) {
        SharedIndexInformer<? extends HasMetadata> informer = kind.custom()
                ? client.genericKubernetesResources(new ResourceDefinitionContext.Builder()
                                .withGroup(kind.group())
                                .withVersion(kind.version())
                                .withKind(kind.kind())
                                .withPlural(kind.plural())
                                .withNamespaced(true)
                                .build())
                        .inAnyNamespace()
                        .runnableInformer(0)
                : client.resources(kind.type()).inAnyNamespace().runnableInformer(0);
        if (kind == WorkloadKind.REPLICA_SET) {
            // only followed from a pod to its Deployment: the owner chain is all that is kept
            ((SharedIndexInformer<HasMetadata>) informer).itemStore(new MetadataOnlyStore<>());
        }
        var next = new EnumMap<WorkloadKind, SharedIndexInformer<? extends HasMetadata>>(WorkloadKind.class);
        next.putAll(informers);
        next.put(kind, startInformer(kind.kind(), informer, kind));
        informers = Collections.unmodifiableMap(next);
    }

    private static Map<WorkloadKind, SharedIndexInformer<? extends HasMetadata>> without(
            Map<WorkloadKind, SharedIndexInformer<? extends HasMetadata>> map, WorkloadKind kind) {
        var next = new EnumMap<WorkloadKind, SharedIndexInformer<? extends HasMetadata>>(WorkloadKind.class);
        next.putAll(map);
        next.remove(kind);
        return Collections.unmodifiableMap(next);
    }

    private void startPodGroups() {
        podGroupInformer = startInformer(
                "PodGroup", client.resources(PodGroup.class).inAnyNamespace().runnableInformer(0), null);
    }

    private void startPodAutoscalers() {
        podAutoscalerInformer = startInformer(
                Autoscaler.AIBRIX_KIND,
                client.genericKubernetesResources(new ResourceDefinitionContext.Builder()
                                .withGroup(Autoscaler.AIBRIX_GROUP)
                                .withVersion(Autoscaler.AIBRIX_VERSION)
                                .withKind(Autoscaler.AIBRIX_KIND)
                                .withPlural(Autoscaler.AIBRIX_PLURAL)
                                .withNamespaced(true)
                                .build())
                        .inAnyNamespace()
                        .runnableInformer(0),
                null);
    }

    private void startQueues() {
        queueInformer = startInformer("Queue", client.resources(Queue.class).runnableInformer(0), null);
    }

    private <T extends HasMetadata> SharedIndexInformer<T> startInformer(
            String kind, SharedIndexInformer<T> informer, WorkloadKind workloadKind) {
        return startInformer(kind, informer, workloadKind, error -> {});
    }

    private <T extends HasMetadata> SharedIndexInformer<T> startInformer(
            String kind, SharedIndexInformer<T> informer, WorkloadKind workloadKind, Consumer<Throwable> failed) {
        informer.addEventHandler(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
                fire(new Change(kind, null, obj));
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                fire(new Change(kind, oldObj, newObj));
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                fire(new Change(kind, obj, null));
            }
        });
        informer.start().whenComplete((ok, error) -> {
            if (error != null) {
                LOG.warnf("cannot cache %s: %s", kind, error.getMessage());
                failed.accept(error);
                if (workloadKind != null) {
                    synchronized (this) {
                        failures.put(workloadKind, error);
                    }
                }
            }
        });
        return informer;
    }

    private void fire(Change change) {
        for (Consumer<Change> listener : listeners) {
            try {
                listener.accept(change);
            } catch (RuntimeException e) {
                LOG.warnf(e, "cache listener failed on %s", change.kind());
            }
        }
    }

    @Override
    public synchronized void stop() {
        informers.values().forEach(SharedIndexInformer::stop);
        informers = Map.of();
        for (SharedIndexInformer<?> informer : new SharedIndexInformer<?>[] {
            podGroupInformer,
            queueInformer,
            namespaceInformer,
            quotaInformer,
            hpaInformer,
            podAutoscalerInformer,
            claimTemplateInformer,
            claimInformer
        }) {
            if (informer != null) {
                informer.stop();
            }
        }
        claimTemplateInformer = null;
        claimInformer = null;
        podGroupInformer = null;
        queueInformer = null;
        namespaceInformer = null;
        quotaInformer = null;
        hpaInformer = null;
        podAutoscalerInformer = null;
        started = false;
    }

    /**
     * Ready once every cache of a required kind (built-in kinds, PodGroups, Queues, Namespaces) has its initial
     * list; an optional kind that is missing or cannot be listed never holds readiness back.
     */
    @Override
    public synchronized boolean ready() {
        if (!started) {
            return false;
        }
        for (var e : informers.entrySet()) {
            if (!e.getKey().custom() && !e.getValue().hasSynced()) {
                return false;
            }
        }
        for (SharedIndexInformer<?> informer :
                new SharedIndexInformer<?>[] {podGroupInformer, queueInformer, namespaceInformer, quotaInformer}) {
            if (informer != null && !informer.hasSynced()) {
                return false;
            }
        }
        return true;
    }

    /** Whether every cache a full reconciliation reads (optional kinds included) has its initial list. */
    public synchronized boolean synced() {
        return ready()
                && informers.entrySet().stream()
                        .allMatch(e -> e.getValue().hasSynced() || failures.containsKey(e.getKey()));
    }

    @Override
    public synchronized Map<String, Object> details() {
        Map<String, Object> out = new TreeMap<>();
        informers.forEach((kind, informer) -> out.put(
                "cache." + kind.kind(),
                failures.containsKey(kind)
                        ? "failed: " + failures.get(kind).getMessage()
                        : informer.hasSynced() ? informer.getStore().list().size() : "syncing"));
        if (podGroupInformer != null) {
            out.put(
                    "cache.PodGroup",
                    podGroupInformer.hasSynced()
                            ? podGroupInformer.getStore().list().size()
                            : "syncing");
        }
        return out;
    }

    /** Workload kinds cached now. */
    public synchronized List<WorkloadKind> cachedKinds() {
        return new ArrayList<>(informers.keySet());
    }

    private SharedIndexInformer<? extends HasMetadata> informer(WorkloadKind kind) {
        return informers.get(kind);
    }

    @Override
    public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
        SharedIndexInformer<? extends HasMetadata> informer = informer(kind);
        if (informer == null || name == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(informer.getStore().getByKey(key(namespace, name)));
    }

    @Override
    public List<HasMetadata> list(WorkloadKind kind, String namespace) {
        SharedIndexInformer<? extends HasMetadata> informer = informer(kind);
        if (informer == null) {
            return List.of();
        }
        return List.copyOf(
                namespace == null
                        ? informer.getStore().list()
                        : informer.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace));
    }

    /** Every cached object of a kind, all namespaces. */
    public List<HasMetadata> listAll(WorkloadKind kind) {
        return list(kind, null);
    }

    @Override
    public List<HasMetadata> podGroups(String namespace) {
        SharedIndexInformer<PodGroup> informer = podGroupInformer;
        if (informer == null) {
            return List.of();
        }
        return List.copyOf(recent.current(
                VolcanoApi.PODGROUP_KIND,
                namespace,
                new ArrayList<HasMetadata>(informer.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace)),
                HasMetadata.class));
    }

    /** The PodGroup as it is now (the cached one, or the bridge's later write), or null. */
    public PodGroup podGroup(String namespace, String name) {
        SharedIndexInformer<PodGroup> informer = podGroupInformer;
        return informer == null
                ? null
                : recent.current(
                        VolcanoApi.PODGROUP_KIND,
                        namespace,
                        name,
                        informer.getStore().getByKey(key(namespace, name)),
                        PodGroup.class);
    }

    /** Every PodGroup, as it is now. */
    public List<PodGroup> allPodGroups() {
        SharedIndexInformer<PodGroup> informer = podGroupInformer;
        return informer == null
                ? List.of()
                : List.copyOf(recent.current(
                        VolcanoApi.PODGROUP_KIND,
                        null,
                        new ArrayList<>(informer.getStore().list()),
                        PodGroup.class));
    }

    /** Whether the PodGroup cache has its initial list. */
    public boolean podGroupsSynced() {
        SharedIndexInformer<PodGroup> informer = podGroupInformer;
        return informer != null && informer.hasSynced();
    }

    /** Whether PodGroups can be read and written at all (their CRD is installed and cached). */
    public boolean podGroupsAvailable() {
        return podGroupInformer != null;
    }

    /** Whether Queues are cached (their CRD is installed and listed), so {@link #queue} can be trusted. */
    public boolean queuesKnown() {
        SharedIndexInformer<Queue> informer = queueInformer;
        return informer != null && informer.hasSynced();
    }

    /** Every cached Queue. */
    public List<Queue> allQueues() {
        SharedIndexInformer<Queue> informer = queueInformer;
        return informer == null ? List.of() : List.copyOf(informer.getStore().list());
    }

    /** The cached Queue, if any. */
    public Optional<Queue> queue(String name) {
        SharedIndexInformer<Queue> informer = queueInformer;
        return informer == null
                ? Optional.empty()
                : Optional.ofNullable(informer.getStore().getByKey(name));
    }

    @Override
    public Map<String, String> namespaceAnnotations(String namespace) {
        SharedIndexInformer<Namespace> informer = namespaceInformer;
        Namespace ns = informer == null || namespace == null
                ? null
                : informer.getStore().getByKey(namespace);
        if (ns == null || ns.getMetadata().getAnnotations() == null) {
            return Map.of();
        }
        return new LinkedHashMap<>(ns.getMetadata().getAnnotations());
    }

    /**
     * A namespace's labels: null while namespaces are not cached, empty when the namespace has none or is not (yet)
     * in the cache.
     */
    @Override
    public Map<String, String> namespaceLabels(String namespace) {
        SharedIndexInformer<Namespace> informer = namespaceInformer;
        if (informer == null) {
            return null;
        }
        Namespace ns = namespace == null ? null : informer.getStore().getByKey(namespace);
        if (ns == null || ns.getMetadata().getLabels() == null) {
            return Map.of();
        }
        return new LinkedHashMap<>(ns.getMetadata().getLabels());
    }

    /**
     * The namespace's HorizontalPodAutoscalers and AIBrix PodAutoscalers as cached; an autoscaler not listed yet is
     * judged when it comes (its arrival recomputes the gangs).
     */
    @Override
    public List<HasMetadata> autoscalers(String namespace) {
        List<HasMetadata> out = new ArrayList<>();
        SharedIndexInformer<HorizontalPodAutoscaler> hpas = hpaInformer;
        SharedIndexInformer<GenericKubernetesResource> aibrix = podAutoscalerInformer;
        if (namespace == null) {
            return out;
        }
        if (hpas != null) {
            out.addAll(hpas.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace));
        }
        if (aibrix != null) {
            out.addAll(aibrix.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace));
        }
        return out;
    }

    @Override
    public List<HasMetadata> resourceQuotas(String namespace) {
        SharedIndexInformer<ResourceQuota> informer = quotaInformer;
        return informer == null || namespace == null
                ? List.of()
                : List.copyOf(informer.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace));
    }

    @Override
    public Optional<ResourceClaimTemplate> resourceClaimTemplate(String namespace, String name) {
        SharedIndexInformer<ResourceClaimTemplate> informer = claimTemplateInformer;
        return informer == null || name == null
                ? Optional.empty()
                : Optional.ofNullable(informer.getStore().getByKey(key(namespace, name)));
    }

    @Override
    public Optional<ResourceClaim> resourceClaim(String namespace, String name) {
        SharedIndexInformer<ResourceClaim> informer = claimInformer;
        return informer == null || name == null
                ? Optional.empty()
                : Optional.ofNullable(informer.getStore().getByKey(key(namespace, name)));
    }

    /** Null once both DRA caches hold their initial lists; else why they cannot be trusted. */
    @Override
    public String resourceClaimsUnknown() {
        String failure = claimsFailure;
        if (failure != null) {
            return failure;
        }
        SharedIndexInformer<ResourceClaimTemplate> templates = claimTemplateInformer;
        SharedIndexInformer<ResourceClaim> claims = claimInformer;
        if (templates == null || claims == null) {
            return "ResourceClaimTemplates and ResourceClaims are not cached";
        }
        if (!templates.hasSynced() || !claims.hasSynced()) {
            return "ResourceClaimTemplates and ResourceClaims are still being listed";
        }
        return null;
    }

    private static String key(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }
}

package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.topobridge.apply.RecentObjects;
import io.topobridge.core.OptionalApi;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.UserText;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
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
    // informer's store is itself safe for concurrent reads. started is only touched under the lock; failures is a
    // concurrent map, as an informer's failed start is told on the client's event loop, which must never wait for
    // this lock (start holds it while its calls need that loop).
    private volatile Map<WorkloadKind, SharedIndexInformer<? extends HasMetadata>> informers = Map.of();
    private final Map<WorkloadKind, Throwable> failures = new ConcurrentHashMap<>();
    private volatile SharedIndexInformer<PodGroup> podGroupInformer;
    private volatile SharedIndexInformer<Queue> queueInformer;
    private boolean started;
    private final List<Consumer<WorkloadCaches.Change>> listeners = new CopyOnWriteArrayList<>();
    private volatile SharedIndexInformer<Namespace> namespaceInformer;
    private volatile SharedIndexInformer<ResourceQuota> quotaInformer;
    private volatile SharedIndexInformer<HorizontalPodAutoscaler> hpaInformer;
    private volatile SharedIndexInformer<GenericKubernetesResource> podAutoscalerInformer;
    private volatile SharedIndexInformer<ResourceClaimTemplate> claimTemplateInformer;
    private volatile SharedIndexInformer<ResourceClaim> claimInformer;
    /** Why DRA objects cannot be cached (their API is not served, or access is denied), or null. */
    private volatile String claimsFailure;

    public WorkloadCaches(KubernetesClient client, KindRegistry kinds, RecentObjects recent) {
        this.client = client;
        this.kinds = kinds;
        this.recent = recent;
    }

    /** The bridge's writes the caches may not show yet, overlaid on what they hand out. */
    public RecentObjects recent() {
        return recent;
    }

    @Override
    public String name() {
        return "workload-caches";
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
            podGroupInformer = podGroups();
        }
        if (kinds.installed(VolcanoApi.QUEUE_CRD)) {
            queueInformer = queues();
        }
        namespaceInformer = watch("Namespace", client.namespaces().runnableInformer(0));
        quotaInformer =
                watch("ResourceQuota", client.resourceQuotas().inAnyNamespace().runnableInformer(0));
        hpaInformer = watch(
                Autoscaler.HPA_KIND,
                client.autoscaling()
                        .v2()
                        .horizontalPodAutoscalers()
                        .inAnyNamespace()
                        .runnableInformer(0));
        if (kinds.installed(Autoscaler.AIBRIX_CRD)) {
            podAutoscalerInformer = podAutoscalers();
        }
        startClaims();
        kinds.addListener(this::onCrdChange);
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
                    put(kind, null);
                    gone.stop();
                    failures.remove(kind);
                }
            }
        }
        if (VolcanoApi.PODGROUP_CRD.equals(change.crdName())) {
            podGroupInformer = Informers.follow(change.installed(), podGroupInformer, this::podGroups);
        }
        if (Autoscaler.AIBRIX_CRD.equals(change.crdName())) {
            podAutoscalerInformer = Informers.follow(change.installed(), podAutoscalerInformer, this::podAutoscalers);
        }
        if (VolcanoApi.QUEUE_CRD.equals(change.crdName())) {
            queueInformer = Informers.follow(change.installed(), queueInformer, this::queues);
        }
    }

    /** How the client names a custom workload kind (group, version, kind, plural; namespaced). */
    public static ResourceDefinitionContext definition(WorkloadKind kind) {
        return definition(kind.group(), kind.version(), kind.kind(), kind.plural());
    }

    static ResourceDefinitionContext definition(String group, String version, String kind, String plural) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(true)
                .build();
    }

    @SuppressWarnings("unchecked")
    private void startKind(WorkloadKind kind) {
        SharedIndexInformer<? extends HasMetadata> informer = kind.custom()
                ? client.genericKubernetesResources(definition(kind))
                        .inAnyNamespace()
                        .runnableInformer(0)
                : client.resources(kind.type()).inAnyNamespace().runnableInformer(0);
        if (kind == WorkloadKind.REPLICA_SET) {
            // only followed from a pod to its Deployment: the owner chain is all that is kept
            ((SharedIndexInformer<HasMetadata>) informer).itemStore(new SlimStore<>());
        }
        put(kind, watch(kind.kind(), informer, error -> failures.put(kind, error)));
    }

    /** Replaces the snapshot of workload informers with one where {@code kind} has {@code informer} (null: none). */
    private void put(WorkloadKind kind, SharedIndexInformer<? extends HasMetadata> informer) {
        var next = new EnumMap<WorkloadKind, SharedIndexInformer<? extends HasMetadata>>(WorkloadKind.class);
        next.putAll(informers);
        if (informer == null) {
            next.remove(kind);
        } else {
            next.put(kind, informer);
        }
        informers = Collections.unmodifiableMap(next);
    }

    private SharedIndexInformer<PodGroup> podGroups() {
        return watch(
                "PodGroup", client.resources(PodGroup.class).inAnyNamespace().runnableInformer(0));
    }

    private SharedIndexInformer<Queue> queues() {
        return watch("Queue", client.resources(Queue.class).runnableInformer(0));
    }

    @Override
    public synchronized void stop() {
        informers.values().forEach(SharedIndexInformer::stop);
        informers = Map.of();
        Informers.stop(
                podGroupInformer,
                queueInformer,
                namespaceInformer,
                quotaInformer,
                hpaInformer,
                podAutoscalerInformer,
                claimTemplateInformer,
                claimInformer);
        podGroupInformer = null;
        queueInformer = null;
        namespaceInformer = null;
        quotaInformer = null;
        hpaInformer = null;
        podAutoscalerInformer = null;
        claimTemplateInformer = null;
        claimInformer = null;
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
        return informers.entrySet().stream()
                        .allMatch(e -> e.getKey().custom() || e.getValue().hasSynced())
                && Informers.listed(podGroupInformer, queueInformer, namespaceInformer, quotaInformer);
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
                            ? Informers.list(podGroupInformer).size()
                            : "syncing");
        }
        return out;
    }

    public synchronized List<WorkloadKind> cachedKinds() {
        return new ArrayList<>(informers.keySet());
    }

    @Override
    public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
        return Optional.ofNullable(Informers.get(informers.get(kind), namespace, name));
    }

    /** Every cached object of a kind in a namespace (null: all namespaces). */
    @Override
    public List<HasMetadata> list(WorkloadKind kind, String namespace) {
        SharedIndexInformer<? extends HasMetadata> informer = informers.get(kind);
        return List.copyOf(namespace == null ? Informers.list(informer) : Informers.inNamespace(informer, namespace));
    }

    @Override
    public List<HasMetadata> podGroups(String namespace) {
        SharedIndexInformer<PodGroup> informer = podGroupInformer;
        return informer == null
                ? List.of()
                : List.copyOf(recent.current(
                        VolcanoApi.PODGROUP_KIND,
                        namespace,
                        new ArrayList<HasMetadata>(Informers.inNamespace(informer, namespace)),
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
                        Informers.get(informer, namespace, name),
                        PodGroup.class);
    }

    /** Every PodGroup, as it is now. */
    public List<PodGroup> allPodGroups() {
        SharedIndexInformer<PodGroup> informer = podGroupInformer;
        return informer == null
                ? List.of()
                : List.copyOf(recent.current(
                        VolcanoApi.PODGROUP_KIND, null, new ArrayList<>(Informers.list(informer)), PodGroup.class));
    }

    /** Whether the PodGroup cache has its initial list. */
    public boolean podGroupsSynced() {
        return Informers.synced(podGroupInformer);
    }

    /** Whether PodGroups can be read and written at all (their CRD is installed and cached). */
    public boolean podGroupsAvailable() {
        return podGroupInformer != null;
    }

    /** Whether Queues are cached (their CRD is installed and listed), so {@link #allQueues} can be trusted. */
    public boolean queuesKnown() {
        return Informers.synced(queueInformer);
    }

    public List<Queue> allQueues() {
        return List.copyOf(Informers.list(queueInformer));
    }

    // ---- the listeners, and the caches of what a namespace allows its gangs ----------------------------------

    /** Hears every change in any of the caches (informer threads; keep it quick). */
    public void addListener(Consumer<Change> listener) {
        listeners.add(listener);
    }

    /** Starts {@code informer} (never blocks), telling the listeners of its every change; a failed start is logged. */
    private <T extends HasMetadata> SharedIndexInformer<T> watch(String kind, SharedIndexInformer<T> informer) {
        return watch(kind, informer, error -> {});
    }

    /** As {@link #watch(String, SharedIndexInformer)}, handing a failed start to {@code failed}. */
    private <T extends HasMetadata> SharedIndexInformer<T> watch(
            String kind, SharedIndexInformer<T> informer, Consumer<Throwable> failed) {
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

    /**
     * The caches of DRA objects ({@code resource.k8s.io/v1}, Kubernetes 1.34 and later): optional, their failure (an
     * older cluster, RBAC without them) holds nothing back and is said in the findings of gangs that claim devices.
     */
    private void startClaims() {
        claimsFailure = null;
        if (ServedApis.missing(client, OptionalApi.DRA)) {
            // an informer on a group the server lacks fails with a stack trace; one line says what is off instead
            LOG.info(OptionalApi.DRA.missing());
            claimsFailure = OptionalApi.DRA.notServed();
            return;
        }
        claimTemplateInformer = claims("ResourceClaimTemplate", client.resources(ResourceClaimTemplate.class));
        claimInformer = claims("ResourceClaim", client.resources(ResourceClaim.class));
    }

    private <T extends HasMetadata> SharedIndexInformer<T> claims(String kind, MixedOperation<T, ?, ?> resources) {
        return watch(
                kind,
                resources.inAnyNamespace().runnableInformer(0),
                error -> claimsFailure = "resource.k8s.io/v1 " + kind + "s cannot be listed ("
                        + UserText.excerpt(error.getMessage()) + ")");
    }

    private SharedIndexInformer<GenericKubernetesResource> podAutoscalers() {
        return watch(
                Autoscaler.AIBRIX_KIND,
                client.genericKubernetesResources(definition(
                                Autoscaler.AIBRIX_GROUP,
                                Autoscaler.AIBRIX_VERSION,
                                Autoscaler.AIBRIX_KIND,
                                Autoscaler.AIBRIX_PLURAL))
                        .inAnyNamespace()
                        .runnableInformer(0));
    }

    @Override
    public Map<String, String> namespaceAnnotations(String namespace) {
        SharedIndexInformer<Namespace> informer = namespaceInformer;
        return informer == null ? Map.of() : namespaceMeta(informer, namespace, ObjectMeta::getAnnotations);
    }

    /**
     * A namespace's labels: null while namespaces are not cached, empty when the namespace has none or is not (yet)
     * in the cache.
     */
    @Override
    public Map<String, String> namespaceLabels(String namespace) {
        SharedIndexInformer<Namespace> informer = namespaceInformer;
        return informer == null ? null : namespaceMeta(informer, namespace, ObjectMeta::getLabels);
    }

    /** A copy of that part of the cached namespace's metadata; empty when it has none or is not (yet) cached. */
    private static Map<String, String> namespaceMeta(
            SharedIndexInformer<Namespace> informer, String namespace, Function<ObjectMeta, Map<String, String>> part) {
        Namespace ns = namespace == null ? null : informer.getStore().getByKey(namespace);
        Map<String, String> found = ns == null ? null : part.apply(ns.getMetadata());
        return found == null ? Map.of() : new LinkedHashMap<>(found);
    }

    /**
     * The namespace's HorizontalPodAutoscalers and AIBrix PodAutoscalers as cached; an autoscaler not listed yet is
     * judged when it comes (its arrival recomputes the gangs).
     */
    @Override
    public List<HasMetadata> autoscalers(String namespace) {
        List<HasMetadata> out = new ArrayList<>();
        if (namespace != null) {
            out.addAll(Informers.inNamespace(hpaInformer, namespace));
            out.addAll(Informers.inNamespace(podAutoscalerInformer, namespace));
        }
        return out;
    }

    @Override
    public List<HasMetadata> resourceQuotas(String namespace) {
        return namespace == null ? List.of() : List.copyOf(Informers.inNamespace(quotaInformer, namespace));
    }

    @Override
    public Optional<ResourceClaimTemplate> resourceClaimTemplate(String namespace, String name) {
        return Optional.ofNullable(Informers.get(claimTemplateInformer, namespace, name));
    }

    @Override
    public Optional<ResourceClaim> resourceClaim(String namespace, String name) {
        return Optional.ofNullable(Informers.get(claimInformer, namespace, name));
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
}

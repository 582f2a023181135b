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
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.topobridge.core.OptionalApi;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.WorkloadLookup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The part of {@link WorkloadCaches} that says what a namespace allows its gangs: Namespaces (their opt-in label and
 * queue policy), ResourceQuotas, autoscalers (HorizontalPodAutoscalers, and AIBrix's PodAutoscalers where their CRD is
 * installed) and the ResourceClaimTemplates and ResourceClaims pods claim DRA devices from; and the listeners that hear
 * of every change in any cache. Started, stopped and guarded by the subclass's lock; read without it (the informer
 * references are volatile).
 */
abstract class NamespaceCaches implements WorkloadLookup {

    private static final Logger LOG = Logger.getLogger(WorkloadCaches.class);
    /** Set by the subclass's constructor (a CDI bean's superclass keeps a constructor without parameters). */
    KubernetesClient client;

    private final List<Consumer<WorkloadCaches.Change>> listeners = new CopyOnWriteArrayList<>();
    private volatile SharedIndexInformer<Namespace> namespaceInformer;
    private volatile SharedIndexInformer<ResourceQuota> quotaInformer;
    private volatile SharedIndexInformer<HorizontalPodAutoscaler> hpaInformer;
    private volatile SharedIndexInformer<GenericKubernetesResource> podAutoscalerInformer;
    private volatile SharedIndexInformer<ResourceClaimTemplate> claimTemplateInformer;
    private volatile SharedIndexInformer<ResourceClaim> claimInformer;
    /** Why DRA objects cannot be cached (their API is not served, or access is denied), or null. */
    private volatile String claimsFailure;

    /** Hears every change in any of the caches (informer threads; keep it quick). */
    public void addListener(Consumer<WorkloadCaches.Change> listener) {
        listeners.add(listener);
    }

    /**
     * Starts {@code informer} (never blocks), telling the listeners of its every change; a failed start is logged and
     * handed to {@code failed}.
     */
    <T extends HasMetadata> SharedIndexInformer<T> watch(
            String kind, SharedIndexInformer<T> informer, Consumer<Throwable> failed) {
        informer.addEventHandler(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
                fire(new WorkloadCaches.Change(kind, null, obj));
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                fire(new WorkloadCaches.Change(kind, oldObj, newObj));
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                fire(new WorkloadCaches.Change(kind, obj, null));
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

    private void fire(WorkloadCaches.Change change) {
        for (Consumer<WorkloadCaches.Change> listener : listeners) {
            try {
                listener.accept(change);
            } catch (RuntimeException e) {
                LOG.warnf(e, "cache listener failed on %s", change.kind());
            }
        }
    }

    void startNamespaceCaches(boolean podAutoscalersInstalled) {
        namespaceInformer = watch("Namespace", client.namespaces().runnableInformer(0), error -> {});
        quotaInformer =
                watch("ResourceQuota", client.resourceQuotas().inAnyNamespace().runnableInformer(0), error -> {});
        hpaInformer = watch(
                Autoscaler.HPA_KIND,
                client.autoscaling()
                        .v2()
                        .horizontalPodAutoscalers()
                        .inAnyNamespace()
                        .runnableInformer(0),
                error -> {});
        if (podAutoscalersInstalled) {
            podAutoscalerInformer = podAutoscalers();
        }
        claimsFailure = null;
        if (ServedApis.missing(client, OptionalApi.DRA)) {
            // an informer on a group the server lacks fails with a stack trace; one line says what is off instead
            LOG.info(OptionalApi.DRA.missing());
            claimsFailure = OptionalApi.DRA.notServed();
            return;
        }
        claimTemplateInformer = startClaims(
                "ResourceClaimTemplate",
                client.resources(ResourceClaimTemplate.class).inAnyNamespace().runnableInformer(0));
        claimInformer = startClaims(
                "ResourceClaim",
                client.resources(ResourceClaim.class).inAnyNamespace().runnableInformer(0));
    }

    /**
     * A cache of DRA objects ({@code resource.k8s.io/v1}, Kubernetes 1.34 and later): optional, its failure (an older
     * cluster, RBAC without them) holds nothing back and is said in the findings of gangs that claim devices.
     */
    private <T extends HasMetadata> SharedIndexInformer<T> startClaims(String kind, SharedIndexInformer<T> informer) {
        return watch(
                kind,
                informer,
                error -> claimsFailure = "resource.k8s.io/v1 " + kind + "s cannot be listed ("
                        + UserText.excerpt(error.getMessage()) + ")");
    }

    /** AIBrix's PodAutoscaler CRD appeared or went away. */
    void podAutoscalersInstalled(boolean installed) {
        podAutoscalerInformer = Informers.follow(installed, podAutoscalerInformer, this::podAutoscalers);
    }

    private SharedIndexInformer<GenericKubernetesResource> podAutoscalers() {
        return watch(
                Autoscaler.AIBRIX_KIND,
                client.genericKubernetesResources(WorkloadCaches.definition(
                                Autoscaler.AIBRIX_GROUP,
                                Autoscaler.AIBRIX_VERSION,
                                Autoscaler.AIBRIX_KIND,
                                Autoscaler.AIBRIX_PLURAL))
                        .inAnyNamespace()
                        .runnableInformer(0),
                error -> {});
    }

    void stopNamespaceCaches() {
        Informers.stop(
                namespaceInformer,
                quotaInformer,
                hpaInformer,
                podAutoscalerInformer,
                claimTemplateInformer,
                claimInformer);
        claimTemplateInformer = null;
        claimInformer = null;
        namespaceInformer = null;
        quotaInformer = null;
        hpaInformer = null;
        podAutoscalerInformer = null;
    }

    /** Whether the required caches (Namespaces, ResourceQuotas) have their initial lists. */
    boolean namespaceCachesReady() {
        return Informers.listed(namespaceInformer, quotaInformer);
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

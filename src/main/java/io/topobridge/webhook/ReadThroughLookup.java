package io.topobridge.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.apply.RecentObjects;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The caches admission reads, with one live GET when an object is missing from them. A controller creates its
 * PodGroup or its pods right after creating their owner (AIBrix's RoleSet, LWS's leader StatefulSet), often
 * before the owner's watch event has reached the cache: without the read, that first write would pass untouched.
 * A miss costs one request to the API server, made on the webhook server's worker thread and bounded by the
 * client's request timeout (the API server stops waiting at the webhook's {@code timeoutSeconds} and, with failure
 * policy Ignore, lets the object pass); a failed read is a miss, as before. An object read live is kept in the same
 * {@link RecentObjects} the writer uses, so it is listed too (the members of a {@code topobridge.io/group} are
 * listed, and a Deployment created with its partner a moment ago must count) until the cache has it.
 */
final class ReadThroughLookup implements WorkloadLookup {

    private static final Logger LOG = Logger.getLogger(ReadThroughLookup.class);

    private final WorkloadLookup cached;
    private final KubernetesClient client;
    private final RecentObjects recent;

    ReadThroughLookup(WorkloadLookup cached, KubernetesClient client) {
        this(cached, client, cached instanceof WorkloadCaches caches ? caches.recent() : new RecentObjects());
    }

    ReadThroughLookup(WorkloadLookup cached, KubernetesClient client, RecentObjects recent) {
        this.cached = cached;
        this.client = client;
        this.recent = recent;
    }

    @Override
    public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
        Optional<HasMetadata> hit = cached.get(kind, namespace, name);
        if (hit.isPresent() || namespace == null || name == null) {
            return hit;
        }
        HasMetadata known = recent.current(kind.kind(), namespace, name, null, HasMetadata.class);
        if (known != null) {
            return Optional.of(known);
        }
        try {
            HasMetadata live = kind.custom()
                    ? client.genericKubernetesResources(kind.apiVersion(), kind.kind())
                            .inNamespace(namespace)
                            .withName(name)
                            .get()
                    : client.resources(kind.type())
                            .inNamespace(namespace)
                            .withName(name)
                            .get();
            if (live != null) {
                LOG.debugf("%s %s/%s read from the API server: not in the cache yet", kind.kind(), namespace, name);
                recent.read(live);
            }
            return Optional.ofNullable(live);
        } catch (KubernetesClientException e) {
            LOG.debugf(
                    "%s %s/%s is not cached and could not be read: %s", kind.kind(), namespace, name, e.getMessage());
            return Optional.empty();
        }
    }

    /** The cache's objects, plus those read live a moment ago that it does not hold yet. */
    @Override
    public List<HasMetadata> list(WorkloadKind kind, String namespace) {
        return recent.current(kind.kind(), namespace, cached.list(kind, namespace), HasMetadata.class);
    }

    @Override
    public List<HasMetadata> podGroups(String namespace) {
        return cached.podGroups(namespace);
    }

    @Override
    public Map<String, String> namespaceAnnotations(String namespace) {
        return cached.namespaceAnnotations(namespace);
    }

    @Override
    public Map<String, String> namespaceLabels(String namespace) {
        return cached.namespaceLabels(namespace);
    }

    @Override
    public List<HasMetadata> resourceQuotas(String namespace) {
        return cached.resourceQuotas(namespace);
    }

    @Override
    public Optional<io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate> resourceClaimTemplate(
            String namespace, String name) {
        return cached.resourceClaimTemplate(namespace, name);
    }

    @Override
    public Optional<io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim> resourceClaim(
            String namespace, String name) {
        return cached.resourceClaim(namespace, name);
    }

    @Override
    public String resourceClaimsUnknown() {
        return cached.resourceClaimsUnknown();
    }

    @Override
    public TierDomains domains() {
        return cached.domains();
    }
}

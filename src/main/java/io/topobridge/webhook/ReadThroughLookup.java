package io.topobridge.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.diagnosis.TierDomains;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The caches admission reads, with one live GET when an object is missing from them. A controller creates its
 * PodGroup or its pods right after creating their owner (AIBrix's RoleSet, LWS's leader StatefulSet), often
 * before the owner's watch event has reached the cache: without the read, that first write would pass untouched.
 * A miss costs one request to the API server, made on the webhook server's worker thread and bounded by the
 * client's request timeout (the API server stops waiting at the webhook's {@code timeoutSeconds} and, with failure
 * policy Ignore, lets the object pass); a failed read is a miss, as before.
 */
final class ReadThroughLookup implements WorkloadLookup {

    private static final Logger LOG = Logger.getLogger(ReadThroughLookup.class);

    private final WorkloadLookup cached;
    private final KubernetesClient client;

    ReadThroughLookup(WorkloadLookup cached, KubernetesClient client) {
        this.cached = cached;
        this.client = client;
    }

    @Override
    public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
        Optional<HasMetadata> hit = cached.get(kind, namespace, name);
        if (hit.isPresent() || namespace == null || name == null) {
            return hit;
        }
        try {
            HasMetadata live = kind.custom()
                    ? client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inNamespace(namespace)
                            .withName(name).get()
                    : client.resources(kind.type()).inNamespace(namespace).withName(name).get();
            if (live != null) {
                LOG.debugf("%s %s/%s read from the API server: not in the cache yet", kind.kind(), namespace, name);
            }
            return Optional.ofNullable(live);
        } catch (KubernetesClientException e) {
            LOG.debugf("%s %s/%s is not cached and could not be read: %s", kind.kind(), namespace, name,
                    e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public List<HasMetadata> list(WorkloadKind kind, String namespace) {
        return cached.list(kind, namespace);
    }

    @Override
    public List<HasMetadata> podGroups(String namespace) {
        return cached.podGroups(namespace);
    }

    @Override
    public TierDomains domains() {
        return cached.domains();
    }
}

package io.topobridge.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.core.diagnosis.TierDomains;
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
 * policy Ignore, lets the object pass); a failed read is a miss, as before.
 */
final class ReadThroughLookup implements WorkloadLookup {

    private static final Logger LOG = Logger.getLogger(ReadThroughLookup.class);

    /** How long an object read live also shows in lists, while the cache catches up. */
    static final long REMEMBER_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);

    private static final int MAX_REMEMBERED = 1024;

    private final WorkloadLookup cached;
    private final KubernetesClient client;
    /** Objects read live, by kind, namespace and name, with when they were read (nanoTime). */
    private final java.util.concurrent.ConcurrentMap<String, Fetched> fetched =
            new java.util.concurrent.ConcurrentHashMap<>();

    private final java.util.function.LongSupplier clock;

    private record Fetched(WorkloadKind kind, String namespace, HasMetadata object, long at) {}

    ReadThroughLookup(WorkloadLookup cached, KubernetesClient client) {
        this(cached, client, System::nanoTime);
    }

    ReadThroughLookup(WorkloadLookup cached, KubernetesClient client, java.util.function.LongSupplier clock) {
        this.cached = cached;
        this.client = client;
        this.clock = clock;
    }

    @Override
    public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
        Optional<HasMetadata> hit = cached.get(kind, namespace, name);
        if (hit.isPresent() || namespace == null || name == null) {
            return hit;
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
                if (fetched.size() >= MAX_REMEMBERED) {
                    fetched.clear();
                }
                fetched.put(kind + "/" + namespace + "/" + name, new Fetched(kind, namespace, live, clock.getAsLong()));
            }
            return Optional.ofNullable(live);
        } catch (KubernetesClientException e) {
            LOG.debugf(
                    "%s %s/%s is not cached and could not be read: %s", kind.kind(), namespace, name, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The cache's objects, plus those read live a moment ago that it does not hold yet: the members of a
     * {@code topobridge.io/group} are listed, and a Deployment created with its partner a moment ago must count.
     */
    @Override
    public List<HasMetadata> list(WorkloadKind kind, String namespace) {
        List<HasMetadata> base = cached.list(kind, namespace);
        if (fetched.isEmpty()) {
            return base;
        }
        long now = clock.getAsLong();
        List<HasMetadata> out = null;
        for (var entry : fetched.entrySet()) {
            Fetched f = entry.getValue();
            if (now - f.at() > REMEMBER_NANOS) {
                fetched.remove(entry.getKey(), f);
                continue;
            }
            if (f.kind() != kind || namespace != null && !namespace.equals(f.namespace())) {
                continue;
            }
            String name = f.object().getMetadata().getName();
            if (base.stream()
                    .anyMatch(o -> name.equals(o.getMetadata().getName())
                            && java.util.Objects.equals(o.getMetadata().getNamespace(), f.namespace()))) {
                fetched.remove(entry.getKey(), f); // the cache has it now
                continue;
            }
            if (out == null) {
                out = new java.util.ArrayList<>(base);
            }
            out.add(f.object());
        }
        return out == null ? base : out;
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
    public TierDomains domains() {
        return cached.domains();
    }
}

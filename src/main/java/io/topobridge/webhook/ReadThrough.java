package io.topobridge.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.apply.RecentObjects;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import io.vertx.core.Context;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * What admission reads past its caches: one live GET when an object is missing from them. A controller creates its
 * PodGroup or its pods right after creating their owner (AIBrix's RoleSet, LWS's leader StatefulSet), often
 * before the owner's watch event has reached the cache: without the read, that first write would pass untouched.
 * A miss costs one request to the API server, bounded by the client's request timeout (the API server stops waiting at the webhook's {@code timeoutSeconds} and, with failure
 * policy Ignore, lets the object pass); a failed read is a miss, as before. An object read live is kept in the same
 * {@link RecentObjects} the writer uses, so it is listed too (the members of a {@code topobridge.io/group} are
 * listed, and a Deployment created with its partner a moment ago must count) until the cache has it.
 */
final class ReadThrough implements WorkloadLookup.Recent {

    private static final Logger LOG = Logger.getLogger(ReadThrough.class);

    /**
     * Thrown by a miss on an event loop, where the live read must not wait: the review is dropped and run again on a
     * worker thread. An {@link Error}, so that no catch of the core (which turns a RuntimeException into a finding)
     * takes it for a fault of the workload; it has no stack trace and is thrown as one shared instance.
     */
    static final class OnWorkerThread extends Error {
        static final OnWorkerThread NEEDED = new OnWorkerThread();

        private OnWorkerThread() {
            super("a live read must wait on a worker thread", null, false, false);
        }
    }

    private final KubernetesClient client;
    private final RecentObjects recent;

    ReadThrough(KubernetesClient client, RecentObjects recent) {
        this.client = client;
        this.recent = recent;
    }

    @Override
    public Optional<HasMetadata> get(WorkloadKind kind, String namespace, String name) {
        HasMetadata known = recent.current(kind.kind(), namespace, name, null, HasMetadata.class);
        if (known != null) {
            return Optional.of(known);
        }
        if (Context.isOnEventLoopThread()) {
            throw OnWorkerThread.NEEDED;
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
    public List<HasMetadata> list(WorkloadKind kind, String namespace, List<HasMetadata> listed) {
        return recent.current(kind.kind(), namespace, listed, HasMetadata.class);
    }
}

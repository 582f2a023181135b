package io.topobridge.cache;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.volcano.HyperNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The one cache of HyperNodes, all sources (it only reads): one list and one watch for the topology controller, the
 * tiers followers learn and diagnosis. It runs while someone reads it and Volcano's HyperNode CRD is installed,
 * starting when the CRD appears and stopping when it goes.
 */
@ApplicationScoped
public class HyperNodeCache {

    private static final Logger LOG = Logger.getLogger(HyperNodeCache.class);

    /**
     * One reader of the cache: it hears every HyperNode event (informer thread; keep it quick; a reader that comes
     * late hears the HyperNodes already cached as added), when the first list is in, and when the CRD went away.
     */
    public interface Reader extends ResourceEventHandler<HyperNode> {

        /** The first list is in (the informer's thread, or the reader's own when it comes later). */
        default void listed() {}

        /** The CRD went away: the cache is stopped and empty. */
        default void gone() {}
    }

    /** A reader that hears each HyperNode added or removed, and each update that {@code matters} ({@link OnChange}). */
    public static Reader reader(Consumer<HyperNode> changed, BiPredicate<HyperNode, HyperNode> matters) {
        final class OnHyperNodeChange extends OnChange<HyperNode> implements Reader {
            OnHyperNodeChange() {
                super(changed, matters);
            }
        }
        return new OnHyperNodeChange();
    }

    private final KubernetesClient client;
    private final KindRegistry kinds;
    private final Set<Reader> readers = new LinkedHashSet<>();
    private volatile SharedIndexInformer<HyperNode> informer;
    private CompletableFuture<Void> listing;
    private boolean following;

    public HyperNodeCache(KubernetesClient client, KindRegistry kinds) {
        this.client = client;
        this.kinds = kinds;
    }

    /** Starts reading for {@code reader}: the cache starts with its first reader (once the CRD is installed). */
    public synchronized void open(Reader reader) {
        if (!readers.add(reader)) {
            return;
        }
        if (!following) {
            following = true;
            kinds.addListener(change -> {
                if (VolcanoApi.HYPERNODE_CRD.equals(change.crdName())) {
                    follow();
                }
            });
        }
        SharedIndexInformer<HyperNode> current = informer;
        if (current == null) {
            follow();
        } else {
            current.addEventHandler(reader);
            listing.thenRun(reader::listed);
        }
    }

    /** Ends reading for {@code reader}: the cache stops with its last reader. */
    public synchronized void close(Reader reader) {
        if (!readers.remove(reader) || informer == null) {
            return;
        }
        if (readers.isEmpty()) {
            informer.stop();
            informer = null;
            listing = null;
        } else {
            informer.removeEventHandler(reader);
        }
    }

    private synchronized void follow() {
        boolean installed = kinds.installed(VolcanoApi.HYPERNODE_CRD);
        if (installed && informer == null && !readers.isEmpty()) {
            start();
        } else if (!installed && informer != null) {
            informer.stop();
            informer = null;
            listing = null;
            readers.forEach(Reader::gone);
        }
    }

    private void start() {
        SharedIndexInformer<HyperNode> next = client.resources(HyperNode.class).runnableInformer(0);
        readers.forEach(next::addEventHandler);
        informer = next;
        listing = next.start().toCompletableFuture();
        listing.whenComplete((ok, error) -> {
            if (error != null) {
                LOG.warnf("cannot cache HyperNodes: %s", error.getMessage());
            }
        });
        readers.forEach(r -> listing.thenRun(r::listed));
    }

    /**
     * Waits for the first list, as a reader that cannot go on without it does; a list that failed is tried again
     * first. Throws when the list fails (the caller retries).
     */
    public void awaitListed() {
        CompletableFuture<Void> current;
        synchronized (this) {
            if (informer != null && listing.isCompletedExceptionally()) {
                informer.stop();
                informer = null;
            }
            follow();
            current = listing;
        }
        if (current != null) {
            current.join();
        }
    }

    /** Whether the cache runs (the CRD is installed and someone reads), listed or not. */
    public boolean running() {
        return informer != null;
    }

    /** Whether the cache runs and has its first list. */
    public boolean synced() {
        return Informers.synced(informer);
    }

    /** The cached HyperNodes (cached objects: read, never change); empty while the cache does not run. */
    public List<HyperNode> list() {
        return Informers.list(informer);
    }

    /** A HyperNode as the core reads it. */
    public static HyperNodeView view(HyperNode hn) {
        return HyperNodeView.of(hn.getMetadata().getName(), hn.getMetadata().getLabels(), hn.getSpec());
    }
}

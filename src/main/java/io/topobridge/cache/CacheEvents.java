package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/** Starts the informers of the workload caches and tells their listeners of every change in any of them. */
final class CacheEvents {

    private static final Logger LOG = Logger.getLogger(WorkloadCaches.class);

    private final List<Consumer<WorkloadCaches.Change>> listeners = new CopyOnWriteArrayList<>();

    void addListener(Consumer<WorkloadCaches.Change> listener) {
        listeners.add(listener);
    }

    /** Starts {@code informer} (never blocks); a failed start is logged and handed to {@code failed}. */
    <T extends HasMetadata> SharedIndexInformer<T> start(
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
}

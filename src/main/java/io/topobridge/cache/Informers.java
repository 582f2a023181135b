package io.topobridge.cache;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/** What the caches read of an informer that may not run (null: not started yet, or its CRD is not installed). */
final class Informers {

    /** Whether the informer runs and has its first list. */
    static boolean synced(SharedIndexInformer<?> informer) {
        return informer != null && informer.hasSynced();
    }

    /** Whether each informer that runs has its first list. */
    static boolean listed(SharedIndexInformer<?>... informers) {
        return Arrays.stream(informers).allMatch(i -> i == null || i.hasSynced());
    }

    /** Stops each informer that runs. */
    static void stop(SharedIndexInformer<?>... informers) {
        Arrays.stream(informers).filter(Objects::nonNull).forEach(SharedIndexInformer::stop);
    }

    /** The informer's cached objects (read, never change); empty while it does not run. */
    static <T> List<T> list(SharedIndexInformer<T> informer) {
        return informer == null ? List.of() : informer.getStore().list();
    }

    /** The informer's cached objects in one namespace (read, never change); empty while it does not run. */
    static <T> List<T> inNamespace(SharedIndexInformer<T> informer, String namespace) {
        return informer == null ? List.of() : informer.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace);
    }

    /** The informer's cached object of that namespace (null: cluster-scoped) and name, or null. */
    static <T> T get(SharedIndexInformer<T> informer, String namespace, String name) {
        return informer == null || name == null
                ? null
                : informer.getStore().getByKey(Cache.namespaceKeyFunc(namespace, name));
    }

    /** An optional kind's informer once its CRD changed: started when the CRD appeared, stopped when it went away. */
    static <T> SharedIndexInformer<T> follow(
            boolean installed, SharedIndexInformer<T> informer, Supplier<SharedIndexInformer<T>> start) {
        if (installed && informer == null) {
            return start.get();
        }
        if (!installed && informer != null) {
            informer.stop();
            return null;
        }
        return informer;
    }
}

package io.topobridge.cache;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;

/** What the caches read of an informer that may not run (null: not started yet, or its CRD is not installed). */
final class Informers {

    private Informers() {}

    /** Whether the informer runs and has its first list. */
    static boolean synced(SharedIndexInformer<?> informer) {
        return informer != null && informer.hasSynced();
    }

    /** The informer's cached objects (read, never change); empty while it does not run. */
    static <T> List<T> list(SharedIndexInformer<T> informer) {
        return informer == null ? List.of() : informer.getStore().list();
    }
}

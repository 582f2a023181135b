package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * Informer store that keeps only what following an owner chain needs (name, namespace, uid, labels, owner
 * references): a cluster has many ReplicaSets, most of them old revisions, and their pod templates would
 * dominate the controller's memory.
 */
public class MetadataOnlyStore<T extends HasMetadata> extends BasicItemStore<T> {

    public MetadataOnlyStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public T put(String key, T object) {
        // the informer hands over the object it just deserialised; nobody else holds it yet
        object.getMetadata().setManagedFields(null);
        object.getMetadata().setAnnotations(null);
        if (object instanceof ReplicaSet rs) {
            rs.setSpec(null);
            rs.setStatus(null);
        }
        return super.put(key, object);
    }
}

package io.topobridge.controller.topology;

import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * Informer store for nodes that keeps name, uid, resource version and labels only: annotations and managed
 * fields are most of a node's metadata and the topology never reads them.
 */
public class NodeMetadataStore extends BasicItemStore<NodeMetadata> {

    public NodeMetadataStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public NodeMetadata put(String key, NodeMetadata node) {
        // the informer hands over the object it just read; nobody else holds it yet
        var meta = node.getMetadata();
        if (meta != null) {
            meta.setAnnotations(null);
            meta.setManagedFields(null);
            meta.setOwnerReferences(null);
            meta.setFinalizers(null);
        }
        return super.put(key, node);
    }
}

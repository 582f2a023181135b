package io.topobridge.controller.topology;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.topobridge.controller.SharedEmpties;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Informer store for nodes that keeps name, uid, resource version, labels and allocatable resources only:
 * annotations and managed fields are most of a node's metadata and nothing here reads them; label keys and values
 * and quantities are kept once for all nodes.
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
            if (meta.getLabels() != null) {
                // label keys, and most values (zones, racks, switches), repeat across nodes: keep one copy of each
                Map<String, String> labels =
                        new LinkedHashMap<>(meta.getLabels().size() * 4 / 3 + 1);
                meta.getLabels().forEach((k, v) -> labels.put(k.intern(), v == null ? null : v.intern()));
                meta.setLabels(labels);
            }
            meta.setCreationTimestamp(null);
        }
        if (node.getStatus() != null && node.getStatus().getAllocatable() != null) {
            Map<String, Quantity> allocatable = new LinkedHashMap<>();
            node.getStatus()
                    .getAllocatable()
                    .forEach((k, v) -> allocatable.put(
                            k.intern(),
                            new Quantity(
                                    v.getAmount().intern(),
                                    v.getFormat() == null ? null : v.getFormat().intern())));
            node.getStatus().setAllocatable(allocatable);
        }
        return super.put(key, SharedEmpties.apply(node));
    }
}

package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.topobridge.core.node.Taint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Informer store for nodes that keeps name, uid, resource version, labels, allocatable resources, the Ready status and
 * (only when there is one) cordon and NoSchedule/NoExecute taints: annotations and managed fields are most of a node's
 * metadata and nothing here reads them; label keys and values, quantities and taints are kept once for all nodes.
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
            if (meta.getLabels() != null && !meta.getLabels().isEmpty()) {
                // label keys, and most values (zones, racks, switches), repeat across nodes: keep one copy of each
                meta.setLabels(SlimPodStore.interned(meta.getLabels()));
            }
            meta.setCreationTimestamp(null);
        }
        if (node.getStatus() != null && node.getStatus().allocatable != null) {
            Map<String, Quantity> allocatable = new LinkedHashMap<>();
            node.getStatus()
                    .allocatable
                    .forEach((k, v) -> allocatable.put(
                            k.intern(), new Quantity(v.getAmount().intern(), SlimPodStore.intern(v.getFormat()))));
            node.getStatus().allocatable = allocatable;
        }
        if (node.getSpec() != null) {
            node.setSpec(slimSpec(node.getSpec()));
        }
        return super.put(key, SharedEmpties.apply(node));
    }

    /** The same taint object for every node that carries it (a node pool's taints repeat on each of its nodes). */
    private final Map<NodeMetadata.NodeTaint, NodeMetadata.NodeTaint> taints = new ConcurrentHashMap<>();

    /** The spec as kept: null for a schedulable node without taints that keep pods off. */
    private NodeMetadata.Spec slimSpec(NodeMetadata.Spec spec) {
        boolean cordoned = Boolean.TRUE.equals(spec.unschedulable);
        List<NodeMetadata.NodeTaint> kept = new ArrayList<>();
        if (spec.taints != null) {
            for (NodeMetadata.NodeTaint t : spec.taints) {
                if (t != null && t.key != null && Taint.repels(t.effect)) {
                    t.key = t.key.intern();
                    t.value = SlimPodStore.intern(t.value);
                    t.effect = t.effect.intern();
                    kept.add(taints.computeIfAbsent(t, x -> x));
                }
            }
        }
        if (!cordoned && kept.isEmpty()) {
            return null;
        }
        NodeMetadata.Spec out = new NodeMetadata.Spec();
        out.unschedulable = cordoned ? Boolean.TRUE : null;
        out.taints = kept.isEmpty() ? null : List.copyOf(kept);
        return out;
    }
}

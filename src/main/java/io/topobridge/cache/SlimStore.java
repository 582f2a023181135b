package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * Informer store that drops what the bridge never reads (managed fields, annotations): of a ReplicaSet all but what
 * following an owner chain needs (a cluster has many ReplicaSets, most of them old revisions, and their pod templates
 * would dominate the controller's memory); of a CRD its schemas, printer columns and conversion (a cluster's CRDs can
 * weigh hundreds of megabytes with their schemas).
 */
public class SlimStore<T extends HasMetadata> extends BasicItemStore<T> {

    public SlimStore() {
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
        } else if (object instanceof CustomResourceDefinition crd && crd.getSpec() != null) {
            crd.getSpec().setConversion(null);
            if (crd.getSpec().getVersions() != null) {
                crd.getSpec().getVersions().forEach(v -> {
                    v.setSchema(null);
                    v.setAdditionalPrinterColumns(null);
                });
            }
        }
        return super.put(key, object);
    }
}

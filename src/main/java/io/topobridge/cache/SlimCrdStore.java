package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * Informer store for CRDs that drops what the bridge never reads (schemas, printer columns, conversion,
 * managed fields, annotations): a cluster's CRDs can weigh hundreds of megabytes with their schemas.
 */
public class SlimCrdStore extends BasicItemStore<CustomResourceDefinition> {

    public SlimCrdStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public CustomResourceDefinition put(String key, CustomResourceDefinition crd) {
        // the informer hands over the object it just deserialised; nobody else holds it yet
        crd.getMetadata().setManagedFields(null);
        crd.getMetadata().setAnnotations(null);
        if (crd.getSpec() != null) {
            crd.getSpec().setConversion(null);
            if (crd.getSpec().getVersions() != null) {
                crd.getSpec().getVersions().forEach(v -> {
                    v.setSchema(null);
                    v.setAdditionalPrinterColumns(null);
                });
            }
        }
        return super.put(key, crd);
    }
}

package io.topobridge.controller;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.filter.GenericFilter;
import io.topobridge.cache.KindRegistry;
import io.topobridge.cache.SlimStore;
import jakarta.inject.Inject;

/**
 * Keeps {@link KindRegistry} current as CRDs are installed, upgraded or removed, so optional workload kinds
 * (AIBrix, LeaderWorkerSet, DisaggregatedSet) are picked up without a restart. It reacts to deletions
 * without a finalizer (a CRD must never carry ours) and caches CRDs without their schemas.
 */
@ControllerConfiguration(
        name = "crd-discovery",
        generationAwareEventProcessing = false,
        triggerReconcilerOnAllEvents = true,
        informer = @Informer(genericFilter = CrdDiscoveryReconciler.WatchedOnly.class, itemStore = SlimStore.class))
public class CrdDiscoveryReconciler implements Reconciler<CustomResourceDefinition> {

    @Inject
    KindRegistry registry;

    @Override
    public UpdateControl<CustomResourceDefinition> reconcile(
            CustomResourceDefinition crd, Context<CustomResourceDefinition> context) {
        registry.update(crd.getMetadata().getName(), context.isPrimaryResourceDeleted() ? null : crd);
        return UpdateControl.noUpdate();
    }

    /** Only the CRDs the bridge reads are reconciled. */
    public static class WatchedOnly implements GenericFilter<CustomResourceDefinition> {
        @Override
        public boolean accept(CustomResourceDefinition crd) {
            return KindRegistry.isWatched(crd.getMetadata().getName());
        }
    }
}

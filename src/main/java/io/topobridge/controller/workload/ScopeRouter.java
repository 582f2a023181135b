package io.topobridge.controller.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.changes.ObservedPodGroup;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.volcano.PodGroup;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Maps cache events to the gang scopes they touch: a workload to its scope (both scopes when it moved, e.g. into a
 * group), a PodGroup to the scope that owns or adopted it, a pod to its gang's scope; a Queue, Namespace,
 * ResourceQuota, autoscaler, ResourceClaimTemplate or shared ResourceClaim change to every scope. Informer threads
 * call it; it only asks for work.
 */
final class ScopeRouter {

    /** Kinds whose change may concern any gang: an autoscaler's target is found by the gangs, not the other way. */
    private static final Set<String> EVERY_SCOPE_KINDS = Set.of(
            "Queue",
            "Namespace",
            "ResourceQuota",
            "ResourceClaimTemplate",
            Autoscaler.HPA_KIND,
            Autoscaler.AIBRIX_KIND);
    /** On a ResourceClaim Kubernetes made from a template for one pod: no gang counts it by name. */
    static final String POD_CLAIM_ANNOTATION = "resource.kubernetes.io/pod-claim-name";

    private final WorkloadCaches lookup;
    private final WorkloadTranslator translator;
    private final Supplier<TierCatalog> tiers;
    private final Consumer<GangScope> scope;
    private final Runnable all;
    /** Where each workload object was last seen to belong, so a move recomputes both scopes. */
    private final Map<String, GangScope> lastScope = new ConcurrentHashMap<>();

    /**
     * @param scope asks for one scope's recomputation
     * @param all asks for every scope's
     */
    ScopeRouter(
            WorkloadCaches lookup,
            WorkloadTranslator translator,
            Supplier<TierCatalog> tiers,
            Consumer<GangScope> scope,
            Runnable all) {
        this.lookup = lookup;
        this.translator = translator;
        this.tiers = tiers;
        this.scope = scope;
        this.all = all;
    }

    /**
     * A cache change ({@link CacheChanges#matters} already said it does).
     *
     * @param roomWanted whether some gang waits for room in its namespace (a PodGroup of the bridge going gives some,
     *     one coming changes what the namespace reserves)
     */
    void changed(WorkloadCaches.Change change, boolean roomWanted) {
        if (EVERY_SCOPE_KINDS.contains(change.kind())) {
            all.run();
            return;
        }
        HasMetadata object = change.object();
        if ("ResourceClaim".equals(change.kind())) {
            // a claim shared by name may size any gang; one made for a single pod sizes none (its template does)
            Map<String, String> annotations = object.getMetadata().getAnnotations();
            if (annotations == null || !annotations.containsKey(POD_CLAIM_ANNOTATION)) {
                all.run();
            }
            return;
        }
        if ("PodGroup".equals(change.kind())) {
            if (roomWanted && Topobridge.managed(object)) {
                // one of the bridge's PodGroups came, went or changed its reservation: the gangs waiting for room in
                // a namespace are judged again (their refusal names what the namespace reserves now)
                all.run();
            }
            translator.scopeOfPodGroup(object, lookup).ifPresent(scope);
            return;
        }
        String key = change.kind() + "/" + object.getMetadata().getNamespace() + "/"
                + object.getMetadata().getName();
        GangScope before = change.after() == null ? lastScope.remove(key) : lastScope.get(key);
        Optional<GangScope> now = change.after() == null ? Optional.empty() : translator.scopeOf(object, lookup);
        now.ifPresent(s -> lastScope.put(key, s));
        if (before != null && !before.equals(now.orElse(null))) {
            scope.accept(before);
        }
        now.ifPresent(scope);
        if (now.isEmpty() && change.after() == null) {
            translator.scopeOf(object, lookup).ifPresent(scope);
        }
    }

    /** A pod came, changed or went: its gang's achieved tier or untied pods may have changed. */
    void pod(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String group = annotations == null ? null : annotations.get(VolcanoApi.GROUP_NAME_ANNOTATION);
        PodGroup pg = group == null ? null : lookup.podGroup(pod.getMetadata().getNamespace(), group);
        if (pg != null && (Topobridge.managed(pg) || ObservedPodGroup.ownsFields(pg))) {
            translator.scopeOfPodGroup(pg, lookup).ifPresent(scope);
            return;
        }
        // a pod of a managed gang that does not name its PodGroup: the gang's UntiedPods finding changes
        translator.gangOf(pod, tiers.get(), lookup).ifPresent(gang -> scope.accept(gang.scope()));
    }
}

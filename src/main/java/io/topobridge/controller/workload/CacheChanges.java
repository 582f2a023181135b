package io.topobridge.controller.workload;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.Topobridge;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.Queue;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which cache updates can change a PodGroup. Controllers rewrite status constantly (a Deployment on every pod
 * readiness change, Volcano a PodGroup on every scheduling cycle and a Queue's usage), and none of that
 * changes what the bridge wants, so such updates are not worth a recomputation.
 */
final class CacheChanges {

    static boolean matters(WorkloadCaches.Change change) {
        HasMetadata before = change.before();
        HasMetadata after = change.after();
        if (before == null || after == null) {
            return true;
        }
        if (before instanceof Queue b && after instanceof Queue a) {
            return !Objects.equals(state(b), state(a)) || !Objects.equals(capability(b), capability(a));
        }
        if (!sameMetadata(before.getMetadata(), after.getMetadata())) {
            return true;
        }
        if ("Namespace".equals(change.kind())) {
            return false;
        }
        if (before instanceof PodGroup b && after instanceof PodGroup a) {
            return !Objects.equals(b.getSpec(), a.getSpec());
        }
        if (before instanceof ResourceClaim b && after instanceof ResourceClaim a) {
            // Kubernetes rewrites a claim's status on every allocation and reservation; what it asks for is its spec
            return !Objects.equals(b.getSpec(), a.getSpec());
        }
        if (before instanceof Deployment b && after instanceof Deployment a) {
            return !Objects.equals(b.getSpec(), a.getSpec());
        }
        if (before instanceof StatefulSet b && after instanceof StatefulSet a) {
            return !Objects.equals(b.getSpec(), a.getSpec());
        }
        if (before instanceof HorizontalPodAutoscaler b && after instanceof HorizontalPodAutoscaler a) {
            // its status changes on every sync; only its target and bounds change what the bridge says
            return !Objects.equals(b.getSpec(), a.getSpec());
        }
        if (before instanceof GenericKubernetesResource b && after instanceof GenericKubernetesResource a) {
            return !Objects.equals(
                    b.getAdditionalProperties().get("spec"),
                    a.getAdditionalProperties().get("spec"));
        }
        return true;
    }

    static String state(Queue queue) {
        return queue.getStatus() == null ? null : queue.getStatus().getState();
    }

    static Map<String, String> capability(Queue queue) {
        return queue.getSpec() == null ? null : queue.getSpec().getCapability();
    }

    /** Labels, annotations, owners and managed fields (the writer reads those) are all that matter. */
    private static boolean sameMetadata(ObjectMeta a, ObjectMeta b) {
        return Objects.equals(a.getLabels(), b.getLabels())
                && Objects.equals(a.getAnnotations(), b.getAnnotations())
                && Objects.equals(a.getOwnerReferences(), b.getOwnerReferences())
                && Objects.equals(a.getDeletionTimestamp(), b.getDeletionTimestamp())
                && Objects.equals(ours(a), ours(b));
    }

    /** The bridge's own managed-field entries (what it owns decides whether an apply would change anything). */
    private static List<String> ours(ObjectMeta meta) {
        if (meta.getManagedFields() == null) {
            return List.of();
        }
        return meta.getManagedFields().stream()
                .filter(m -> Topobridge.FIELD_MANAGER.equals(m.getManager()))
                .map(m -> m.getOperation() + " " + m.getSubresource() + " " + m.getFieldsV1())
                .toList();
    }
}

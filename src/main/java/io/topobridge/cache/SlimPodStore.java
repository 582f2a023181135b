package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.workload.NativeGang;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Informer store for pods that keeps what capacity and gangs need and nothing else: name, namespace, uid, labels
 * (subgroups select on them), the two Volcano annotations (gang and role), the controlling owner (the gang of a pod
 * that names none), a Kubernetes gang it is in ({@code spec.schedulingGroup}), its creation and deletion times, the
 * node it is bound to, its phase, its tolerations (which nodes' taints it may pass; one list kept for all pods that
 * carry the same) and its effective requests folded into one container (so containers, volumes, env and status are
 * never kept).
 */
public class SlimPodStore extends BasicItemStore<Pod> {

    public SlimPodStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public Pod put(String key, Pod pod) {
        return super.put(key, SharedEmpties.apply(slim(pod)));
    }

    static Pod slim(Pod pod) {
        var meta = pod.getMetadata();
        Map<String, String> annotations = new LinkedHashMap<>();
        if (meta.getAnnotations() != null) {
            for (String k : new String[] {VolcanoApi.GROUP_NAME_ANNOTATION, VolcanoApi.TASK_SPEC_ANNOTATION}) {
                String v = meta.getAnnotations().get(k);
                if (v != null) {
                    annotations.put(k, intern(v));
                }
            }
        }
        Map<String, Quantity> requests = new LinkedHashMap<>();
        try {
            PodRequests.of(pod.getSpec())
                    .canonical()
                    .forEach((k, v) -> requests.put(intern(k), new Quantity(intern(v))));
        } catch (IllegalArgumentException e) {
            // an unparsable quantity: the API server would not have admitted it; count nothing
        }
        var spec = pod.getSpec();
        // a Kubernetes gang of the pod's own (fields the fabric8 model predates): its gang's reconcile must know it
        Map<String, Object> nativeGang = new LinkedHashMap<>();
        if (spec != null && spec.getAdditionalProperties() != null) {
            for (String k : new String[] {NativeGang.SCHEDULING_GROUP, NativeGang.WORKLOAD_REF}) {
                Object v = spec.getAdditionalProperties().get(k);
                if (v != null) {
                    nativeGang.put(k, v);
                }
            }
        }
        var container = new ContainerBuilder()
                .withName("requests")
                .withNewResources()
                .withRequests(requests.isEmpty() ? null : requests)
                .endResources()
                .build();
        Pod slim = new Pod(
                "v1",
                "Pod",
                new ObjectMetaBuilder()
                        .withName(meta.getName())
                        .withNamespace(intern(meta.getNamespace()))
                        .withUid(meta.getUid())
                        .withResourceVersion(meta.getResourceVersion())
                        // how long a replacement pod has waited, and whether a pod is on its way out
                        .withCreationTimestamp(intern(meta.getCreationTimestamp()))
                        .withDeletionTimestamp(meta.getDeletionTimestamp())
                        .withLabels(interned(meta.getLabels()))
                        .withAnnotations(annotations.isEmpty() ? null : annotations)
                        .withOwnerReferences(controller(meta.getOwnerReferences()))
                        .build(),
                new PodSpecBuilder()
                        .withNodeName(spec == null ? null : intern(spec.getNodeName()))
                        .withSchedulerName(spec == null ? null : intern(spec.getSchedulerName()))
                        .addToContainers(container)
                        .withAdditionalProperties(nativeGang.isEmpty() ? null : nativeGang)
                        .build(),
                new PodStatusBuilder()
                        .withPhase(
                                pod.getStatus() == null
                                        ? null
                                        : intern(pod.getStatus().getPhase()))
                        .build());
        // set, not built: a builder would copy the shared list into new objects for every pod
        slim.getSpec().setTolerations(spec == null ? null : tolerations(spec.getTolerations()));
        return slim;
    }

    /** One list per distinct set of tolerations (most pods carry the same two or three). */
    private static final Map<List<Toleration>, List<Toleration>> TOLERATIONS = new ConcurrentHashMap<>();

    /** The same tolerations as the core reads them, per kept list. */
    private static final Map<List<Toleration>, List<io.topobridge.core.node.Toleration>> CORE_TOLERATIONS =
            new ConcurrentHashMap<>();

    /**
     * A pod's tolerations as kept: key, operator, value and effect ({@code tolerationSeconds} only bounds how long a
     * running pod stays on a NoExecute node, which placement does not ask), one shared list per distinct set.
     */
    static List<Toleration> tolerations(List<Toleration> tolerations) {
        if (tolerations == null || tolerations.isEmpty()) {
            return null;
        }
        List<Toleration> out = new ArrayList<>(tolerations.size());
        for (Toleration t : tolerations) {
            if (t != null) {
                out.add(new Toleration(
                        intern(t.getEffect()),
                        intern(t.getKey()),
                        intern(t.getOperator()),
                        null,
                        intern(t.getValue())));
            }
        }
        if (out.isEmpty()) {
            return null;
        }
        List<Toleration> kept = List.copyOf(out);
        return TOLERATIONS.computeIfAbsent(kept, k -> k);
    }

    /** A kept pod's tolerations as the core reads them. */
    static List<io.topobridge.core.node.Toleration> coreTolerations(Pod pod) {
        List<Toleration> kept = pod.getSpec() == null ? null : pod.getSpec().getTolerations();
        if (kept == null || kept.isEmpty()) {
            return List.of();
        }
        return CORE_TOLERATIONS.computeIfAbsent(kept, io.topobridge.core.node.Toleration::of);
    }

    /** The controlling owner alone (kind, name, uid), which tells the gang of a pod that carries no group name. */
    static List<OwnerReference> controller(List<OwnerReference> owners) {
        if (owners == null) {
            return null;
        }
        for (OwnerReference owner : owners) {
            if (Boolean.TRUE.equals(owner.getController())) {
                return List.of(new OwnerReference(
                        intern(owner.getApiVersion()),
                        null,
                        true,
                        intern(owner.getKind()),
                        intern(owner.getName()),
                        owner.getUid()));
            }
        }
        return null;
    }

    /**
     * Label keys and most values (workload names, indexes, node names) repeat across thousands of pods: one copy of
     * each is kept.
     */
    static Map<String, String> interned(Map<String, String> labels) {
        if (labels == null || labels.isEmpty()) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>(labels.size() * 4 / 3 + 1);
        labels.forEach((k, v) -> out.put(intern(k), intern(v)));
        return out;
    }

    static String intern(String s) {
        return s == null ? null : s.intern();
    }
}

package io.topobridge.diagnosis;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.workload.resources.PodRequests;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Informer store for pods that keeps what capacity and gangs need and nothing else: name, namespace, uid, labels
 * (subgroups select on them), the two Volcano annotations (gang and role), the node it is bound to, its phase, and
 * its effective requests folded into one container (so containers, volumes, env and status are never kept).
 */
public class SlimPodStore extends BasicItemStore<Pod> {

    public SlimPodStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public Pod put(String key, Pod pod) {
        return super.put(key, slim(pod));
    }

    static Pod slim(Pod pod) {
        var meta = pod.getMetadata();
        Map<String, String> annotations = new LinkedHashMap<>();
        if (meta.getAnnotations() != null) {
            for (String k : new String[] {VolcanoApi.GROUP_NAME_ANNOTATION, VolcanoApi.TASK_SPEC_ANNOTATION}) {
                String v = meta.getAnnotations().get(k);
                if (v != null) {
                    annotations.put(k, v);
                }
            }
        }
        Map<String, Quantity> requests = new LinkedHashMap<>();
        try {
            PodRequests.of(pod.getSpec()).canonical().forEach((k, v) -> requests.put(k, new Quantity(v)));
        } catch (IllegalArgumentException e) {
            // an unparsable quantity: the API server would not have admitted it; count nothing
        }
        var spec = pod.getSpec();
        return new Pod("v1", "Pod", new ObjectMetaBuilder().withName(meta.getName()).withNamespace(meta.getNamespace())
                .withUid(meta.getUid()).withResourceVersion(meta.getResourceVersion())
                .withCreationTimestamp(meta.getCreationTimestamp())
                .withLabels(meta.getLabels()).withAnnotations(annotations.isEmpty() ? null : annotations).build(),
                new PodSpecBuilder().withNodeName(spec == null ? null : spec.getNodeName())
                        .withSchedulerName(spec == null ? null : spec.getSchedulerName())
                        .addToContainers(new ContainerBuilder().withName("requests").withNewResources()
                                .withRequests(requests.isEmpty() ? null : requests).endResources().build())
                        .build(),
                new PodStatusBuilder().withPhase(pod.getStatus() == null ? null : pod.getStatus().getPhase()).build());
    }
}

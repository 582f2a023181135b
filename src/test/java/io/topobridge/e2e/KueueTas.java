package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.topobridge.testing.PodTemplates;
import java.util.List;
import java.util.Map;

/**
 * Kueue's Topology-Aware Scheduling set up for the example GPU cluster: a {@code Topology} over its node labels, a
 * {@code ResourceFlavor} naming it, a {@code ClusterQueue} holding all of them and a
 * {@code LocalQueue} per namespace; and the keys a plain pod group carries (Kueue v0.17's own).
 *
 * <p>The levels are the labels as the nodes carry them: spine ({@code fabric.topograph.run/tier-1}), leaf
 * ({@code tier-0}), NVLink partition ({@code nvidia.com/gpu.clique}) and node. The NVLink domain (the rack) has no
 * label of its own, only the part of the clique id before its dot, so Kueue has no level for it: a request at the
 * bridge's {@code nvlink-domain} tier has no Kueue counterpart.
 */
public final class KueueTas {

    public static final String API_VERSION = "kueue.x-k8s.io/v1beta2";
    public static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    public static final String GROUP_LABEL = "kueue.x-k8s.io/pod-group-name";
    public static final String GROUP_COUNT = "kueue.x-k8s.io/pod-group-total-count";
    public static final String REQUIRED = "kueue.x-k8s.io/podset-required-topology";
    public static final String PREFERRED = "kueue.x-k8s.io/podset-preferred-topology";
    public static final String SLICE_REQUIRED = "kueue.x-k8s.io/podset-slice-required-topology";
    public static final String SLICE_SIZE = "kueue.x-k8s.io/podset-slice-size";

    public static final String SPINE = "fabric.topograph.run/tier-1";
    public static final String LEAF = "fabric.topograph.run/tier-0";
    public static final String NVLINK = "nvidia.com/gpu.clique";
    public static final String HOSTNAME = "kubernetes.io/hostname";

    /** The LocalQueue every namespace gets ({@link #localQueue}). */
    public static final String QUEUE = "gpu";

    private static final String TOPOLOGY = "gpu-fabric";
    private static final String FLAVOR = "gb200-tray";
    private static final String CLUSTER_QUEUE = "gpu-trays";

    private KueueTas() {}

    /** The Kueue level label of a bridge tier name ({@code nvlink}, {@code leaf}, {@code spine}). */
    public static String level(String tier) {
        return switch (tier) {
            case "nvlink" -> NVLINK;
            case "leaf" -> LEAF;
            case "spine" -> SPINE;
            default ->
                throw new IllegalArgumentException(
                        "tier '" + tier + "' has no Kueue level on the example cluster (levels: " + levels() + ")");
        };
    }

    /** The Topology's levels, top first. */
    public static List<String> levels() {
        return List.of(SPINE, LEAF, NVLINK, HOSTNAME);
    }

    /**
     * Creates the Topology, a ResourceFlavor of the GPU nodes naming it (Kueue counts only the nodes that also carry
     * every level's label; a gang's own node affinity narrows them further) and a ClusterQueue larger than the cluster (BestEffortFIFO: a
     * gang that does not fit does not hold back the ones behind it), where missing.
     */
    public static void ensureClusterQueue(KubernetesClient client) {
        create(
                client,
                object(
                        "Topology",
                        TOPOLOGY,
                        null,
                        Map.of(
                                "levels",
                                levels().stream()
                                        .map(l -> Map.of("nodeLabel", l))
                                        .toList())));
        create(
                client,
                object(
                        "ResourceFlavor",
                        FLAVOR,
                        null,
                        Map.of("nodeLabels", Map.of("nvidia.com/gpu.present", "true"), "topologyName", TOPOLOGY)));
        create(
                client,
                object(
                        "ClusterQueue",
                        CLUSTER_QUEUE,
                        null,
                        Map.of(
                                "namespaceSelector", Map.of(),
                                "queueingStrategy", "BestEffortFIFO",
                                "resourceGroups",
                                        List.of(Map.of(
                                                "coveredResources", List.of("cpu", "memory", "nvidia.com/gpu"),
                                                "flavors",
                                                        List.of(Map.of(
                                                                "name",
                                                                FLAVOR,
                                                                "resources",
                                                                List.of(
                                                                        Map.of("name", "cpu", "nominalQuota", "100000"),
                                                                        Map.of(
                                                                                "name",
                                                                                "memory",
                                                                                "nominalQuota",
                                                                                "1000Ti"),
                                                                        Map.of(
                                                                                "name",
                                                                                "nvidia.com/gpu",
                                                                                "nominalQuota",
                                                                                "10000")))))))));
    }

    /** Creates the LocalQueue {@value #QUEUE} of {@code namespace}, leading to the ClusterQueue. */
    public static void localQueue(KubernetesClient client, String namespace) {
        create(client, object("LocalQueue", QUEUE, namespace, Map.of("clusterQueue", CLUSTER_QUEUE)));
    }

    /**
     * One pod of the plain pod group {@code group} of {@code total} pods in the LocalQueue {@value #QUEUE}: 4 CPUs,
     * 16 GiB and {@code gpus} GPUs, bound by {@code default-scheduler} once Kueue admits the group; {@code labels}
     * and {@code annotations} (e.g. {@link #REQUIRED}) are added to the group's own.
     */
    public static Pod groupPod(
            String namespace,
            String name,
            String group,
            int total,
            int gpus,
            Map<String, String> labels,
            Map<String, String> annotations) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .addToLabels(QUEUE_LABEL, QUEUE)
                .addToLabels(GROUP_LABEL, group)
                .addToLabels(labels)
                .addToAnnotations(GROUP_COUNT, String.valueOf(total))
                .addToAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withTerminationGracePeriodSeconds(0L)
                .addToContainers(PodTemplates.gpuEngine(gpus))
                .endSpec()
                .build();
    }

    /** The pods of the pod group {@code group} in {@code namespace}. */
    public static List<Pod> groupPods(KubernetesClient client, String namespace, String group) {
        return client.pods()
                .inNamespace(namespace)
                .withLabel(GROUP_LABEL, group)
                .list()
                .getItems();
    }

    /**
     * Deletes the pods of a pod group. Kueue keeps its finalizer on a deleted pod of a group until the pod has
     * terminated, which no kubelet of this cluster reports (they stayed Terminating for minutes here, and with them
     * their namespace), so the finalizer of each deleted pod is removed here.
     */
    public static void deleteGroup(KubernetesClient client, String namespace, String label, String value) {
        var pods = client.pods().inNamespace(namespace).withLabel(label, value);
        pods.delete();
        // Kueue lets a pod of a group go once the pod has terminated, which no kubelet reports here: its finalizer
        // is removed as a kubelet's last status would let Kueue remove it
        for (Pod pod : pods.list().getItems()) {
            if (pod.getMetadata().getFinalizers() == null
                    || pod.getMetadata().getFinalizers().isEmpty()) {
                continue;
            }
            try {
                client.pods()
                        .inNamespace(namespace)
                        .withName(pod.getMetadata().getName())
                        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
            } catch (KubernetesClientException e) {
                // gone meanwhile
            }
        }
    }

    private static GenericKubernetesResource object(String kind, String name, String namespace, Map<String, ?> spec) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(API_VERSION)
                .withKind(kind)
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .addToAdditionalProperties("spec", spec)
                .build();
    }

    private static void create(KubernetesClient client, GenericKubernetesResource object) {
        var existing = client.genericKubernetesResources(API_VERSION, object.getKind());
        var named = object.getMetadata().getNamespace() == null
                ? existing.withName(object.getMetadata().getName())
                : existing.inNamespace(object.getMetadata().getNamespace())
                        .withName(object.getMetadata().getName());
        if (named.get() == null) {
            client.resource(object).create();
        }
    }
}

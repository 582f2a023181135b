package io.topobridge.perf;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.cache.NodeMetadata;
import io.topobridge.cache.NodeMetadataStore;
import io.topobridge.cache.SlimPodStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Bytes a cached node and a cached pod cost on the heap, as the informers keep them (the node cache: labels and
 * allocatable; the pod cache: {@link SlimPodStore}), next to what the full objects would cost. Realistic objects (a GPU
 * node with its labels, annotations, managed fields, images and conditions; an inference pod with env, volumes,
 * probes and status) are read from JSON as an informer reads them and put into the store; the retained heap is
 * measured after full collections. {@link BenchSuite} runs it; alone:
 * {@code java -cp … io.topobridge.perf.CacheFootprint [objects]}.
 */
public final class CacheFootprint {

    private CacheFootprint() {}

    /** Retained bytes per object: a node as cached and as a full Node, a pod as cached and as a full Pod. */
    public record Footprint(int objects, long slimNode, long fullNode, long slimPod, long fullPod) {}

    /** Measures the four stores, each filled with {@code n} objects. */
    public static Footprint measure(int n) {
        var nodeSerialization = new KubernetesSerialization();
        nodeSerialization.registerKubernetesResource(NodeMetadata.class);
        var plain = new KubernetesSerialization();

        long slimNode = measure(
                n,
                i -> new NodeMetadataStore(),
                (store, i) -> ((NodeMetadataStore) store)
                        .put("n" + i, nodeSerialization.unmarshal(nodeJson(i), NodeMetadata.class)));
        long fullNode = measure(
                n,
                i -> new BasicItemStore<Node>(Cache::metaNamespaceKeyFunc),
                (store, i) -> storeOf(store, Node.class).put("n" + i, plain.unmarshal(nodeJson(i), Node.class)));
        long slimPod = measure(
                n,
                i -> new SlimPodStore(),
                (store, i) -> ((SlimPodStore) store).put("p" + i, plain.unmarshal(podJson(i), Pod.class)));
        long fullPod = measure(
                n,
                i -> new BasicItemStore<Pod>(Cache::metaNamespaceKeyFunc),
                (store, i) -> storeOf(store, Pod.class).put("p" + i, plain.unmarshal(podJson(i), Pod.class)));
        return new Footprint(n, slimNode, fullNode, slimPod, fullPod);
    }

    public static void main(String[] args) {
        Footprint f = measure(args.length > 0 ? Integer.parseInt(args[0]) : 20_000);
        System.out.printf("objects per store: %d%n", f.objects());
        System.out.printf(
                "node, as cached (labels + allocatable): %,d bytes; full Node: %,d bytes (%.1fx)%n",
                f.slimNode(), f.fullNode(), (double) f.fullNode() / f.slimNode());
        System.out.printf(
                "pod, as cached (SlimPodStore): %,d bytes; full Pod: %,d bytes (%.1fx)%n",
                f.slimPod(), f.fullPod(), (double) f.fullPod() / f.slimPod());
    }

    @SuppressWarnings("unchecked")
    private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> BasicItemStore<T> storeOf(
            Object store, Class<T> type) {
        return (BasicItemStore<T>) store;
    }

    interface Put {
        void put(Object store, int i);
    }

    /** Retained bytes per object of a store filled with {@code n} objects. */
    private static long measure(int n, IntFunction<Object> newStore, Put put) {
        // warm up the serializers so their caches are not counted
        Object warm = newStore.apply(0);
        for (int i = 0; i < 200; i++) {
            put.put(warm, i);
        }
        warm = null;
        long before = used();
        Object store = newStore.apply(0);
        for (int i = 0; i < n; i++) {
            put.put(store, i);
        }
        long after = used();
        List<Object> keep = new ArrayList<>();
        keep.add(store);
        long per = (after - before) / n;
        if (keep.isEmpty()) {
            throw new IllegalStateException();
        }
        return per;
    }

    private static long used() {
        Runtime rt = Runtime.getRuntime();
        long last = Long.MAX_VALUE;
        for (int i = 0; i < 6; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            long now = rt.totalMemory() - rt.freeMemory();
            if (Math.abs(now - last) < 64 * 1024) {
                return now;
            }
            last = now;
        }
        return last;
    }

    static String nodeJson(int i) {
        String name = String.format("gb200-r%03d-t%02d", i / 18, i % 18);
        StringBuilder managed = new StringBuilder();
        for (String manager :
                new String[] {"kubelet", "kube-controller-manager", "nfd-worker", "gpu-feature-discovery"}) {
            managed.append("{\"manager\":\"")
                    .append(manager)
                    .append(
                            "\",\"operation\":\"Update\",\"apiVersion\":\"v1\","
                                    + "\"time\":\"2026-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":{"
                                    + "\"f:labels\":{\"f:a\":{},\"f:b\":{},\"f:c\":{},\"f:d\":{}}},\"f:status\":{\"f:allocatable\":{}}}},");
        }
        managed.setLength(managed.length() - 1);
        StringBuilder images = new StringBuilder();
        for (int k = 0; k < 20; k++) {
            images.append("{\"names\":[\"registry.example/vllm/vllm-openai@sha256:")
                    .append(String.format("%064d", k))
                    .append("\",\"registry.example/vllm/vllm-openai:v0.")
                    .append(k)
                    .append(".0\"],\"sizeBytes\":")
                    .append(9_000_000_000L + k)
                    .append("},");
        }
        images.setLength(images.length() - 1);
        return """
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"%1$s","uid":"%2$08d-0000-4000-8000-000000000000",
                "resourceVersion":"%3$d","creationTimestamp":"2026-01-01T00:00:00Z",
                "labels":{"kubernetes.io/hostname":"%1$s","kubernetes.io/arch":"arm64","kubernetes.io/os":"linux",
                "node.kubernetes.io/instance-type":"gb200-compute-tray","nvidia.com/gpu.present":"true",
                "nvidia.com/gpu.product":"NVIDIA-GB200","nvidia.com/gpu.count":"4","nvidia.com/gpu.memory":"189471",
                "nvidia.com/cuda.driver.major":"570","nvidia.com/gpu.clique":"5c9b7f3e-1d2a-4e8b-9a6c-0f3e2d1c%4$04d.1",
                "fabric.topograph.run/tier-0":"S-7d1a0c2e4b9f%4$04d","fabric.topograph.run/tier-1":"S-2c5eab030655",
                "topology.kubernetes.io/zone":"zone-a","feature.node.kubernetes.io/cpu-model.vendor_id":"ARM"},
                "annotations":{"node.alpha.kubernetes.io/ttl":"0","volumes.kubernetes.io/controller-managed-attach-detach":"true",
                "nfd.node.kubernetes.io/feature-labels":"cpu-model.vendor_id,kernel-version.full,pci-10de.present,system-os_release.ID"},
                "managedFields":[%5$s]},
                "spec":{"podCIDR":"10.244.%4$d.0/24","providerID":"cloud://%1$s"},
                "status":{"capacity":{"cpu":"144","memory":"960Gi","nvidia.com/gpu":"4","pods":"110","ephemeral-storage":"3Ti"},
                "allocatable":{"cpu":"140","memory":"940Gi","nvidia.com/gpu":"4","pods":"110","ephemeral-storage":"3Ti"},
                "conditions":[{"type":"Ready","status":"True","reason":"KubeletReady","message":"kubelet is posting ready status",
                "lastHeartbeatTime":"2026-01-01T00:00:00Z","lastTransitionTime":"2026-01-01T00:00:00Z"},
                {"type":"MemoryPressure","status":"False","reason":"KubeletHasSufficientMemory","message":"kubelet has sufficient memory available",
                "lastHeartbeatTime":"2026-01-01T00:00:00Z","lastTransitionTime":"2026-01-01T00:00:00Z"},
                {"type":"DiskPressure","status":"False","reason":"KubeletHasNoDiskPressure","message":"kubelet has no disk pressure",
                "lastHeartbeatTime":"2026-01-01T00:00:00Z","lastTransitionTime":"2026-01-01T00:00:00Z"}],
                "addresses":[{"type":"InternalIP","address":"10.0.%4$d.1"},{"type":"Hostname","address":"%1$s"}],
                "nodeInfo":{"machineID":"m%2$d","systemUUID":"s%2$d","bootID":"b%2$d","kernelVersion":"6.8.0","osImage":"Ubuntu 24.04",
                "containerRuntimeVersion":"containerd://2.0.0","kubeletVersion":"v1.33.0","kubeProxyVersion":"v1.33.0",
                "operatingSystem":"linux","architecture":"arm64"},
                "images":[%6$s]}}
                """.formatted(name, i, 1000 + i, i % 10000, managed, images);
    }

    static String podJson(int i) {
        return """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"vllm-%1$d","namespace":"inference","uid":"%1$08d-1111-4000-8000-000000000000",
                "resourceVersion":"%2$d","creationTimestamp":"2026-01-01T00:00:00Z",
                "labels":{"leaderworkerset.sigs.k8s.io/name":"deepseek","leaderworkerset.sigs.k8s.io/group-index":"%3$d",
                "leaderworkerset.sigs.k8s.io/worker-index":"%4$d","leaderworkerset.sigs.k8s.io/template-revision-hash":"5f7d9c8b6",
                "apps.kubernetes.io/pod-index":"%4$d","statefulset.kubernetes.io/pod-name":"vllm-%1$d"},
                "annotations":{"scheduling.k8s.io/group-name":"tb-lws-deepseek-%3$d","volcano.sh/task-spec":"worker",
                "leaderworkerset.sigs.k8s.io/size":"4","leaderworkerset.sigs.k8s.io/leader-name":"deepseek-%3$d"},
                "ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"deepseek-%3$d","uid":"u-%3$d","controller":true}]},
                "spec":{"schedulerName":"volcano","nodeName":"gb200-r001-t%4$02d","serviceAccountName":"default",
                "containers":[{"name":"vllm","image":"vllm/vllm-openai:v0.9.0","command":["python3","-m","vllm.entrypoints.openai.api_server"],
                "args":["--model","deepseek-ai/DeepSeek-V3","--tensor-parallel-size","4","--pipeline-parallel-size","4","--port","8000"],
                "env":[{"name":"NCCL_DEBUG","value":"INFO"},{"name":"VLLM_HOST_IP","valueFrom":{"fieldRef":{"fieldPath":"status.podIP"}}},
                {"name":"HF_TOKEN","valueFrom":{"secretKeyRef":{"name":"hf","key":"token"}}}],
                "resources":{"requests":{"cpu":"16","memory":"128Gi","nvidia.com/gpu":"4"},"limits":{"memory":"128Gi","nvidia.com/gpu":"4"}},
                "ports":[{"containerPort":8000,"protocol":"TCP"}],
                "readinessProbe":{"httpGet":{"path":"/health","port":8000},"periodSeconds":10},
                "volumeMounts":[{"name":"shm","mountPath":"/dev/shm"},{"name":"kube-api-access","mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","readOnly":true}]}],
                "volumes":[{"name":"shm","emptyDir":{"medium":"Memory","sizeLimit":"64Gi"}},
                {"name":"kube-api-access","projected":{"sources":[{"serviceAccountToken":{"path":"token","expirationSeconds":3607}}]}}],
                "tolerations":[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}]},
                "status":{"phase":"Running","podIP":"10.244.1.%5$d","hostIP":"10.0.1.1","startTime":"2026-01-01T00:00:00Z",
                "conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"},
                {"type":"PodScheduled","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"}],
                "containerStatuses":[{"name":"vllm","ready":true,"restartCount":0,"image":"vllm/vllm-openai:v0.9.0",
                "imageID":"docker.io/vllm/vllm-openai@sha256:%6$064d","containerID":"containerd://%6$064d","started":true,
                "state":{"running":{"startedAt":"2026-01-01T00:00:00Z"}}}]}}
                """.formatted(i, 5000 + i, i / 4, i % 4, i % 250, i);
    }
}

package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for the kubelets the test cluster does not have: a pod bound to a node is reported Running and
 * Ready (so StatefulSets, LeaderWorkerSets and Deployments progress as on real nodes), and a bound pod being
 * deleted is removed at once (without a kubelet the API server would keep it Terminating for ever).
 * Pods labelled {@value #HOLD_LABEL}{@code =true} stay Pending after binding, for tests of what happens
 * before a pod runs.
 */
public final class FakeKubelet implements AutoCloseable {

    /** Pods with this label set to {@code true} are bound but never reported running. */
    public static final String HOLD_LABEL = "e2e.topobridge.io/hold";

    private final KubernetesClient client;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fake-kubelet");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Boolean> started = new ConcurrentHashMap<>();
    private final AtomicInteger ips = new AtomicInteger(1);
    private SharedIndexInformer<Pod> informer;

    FakeKubelet(KubernetesClient client) {
        this.client = client;
    }

    void start() {
        informer = client.pods()
                .inAnyNamespace()
                .inform(
                        new ResourceEventHandler<>() {
                            @Override
                            public void onAdd(Pod pod) {
                                handle(pod);
                            }

                            @Override
                            public void onUpdate(Pod old, Pod pod) {
                                handle(pod);
                            }

                            @Override
                            public void onDelete(Pod pod, boolean unknown) {
                                started.remove(key(pod));
                            }
                        },
                        30_000);
    }

    private static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + "/"
                + pod.getMetadata().getUid();
    }

    private void handle(Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null || node.isEmpty()) {
            return;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            worker.execute(() -> forceDelete(pod));
            return;
        }
        boolean hold = "true"
                .equals(
                        pod.getMetadata().getLabels() == null
                                ? null
                                : pod.getMetadata().getLabels().get(HOLD_LABEL));
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (!hold && (phase == null || "Pending".equals(phase)) && started.putIfAbsent(key(pod), true) == null) {
            worker.execute(() -> run(pod));
        }
    }

    private void run(Pod pod) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        StringBuilder containers = new StringBuilder();
        for (var c : pod.getSpec().getContainers()) {
            if (!containers.isEmpty()) {
                containers.append(',');
            }
            containers
                    .append("{\"name\":\"")
                    .append(c.getName())
                    .append("\",\"image\":\"")
                    .append(c.getImage())
                    .append("\",\"imageID\":\"\",\"ready\":true,\"restartCount\":0,\"started\":true,")
                    .append("\"state\":{\"running\":{\"startedAt\":\"")
                    .append(now)
                    .append("\"}}}");
        }
        int n = ips.getAndIncrement();
        String ip = "10.244." + (n / 250 % 250) + "." + (n % 250 + 1);
        String condition = "{\"type\":\"%s\",\"status\":\"True\",\"lastTransitionTime\":\"" + now + "\"}";
        String patch = "{\"status\":{\"phase\":\"Running\",\"startTime\":\"" + now + "\",\"podIP\":\"" + ip
                + "\",\"podIPs\":[{\"ip\":\"" + ip + "\"}],\"hostIP\":\"192.0.2.10\",\"conditions\":["
                + String.format(condition, "PodScheduled") + "," + String.format(condition, "Initialized") + ","
                + String.format(condition, "ContainersReady") + "," + String.format(condition, "Ready")
                + "],\"containerStatuses\":[" + containers + "]}}";
        try {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
        } catch (KubernetesClientException e) {
            // gone or replaced meanwhile; the informer brings the new one
            started.remove(key(pod));
        }
    }

    private void forceDelete(Pod pod) {
        try {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .withGracePeriod(0)
                    .delete();
        } catch (KubernetesClientException e) {
            // already gone
        }
    }

    @Override
    public void close() {
        if (informer != null) {
            informer.close();
        }
        worker.shutdownNow();
    }
}

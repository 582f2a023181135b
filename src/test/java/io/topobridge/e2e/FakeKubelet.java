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
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 *
 * <p>A node can also be taken down ({@link #nodeDown}): its kubelet stops answering, so what the control plane's node
 * lifecycle controller does is done here at once (the cluster does not run it, since no kubelet renews a lease):
 * its Ready condition becomes Unknown and it is tainted {@code node.kubernetes.io/unreachable} NoSchedule and
 * NoExecute. Pods on a down node are no longer reported running, and a pod deleted there stays Terminating, as with
 * a real kubelet that cannot confirm it. {@link #evictPods} is what the taint-eviction controller does once a pod's
 * toleration of the NoExecute taint ends (300 s by default); {@link #deleteNode} removes the Node and then its pods,
 * as the pod garbage collector does for pods bound to a node that no longer exists.
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
    private final Set<String> down = ConcurrentHashMap.newKeySet();
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
        if (node == null || node.isEmpty() || down.contains(node)) {
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

    /** The taint the node lifecycle controller puts on a node whose kubelet stopped answering. */
    public static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";

    /**
     * Takes a node down: its kubelet no longer answers. Its Ready condition turns Unknown and it is tainted unreachable
     * (NoSchedule, NoExecute), as the node lifecycle controller does after its grace period; its pods keep the phase
     * they had, and a pod deleted there stays Terminating.
     */
    public void nodeDown(String node) {
        down.add(node);
        String now = ready(node, "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.");
        client.nodes()
                .withName(node)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"taints\":[{\"key\":\"" + UNREACHABLE_TAINT + "\",\"effect\":\"NoSchedule\","
                                + "\"timeAdded\":\"" + now + "\"},{\"key\":\"" + UNREACHABLE_TAINT
                                + "\",\"effect\":\"NoExecute\",\"timeAdded\":\"" + now + "\"}]}}");
    }

    /** Brings a node taken down back: Ready again, its taints removed, its pods reported as before. */
    public void nodeUp(String node) {
        down.remove(node);
        ready(node, "True", "KubeletReady", "fake kubelet");
        client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"taints\":null}}");
    }

    /** Sets the node's Ready condition, beating and turning now, and returns that moment as the API writes it. */
    private String ready(String node, String status, String reason, String message) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        String patch = "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"%s\",\"reason\":\"%s\","
                + "\"message\":\"%s\",\"lastHeartbeatTime\":\"%s\",\"lastTransitionTime\":\"%s\"}]}}";
        client.nodes()
                .withName(node)
                .subresource("status")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch.formatted(status, reason, message, now, now));
        return now;
    }

    /** Whether a node was taken down and not brought back. */
    public boolean isDown(String node) {
        return down.contains(node);
    }

    /**
     * Deletes the pods bound to a node, as the taint-eviction controller does when their toleration of the node's
     * NoExecute taint ends; returns the pods deleted. On a down node they stay Terminating.
     */
    public List<Pod> evictPods(String node) {
        List<Pod> pods = podsOn(node);
        for (Pod pod : pods) {
            try {
                client.resource(pod).delete();
            } catch (KubernetesClientException e) {
                // gone meanwhile
            }
        }
        return pods;
    }

    /**
     * Deletes a Node and then the pods bound to it at once, as the pod garbage collector does with pods whose node no
     * longer exists (after a 40 s quarantine); returns the pods removed.
     */
    public List<Pod> deleteNode(String node) {
        client.nodes().withName(node).withGracePeriod(0).delete();
        down.remove(node);
        List<Pod> pods = podsOn(node);
        for (Pod pod : pods) {
            forceDelete(pod);
        }
        return pods;
    }

    private List<Pod> podsOn(String node) {
        return client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .list()
                .getItems();
    }

    @Override
    public void close() {
        if (informer != null) {
            informer.close();
        }
        worker.shutdownNow();
    }
}

package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * A pool of its own on the real cluster for the failure tests of a running hard-tier gang: two NVLink partitions of
 * four 4-GPU nodes each ({@code <prefix>-a1..a4}, {@code <prefix>-b1..b4}, labelled {@value #POOL_LABEL}{@code
 * =<pool>}, one leaf and spine above both), a namespace opted in, and the failures done to one pod of a gang: killed,
 * its node NotReady (the pod evicted, left Terminating), its node drained (cordoned, the pod evicted), its node deleted.
 * Each test class gives its own prefix, pool and clique so the pools never meet.
 */
final class TwoPartitionPool {

    static final String POOL_LABEL = "e2e.topobridge.io/pool";
    /** How long a gang may take to be placed at first, and the pool's nodes to sit in their partitions. */
    static final Duration PLACED = Duration.ofSeconds(120);

    /** The failures done to one pod of a gang. */
    enum Failure {
        POD_KILLED,
        NODE_NOT_READY,
        NODE_CORDONED,
        NODE_DELETED
    }

    private final RealCluster cluster;
    private final String namespace;
    private final String prefix;
    private final String pool;
    private final String clique;
    private final List<String> partitionA;
    private final List<String> partitionB;
    private KubernetesClient client;

    /**
     * @param cluster the real cluster
     * @param namespace the namespace of the test's workloads
     * @param prefix the nodes' name prefix ({@code <prefix>-a1})
     * @param pool the value of {@value #POOL_LABEL} on the nodes, also in their leaf and spine names
     * @param clique the NVLink clique id the partitions' {@code nvidia.com/gpu.clique} start with ({@code .1}, {@code .2})
     */
    TwoPartitionPool(RealCluster cluster, String namespace, String prefix, String pool, String clique) {
        this.cluster = cluster;
        this.namespace = namespace;
        this.prefix = prefix;
        this.pool = pool;
        this.clique = clique;
        this.partitionA =
                IntStream.rangeClosed(1, 4).mapToObj(i -> prefix + "-a" + i).toList();
        this.partitionB =
                IntStream.rangeClosed(1, 4).mapToObj(i -> prefix + "-b" + i).toList();
    }

    String namespace() {
        return namespace;
    }

    String pool() {
        return pool;
    }

    /** The pool's nodes, the test's namespace opted in, the bridge running. */
    void setUp() {
        client = cluster.onExamples();
        restoreNodes();
        cluster.createOptedInNamespace(namespace);
        cluster.waitFor(
                "the default ServiceAccount in " + namespace,
                Duration.ofSeconds(60),
                () -> client.serviceAccounts()
                                .inNamespace(namespace)
                                .withName("default")
                                .get()
                        != null);
    }

    /** The namespace gone, then the pool's nodes (brought up first, so that their pods can end). */
    void tearDown() {
        client.namespaces().withName(namespace).delete();
        for (String node : allNodes()) {
            if (cluster.kubelet().isDown(node)) {
                cluster.kubelet().nodeUp(node);
            }
            forceDeleteTerminating(node);
        }
        cluster.waitFor(
                "namespace " + namespace + " gone",
                Duration.ofSeconds(180),
                () -> client.namespaces().withName(namespace).get() == null);
        for (String node : allNodes()) {
            cluster.kubelet().deleteNode(node);
        }
    }

    List<String> partitionA() {
        return partitionA;
    }

    List<String> partitionB() {
        return partitionB;
    }

    List<String> allNodes() {
        List<String> out = new ArrayList<>(partitionA);
        out.addAll(partitionB);
        return out;
    }

    /** The nodes of the partition {@code node} is not in. */
    List<String> otherPartition(String node) {
        return partitionA.contains(node) ? partitionB : partitionA;
    }

    private Node node(String name) {
        String partition = name.startsWith(prefix + "-a") ? ".1" : ".2";
        return Nodes.node(name)
                .label(POOL_LABEL, pool)
                .label("nvidia.com/gpu.present", "true")
                .label("nvidia.com/gpu.clique", clique + partition)
                .label("fabric.topograph.run/tier-0", "S-" + pool + "-leaf")
                .label("fabric.topograph.run/tier-1", "S-" + pool + "-spine")
                .cpu("64")
                .memory("512Gi")
                .gpus(4)
                .build();
    }

    /** Every node of the pool exists, is Ready, schedulable and untainted, and sits in its NVLink partition. */
    void restoreNodes() {
        for (String name : allNodes()) {
            Node current = client.nodes().withName(name).get();
            if (current == null) {
                Nodes.create(client, node(name));
                continue;
            }
            if (cluster.kubelet().isDown(name)) {
                cluster.kubelet().nodeUp(name);
            }
            forceDeleteTerminating(name);
            if (Boolean.TRUE.equals(current.getSpec().getUnschedulable())) {
                Nodes.cordon(client, name, false);
            }
        }
        cluster.waitFor("the pool's nodes in their NVLink partitions", PLACED, () -> {
            Placement placement = Placement.of(client);
            return allNodes().stream()
                            .allMatch(n -> !placement.ancestors(n).isEmpty()
                                    && placement.ancestors(n).get(0).tier() == 1)
                    && placement
                            .lowestCommon(partitionA)
                            .map(d -> d.tier() == 1)
                            .orElse(false)
                    && placement
                            .lowestCommon(partitionB)
                            .map(d -> d.tier() == 1)
                            .orElse(false);
        });
    }

    /** Pods left Terminating on a node that was down (no kubelet confirmed their end). */
    void forceDeleteTerminating(String node) {
        for (Pod pod : client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .list()
                .getItems()) {
            if (pod.getMetadata().getDeletionTimestamp() != null) {
                try {
                    client.resource(pod).withGracePeriod(0).delete();
                } catch (KubernetesClientException e) {
                    // gone meanwhile
                }
            }
        }
    }

    /** {@link #forceDeleteTerminating(String)} on every node of the pool. */
    void forceDeleteTerminating() {
        allNodes().forEach(this::forceDeleteTerminating);
    }

    /** Makes the failure happen to one pod of a gang; returns the uids of the pods it took away. */
    Set<String> fail(Failure failure, Pod victim) {
        String node = victim.getSpec().getNodeName();
        Set<String> gone = new HashSet<>();
        switch (failure) {
            case POD_KILLED -> {
                client.resource(victim).delete();
                gone.add(victim.getMetadata().getUid());
            }
            case NODE_NOT_READY -> {
                cluster.kubelet().nodeDown(node);
                cluster.kubelet()
                        .evictPods(node)
                        .forEach(p -> gone.add(p.getMetadata().getUid()));
            }
            case NODE_CORDONED -> {
                // kubectl drain of one node: cordoned, its pod evicted
                Nodes.cordon(client, node, true);
                client.pods()
                        .inNamespace(namespace)
                        .withName(victim.getMetadata().getName())
                        .evict();
                gone.add(victim.getMetadata().getUid());
            }
            case NODE_DELETED ->
                cluster.kubelet()
                        .deleteNode(node)
                        .forEach(p -> gone.add(p.getMetadata().getUid()));
        }
        return gone;
    }

    /** The Events of a reason on an object of the namespace. */
    List<Event> events(String reason, String kind, String name) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason())
                        && kind.equals(e.getInvolvedObject().getKind())
                        && name.equals(e.getInvolvedObject().getName()))
                .toList();
    }

    /** The PodGroup's {@code topobridge.io/achieved-tier}, null when it has none or is gone. */
    String achievedTier(String podGroup) {
        var pg = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(namespace)
                .withName(podGroup)
                .get();
        return pg == null || pg.getMetadata().getAnnotations() == null
                ? null
                : pg.getMetadata().getAnnotations().get("topobridge.io/achieved-tier");
    }

    /**
     * The bridge's writes since the mark to the test's namespace or to cluster-wide objects (HyperNodes): a class that
     * ran before on the same cluster may leave the bridge tidying its namespaces up meanwhile.
     */
    List<AuditLog.Write> ownWrites(long mark) {
        return cluster.audit().writesSince(mark, RealCluster.BRIDGE).stream()
                .filter(w -> w.namespace().isEmpty() || namespace.equals(w.namespace()))
                .toList();
    }
}

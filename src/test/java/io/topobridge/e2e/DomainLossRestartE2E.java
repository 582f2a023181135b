package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code topobridge.io/on-domain-loss} on the real cluster: a Deployment of four 4-GPU pods, {@code highest-tier:
 * nvlink}, fills NVLink partition A of a pool of its own (two partitions of four 4-GPU nodes); partition B sits empty
 * beside it. The node of its last pod goes NotReady (its pod evicted, left Terminating), is drained, or is deleted. With
 * {@code restart} and a 10 s grace the bridge deletes the gang's pods once the domain has been lost for the grace, and
 * the Deployment's pods run whole again in partition B; with {@code wait} it deletes nothing. Per scenario it prints the
 * time from the failure to the restart and to the whole gang running in the other partition, whether the tier was kept
 * and the bridge's writes in the audit log.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DomainLossRestartE2E {

    static final String NS = "domainloss-e2e";
    static final String POOL_LABEL = "e2e.topobridge.io/pool";
    static final String POOL = "domainloss";
    static final Duration GRACE = Duration.ofSeconds(10);
    /** How long the gang may take to run again in the other partition, from the failure. */
    static final Duration WINDOW = Duration.ofSeconds(Long.getLong("topobridge.e2e.domainloss.window", 90));
    /** How many times each restart scenario runs (medians are printed). */
    static final int RUNS = Integer.getInteger("topobridge.e2e.domainloss.runs", 1);

    private static final Duration PLACED = Duration.ofSeconds(120);
    private static final String CLIQUE = "4c2d9b7e-1a3f-4e5d-9c8b-domainloss01";
    private static final List<String> PARTITION_A = List.of("dl-a1", "dl-a2", "dl-a3", "dl-a4");
    private static final List<String> PARTITION_B = List.of("dl-b1", "dl-b2", "dl-b3", "dl-b4");

    /** The failures. */
    enum Failure {
        NODE_NOT_READY,
        NODE_CORDONED,
        NODE_DELETED
    }

    /** What one run measured. */
    record Figures(
            String policy,
            Failure failure,
            Duration toRestart,
            Duration toRunning,
            Boolean tierKept,
            String domainBefore,
            String domainAfter,
            Map<String, Integer> bridgeWrites,
            String achievedTier,
            Duration window) {

        String line() {
            return "DOMAINLOSS kind=Deployment policy=" + policy + " failure=" + failure + " restarted="
                    + (toRestart == null ? "no" : toRestart.toMillis() + " ms") + " running-again="
                    + (toRunning == null ? "no (stuck > " + window.toSeconds() + " s)" : toRunning.toMillis() + " ms")
                    + " tier-kept=" + (tierKept == null ? "-" : tierKept ? "yes" : "no") + " domain=" + domainBefore
                    + "->" + domainAfter + " achieved-tier=" + achievedTier + " bridge-writes=" + bridgeWrites;
        }
    }

    private final RealCluster cluster;
    private KubernetesClient client;
    private final List<String> lines = new ArrayList<>();
    private final Map<Failure, List<Figures>> measured = new TreeMap<>();

    DomainLossRestartE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void pool() {
        client = cluster.client();
        Examples.ensureNodes(client);
        cluster.bridge();
        restoreNodes();
        cluster.createOptedInNamespace(NS);
        cluster.waitFor(
                "the default ServiceAccount in " + NS,
                Duration.ofSeconds(60),
                () -> client.serviceAccounts()
                                .inNamespace(NS)
                                .withName("default")
                                .get()
                        != null);
    }

    @AfterAll
    void cleanUp() {
        lines.forEach(System.out::println);
        measured.forEach((failure, runs) -> {
            List<Long> running = runs.stream()
                    .filter(f -> f.toRunning() != null)
                    .map(f -> f.toRunning().toMillis())
                    .sorted()
                    .toList();
            List<Long> restart = runs.stream()
                    .filter(f -> f.toRestart() != null)
                    .map(f -> f.toRestart().toMillis())
                    .sorted()
                    .toList();
            System.out.println("DOMAINLOSS median policy=restart failure=" + failure + " runs=" + runs.size()
                    + " restarted=" + median(restart) + " ms running-again=" + median(running) + " ms (all: "
                    + running + ")");
        });
        client.namespaces().withName(NS).delete();
        for (String node : allNodes()) {
            if (cluster.kubelet().isDown(node)) {
                cluster.kubelet().nodeUp(node);
            }
            forceDeleteTerminating(node);
        }
        cluster.waitFor(
                "namespace " + NS + " gone",
                Duration.ofSeconds(180),
                () -> client.namespaces().withName(NS).get() == null);
        for (String node : allNodes()) {
            cluster.kubelet().deleteNode(node);
        }
    }

    private static Object median(List<Long> sorted) {
        return sorted.isEmpty() ? "-" : sorted.get(sorted.size() / 2);
    }

    // ---------------------------------------------------------------- the pool

    private static List<String> allNodes() {
        List<String> out = new ArrayList<>(PARTITION_A);
        out.addAll(PARTITION_B);
        return out;
    }

    private static Node node(String name) {
        String partition = name.startsWith("dl-a") ? ".1" : ".2";
        return Nodes.node(name)
                .label(POOL_LABEL, POOL)
                .label("nvidia.com/gpu.present", "true")
                .label("nvidia.com/gpu.clique", CLIQUE + partition)
                .label("fabric.topograph.run/tier-0", "S-domainloss-leaf")
                .label("fabric.topograph.run/tier-1", "S-domainloss-spine")
                .cpu("64")
                .memory("512Gi")
                .gpus(4)
                .build();
    }

    /** Every node of the pool exists, is Ready, schedulable and untainted, and sits in its NVLink partition. */
    private void restoreNodes() {
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
                            .lowestCommon(PARTITION_A)
                            .map(d -> d.tier() == 1)
                            .orElse(false)
                    && placement
                            .lowestCommon(PARTITION_B)
                            .map(d -> d.tier() == 1)
                            .orElse(false);
        });
    }

    /** Pods left Terminating on a node that was down (no kubelet confirmed their end). */
    private void forceDeleteTerminating(String node) {
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

    // ---------------------------------------------------------------- the workload

    private static String manifest(String name, String policy) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %1$s
                  namespace: %2$s
                  annotations:
                    topobridge.io/highest-tier: nvlink
                    topobridge.io/on-domain-loss: %3$s
                    topobridge.io/domain-loss-grace: %4$ds
                spec:
                  replicas: 4
                  selector: {matchLabels: {app: %1$s}}
                  template:
                    metadata: {labels: {app: %1$s}}
                    spec:
                      schedulerName: volcano
                      nodeSelector: {%5$s: %6$s}
                      containers:
                      - name: engine
                        image: registry.k8s.io/pause:3.10
                        resources:
                          requests: {nvidia.com/gpu: "4", cpu: "1"}
                          limits: {nvidia.com/gpu: "4"}
                """.formatted(name, NS, policy, GRACE.toSeconds(), POOL_LABEL, POOL);
    }

    private HasMetadata object(String name, String policy) {
        return client.getKubernetesSerialization().unmarshal(manifest(name, policy), HasMetadata.class);
    }

    /** The gang's pods that are not being deleted. */
    private List<Pod> live(String app) {
        return client.pods().inNamespace(NS).withLabel("app", app).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    /** Four live pods, all running, none of them one the failure took away. */
    private boolean running(String app, Set<String> gone) {
        List<Pod> pods = live(app);
        return pods.size() == 4
                && pods.stream()
                        .allMatch(p -> "Running".equals(p.getStatus().getPhase())
                                && p.getSpec().getNodeName() != null
                                && !gone.contains(p.getMetadata().getUid()));
    }

    private Optional<Placement.Domain> domain(String app) {
        return Placement.of(client)
                .lowestCommon(
                        live(app).stream().map(p -> p.getSpec().getNodeName()).toList());
    }

    private Set<String> fail(Failure failure, Pod victim) {
        String node = victim.getSpec().getNodeName();
        Set<String> gone = new HashSet<>();
        switch (failure) {
            case NODE_NOT_READY -> {
                cluster.kubelet().nodeDown(node);
                cluster.kubelet()
                        .evictPods(node)
                        .forEach(p -> gone.add(p.getMetadata().getUid()));
            }
            case NODE_CORDONED -> {
                Nodes.cordon(client, node, true);
                client.pods()
                        .inNamespace(NS)
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

    private List<Event> events(String reason, String kind, String name) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason())
                        && kind.equals(e.getInvolvedObject().getKind())
                        && name.equals(e.getInvolvedObject().getName()))
                .toList();
    }

    private String achievedTier(String podGroup) {
        var pg = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(NS)
                .withName(podGroup)
                .get();
        return pg == null || pg.getMetadata().getAnnotations() == null
                ? null
                : pg.getMetadata().getAnnotations().get("topobridge.io/achieved-tier");
    }

    /** Runs one scenario; returns what it measured. */
    private Figures scenario(String policy, Failure failure, int run) {
        String name = "dl-" + policy + "-"
                + failure.name().toLowerCase().replace("_", "-").replace("node-", "") + "-" + run;
        restoreNodes();
        client.resource(object(name, policy)).create();
        try {
            cluster.waitFor(name + " running", PLACED, () -> running(name, Set.of()));
            String before = domain(name).map(Placement.Domain::name).orElse("none");
            List<Pod> pods = new ArrayList<>(live(name));
            pods.sort(java.util.Comparator.comparing(p -> p.getMetadata().getName()));
            String podGroup = pods.get(0).getMetadata().getAnnotations().get("scheduling.k8s.io/group-name");
            Set<String> original = new HashSet<>();
            pods.forEach(p -> original.add(p.getMetadata().getUid()));
            Pod victim = pods.get(pods.size() - 1);
            // the partition the gang does not run in: where a restart must take it
            List<String> otherNodes = PARTITION_A.contains(victim.getSpec().getNodeName()) ? PARTITION_B : PARTITION_A;
            String other = Placement.of(client)
                    .lowestCommon(otherNodes)
                    .map(Placement.Domain::name)
                    .orElseThrow();
            cluster.waitFor("the achieved tier of " + podGroup, PLACED, () -> "1".equals(achievedTier(podGroup)));
            long mark = cluster.audit().mark();
            long started = System.nanoTime();
            Set<String> gone = fail(failure, victim);
            Duration toRestart = null;
            Duration toRunning = null;
            Duration window = "restart".equals(policy) ? WINDOW : GRACE.multipliedBy(3);
            long deadline = started + window.toNanos();
            while (System.nanoTime() < deadline) {
                if (toRestart == null
                        && !events("GangRestarted", "Deployment", name).isEmpty()) {
                    toRestart = Duration.ofNanos(System.nanoTime() - started);
                }
                // whole again, and in the other partition: none of the pods that ran before the failure
                if (running(name, original)) {
                    toRunning = Duration.ofNanos(System.nanoTime() - started);
                    break;
                }
                RealCluster.sleep(Duration.ofMillis(200));
            }
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(60));
            Optional<Placement.Domain> after = toRunning == null ? Optional.empty() : domain(name);
            Map<String, Integer> writes = new TreeMap<>();
            // this test's namespace and cluster-wide objects: a class that ran before may leave the bridge tidying up
            List<AuditLog.Write> bridgeWrites = cluster.audit().writesSince(mark, RealCluster.BRIDGE).stream()
                    .filter(w -> w.namespace().isEmpty() || NS.equals(w.namespace()))
                    .toList();
            for (AuditLog.Write w : bridgeWrites) {
                writes.merge(w.verb() + " " + w.resource(), 1, Integer::sum);
            }
            Figures f = new Figures(
                    policy,
                    failure,
                    toRestart,
                    toRunning,
                    toRunning == null ? null : after.map(d -> d.tier() <= 1).orElse(false),
                    before,
                    after.map(Placement.Domain::name).orElse("-"),
                    writes,
                    achievedTier(podGroup),
                    window);
            System.out.println(f.line());
            lines.add(f.line());
            List<AuditLog.Write> podDeletes = bridgeWrites.stream()
                    .filter(w -> "delete".equals(w.verb()) && "pods".equals(w.resource()))
                    .toList();
            if ("restart".equals(policy)) {
                assertThat(toRestart)
                        .as("a GangRestarted Event within " + window + "; " + f.line())
                        .isNotNull();
                assertThat(toRestart).as(f.line()).isGreaterThanOrEqualTo(GRACE);
                String message =
                        events("GangRestarted", "Deployment", name).get(0).getMessage();
                assertThat(message)
                        .contains("gang " + podGroup)
                        .contains(before)
                        .contains("deleted its pods")
                        .contains(other);
                assertThat(events("GangRestarted", "PodGroup", podGroup)).isNotEmpty();
                assertThat(f.toRunning())
                        .as("the whole gang running again within " + window + "; " + f.line())
                        .isNotNull();
                assertThat(f.domainAfter()).as(f.line()).isEqualTo(other);
                assertThat(f.tierKept()).as(f.line()).isTrue();
                // the live pods of the gang at the restart (three on the partition's nodes, the pending replacement;
                // for a node not ready the pod still bound there too when not evicted yet), each deleted once
                assertThat(podDeletes)
                        .as("pod deletes of the bridge")
                        .allSatisfy(w -> assertThat(w.succeeded()).isTrue())
                        .hasSizeBetween(3, 4);
                assertThat(podDeletes.stream().map(AuditLog.Write::name).distinct())
                        .hasSameSizeAs(podDeletes);
                // exactly the gang's pods of the moment (the audit log keeps no request body of a delete: the uid
                // precondition itself is proven by deletesOnlyThePodItDecidedOn)
                assertThat(podDeletes).allSatisfy(w -> assertThat(w.name()).startsWith(name + "-"));
                // the gang runs at the tier it asked for, in its new partition: no PodGroup rewrite is needed
                assertThat(achievedTier(podGroup)).isEqualTo("1");
                assertThat(writes.getOrDefault("patch podgroups", 0))
                        .as(f.line())
                        .isLessThanOrEqualTo(1);
                // no second restart: after the window, still no more deletes than the first
                RealCluster.sleep(GRACE.plusSeconds(2));
                assertThat(cluster.audit().writesSince(mark, RealCluster.BRIDGE).stream()
                                .filter(w -> NS.equals(w.namespace()))
                                .filter(w -> "delete".equals(w.verb()) && "pods".equals(w.resource()))
                                .count())
                        .as("pod deletes after the window")
                        .isEqualTo(podDeletes.size());
                assertThat(running(name, original)).as("still running whole").isTrue();
            } else {
                assertThat(podDeletes).as("wait: the bridge deletes nothing").isEmpty();
                assertThat(toRestart).isNull();
                assertThat(f.toRunning())
                        .as("wait: the gang stays short in its partition; " + f.line())
                        .isNull();
                assertThat(events("DomainLost", "Deployment", name)).isNotEmpty();
                assertThat(achievedTier(podGroup)).isEqualTo("1");
            }
            return f;
        } finally {
            client.resource(object(name, policy)).delete();
            for (String node : allNodes()) {
                forceDeleteTerminating(node);
            }
            cluster.waitFor(
                    name + "'s pods gone",
                    Duration.ofSeconds(120),
                    () -> client.pods()
                            .inNamespace(NS)
                            .withLabel("app", name)
                            .list()
                            .getItems()
                            .isEmpty());
        }
    }

    private void restarts(Failure failure) {
        for (int run = 1; run <= RUNS; run++) {
            measured.computeIfAbsent(failure, f -> new ArrayList<>()).add(scenario("restart", failure, run));
        }
    }

    @Test
    void nodeNotReadyRestartsTheGangInTheOtherPartition() {
        restarts(Failure.NODE_NOT_READY);
    }

    @Test
    void nodeDrainedRestartsTheGangInTheOtherPartition() {
        restarts(Failure.NODE_CORDONED);
    }

    @Test
    void nodeDeletedRestartsTheGangInTheOtherPartition() {
        restarts(Failure.NODE_DELETED);
    }

    /**
     * The one writer's pod delete names the uid it was decided on: a pod made since under the same name (a StatefulSet's
     * pod, say) is left alone, on the real API server.
     */
    @Test
    void deletesOnlyThePodItDecidedOn() {
        var applier =
                new io.topobridge.apply.Applier(client, new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
        Pod pod = client.pods()
                .inNamespace(NS)
                .resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                        .withNewMetadata()
                        .withName("same-name")
                        .withNamespace(NS)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeSelector(Map.of(POOL_LABEL, "nowhere"))
                        .addNewContainer()
                        .withName("c")
                        .withImage("registry.k8s.io/pause:3.10")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        try {
            assertThat(applier.deletePod(NS, "same-name", "00000000-0000-0000-0000-000000000000"))
                    .as("another uid: refused by the API server, nothing deleted")
                    .isFalse();
            Pod still = client.pods().inNamespace(NS).withName("same-name").get();
            assertThat(still).isNotNull();
            assertThat(still.getMetadata().getDeletionTimestamp()).isNull();
            assertThat(applier.deletePod(NS, "same-name", pod.getMetadata().getUid()))
                    .isTrue();
            cluster.waitFor("pod same-name deleted", Duration.ofSeconds(30), () -> {
                Pod now = client.pods().inNamespace(NS).withName("same-name").get();
                return now == null || now.getMetadata().getDeletionTimestamp() != null;
            });
            assertThat(applier.deletePod(NS, "gone-already", pod.getMetadata().getUid()))
                    .as("a pod that is not there")
                    .isFalse();
        } finally {
            client.pods()
                    .inNamespace(NS)
                    .withName("same-name")
                    .withGracePeriod(0)
                    .delete();
        }
    }

    @Test
    void waitDeletesNothing() {
        scenario("wait", Failure.NODE_NOT_READY, 1);
    }
}

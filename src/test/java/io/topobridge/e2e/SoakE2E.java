package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Soak: {@code soak.minutes} (default 10) of seeded random churn on the real cluster against one packaged bridge —
 * nodes added, removed and relabelled (moved to another leaf switch and NVLink partition, or stripped of their
 * topology labels); Deployments created, scaled, re-annotated (another tier, or no {@code topobridge.io/} key at
 * all) and deleted — with the bridge restarted twice (once stopped gracefully, once SIGKILLed). At the end the
 * HyperNodes and the namespace's PodGroups equal what a fresh {@code render} prints for the cluster as it then is;
 * the bridge's Event writes per minute (audit log) stay within what the churn explains; and its heap after a full
 * GC does not grow within a process lifetime beyond a bound.
 */
@ExtendWith(RealClusterExtension.class)
class SoakE2E {

    private static final String NS = "soak-e2e";
    private static final String CLIQUE = "nvidia.com/gpu.clique";
    private static final String LEAF = "fabric.topograph.run/tier-0";
    private static final String SPINE = "fabric.topograph.run/tier-1";
    private static final String TIER = "topobridge.io/highest-tier";
    /** Soak leaf switches; leaf i sits under spine i % 2 and holds NVLink domain i with partitions .1 and .2. */
    private static final int LEAVES = 4;

    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);
    private static final int MAX_NODES = 16;
    private static final int MAX_WORKLOADS = 10;
    private static final List<String> TIERS = List.of("nvlink", "nvlink-domain", "leaf", "spine", "1", "2");
    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final Duration WARM_UP = Duration.ofSeconds(45);
    private static final Duration HEAP_EVERY = Duration.ofSeconds(20);
    private static final Pattern HEAP_USED =
            Pattern.compile("(?m)^jvm_memory_used_bytes\\{[^}]*area=\"heap\"[^}]*}\\s+([0-9.eE+-]+)");

    private final RealCluster cluster;
    private final Random random;
    private final Map<String, Integer> ops = new TreeMap<>();
    private final List<String> nodes = new ArrayList<>();
    private final List<String> workloads = new ArrayList<>();
    private int nextNode;
    private int nextWorkload;

    SoakE2E(RealCluster cluster) {
        this.cluster = cluster;
        this.random = new Random(Long.getLong("soak.seed", 14L));
    }

    /** One sample of the heap used right after a full GC, in a process lifetime, at a time since its start. */
    private record HeapSample(int lifetime, double secondsSinceStart, double megabytes) {}

    /** One minute of churn: how many operations, and how many Event writes of the bridge (audit log). */
    private record Minute(int operations, int eventWrites, int restarts) {}

    @Test
    void churnForMinutesEndsAsRenderPrintsWithoutEventStormOrHeapGrowth() throws Exception {
        Duration duration = Duration.ofMinutes(Long.getLong("soak.minutes", 10L));
        KubernetesClient client = cluster.client();
        Examples.ensureNodes(client);
        cluster.stopBridge();
        TestNamespace namespace = TestNamespace.forCase(NS).open(cluster);
        int othersAtStart = client.nodes().list().getItems().size()
                + client.apps().deployments().inAnyNamespace().list().getItems().size()
                + client.apps()
                        .statefulSets()
                        .inAnyNamespace()
                        .list()
                        .getItems()
                        .size()
                + client.batch().v1().jobs().inAnyNamespace().list().getItems().size();
        Bridge bridge = Bridge.on(cluster, "soak").start().awaitReady(WAIT);
        int lifetime = 0;
        long lifetimeStart = System.nanoTime();
        List<HeapSample> heap = new ArrayList<>();
        List<Minute> minutes = new ArrayList<>();
        try {
            // a starting population, so every operation has something to act on
            for (int i = 0; i < MAX_NODES / 2; i++) {
                addNode();
            }
            for (int i = 0; i < MAX_WORKLOADS / 2; i++) {
                createWorkload();
            }
            ops.clear();

            long start = System.nanoTime();
            long end = start + duration.toNanos();
            long[] restartsAt = {start + duration.toNanos() / 3, start + 2 * duration.toNanos() / 3};
            int restarts = 0;
            long minuteStart = start;
            long minuteMark = cluster.audit().mark();
            int minuteOps = 0;
            int minuteRestarts = 0;
            long nextHeap = lifetimeStart + WARM_UP.toNanos();
            int total = 0;
            while (System.nanoTime() < end) {
                if (restarts < restartsAt.length && System.nanoTime() >= restartsAt[restarts]) {
                    if (restarts == 0) {
                        bridge.stop();
                    } else {
                        bridge.kill();
                    }
                    // churn goes on while it is down
                    for (int i = 0; i < 3; i++) {
                        churn();
                        minuteOps++;
                        total++;
                    }
                    bridge.restart().awaitReady(WAIT);
                    restarts++;
                    minuteRestarts++;
                    lifetime++;
                    lifetimeStart = System.nanoTime();
                    nextHeap = lifetimeStart + WARM_UP.toNanos();
                }
                churn();
                minuteOps++;
                total++;
                if (System.nanoTime() >= nextHeap) {
                    heap.add(new HeapSample(lifetime, (System.nanoTime() - lifetimeStart) / 1e9, heapAfterGc(bridge)));
                    nextHeap = System.nanoTime() + HEAP_EVERY.toNanos();
                }
                if (System.nanoTime() - minuteStart >= TimeUnit.MINUTES.toNanos(1)) {
                    long mark = cluster.audit().mark();
                    minutes.add(new Minute(minuteOps, eventWrites(minuteMark), minuteRestarts));
                    minuteMark = mark;
                    minuteStart = System.nanoTime();
                    minuteOps = 0;
                    minuteRestarts = 0;
                }
                RealCluster.sleep(Duration.ofMillis(400 + random.nextInt(800)));
            }
            Duration churned = Duration.ofNanos(System.nanoTime() - start);
            heap.add(new HeapSample(lifetime, (System.nanoTime() - lifetimeStart) / 1e9, heapAfterGc(bridge)));

            // the end: the bridge settles on what render prints for the cluster as it is
            long settleStart = System.nanoTime();
            Map<String, JsonNode> hyperNodes = new TreeMap<>();
            Map<String, JsonNode> podGroups = new TreeMap<>();
            rendered(hyperNodes, podGroups);
            cluster.waitFor(
                    "the HyperNodes render prints",
                    WAIT,
                    () -> Examples.hyperNodes(client).equals(hyperNodes));
            cluster.waitFor(
                    "the PodGroups render prints",
                    WAIT,
                    () -> podGroupDifferences(podGroups).isEmpty());
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), WAIT);
            // the last minute, cut short: the settling counted with it
            minutes.add(new Minute(minuteOps, eventWrites(minuteMark), minuteRestarts));
            rendered(hyperNodes, podGroups);
            assertThat(Examples.hyperNodes(client))
                    .as("HyperNodes after the soak")
                    .isEqualTo(hyperNodes);
            assertThat(podGroupDifferences(podGroups))
                    .as("PodGroups after the soak against " + podGroups.keySet())
                    .isEmpty();
            Duration settled = Duration.ofNanos(System.nanoTime() - settleStart);
            bridge.process().assertAlive();

            // Events: the bridge writes an Event when a finding appears or its message changes, never on a resync
            // or a pass that changes nothing; a restart forgets what it recorded and counts each current finding's
            // Event up once. So a minute's Event writes are bounded by what changed in it: on average at most one
            // per operation (each touches one object: a node, or a workload and its gang), plus, in a minute with a
            // restart, one per object that can carry a finding. A storm (Events re-sent on every pass or resync)
            // breaks it at once: there are several passes a second while the churn goes on.
            // (other test classes of the run may have left nodes and workloads that carry findings too)
            int objects = MAX_NODES + MAX_WORKLOADS + othersAtStart;
            for (Minute m : minutes) {
                assertThat(m.eventWrites())
                        .as("Event writes in a minute of " + m.operations() + " operations and " + m.restarts()
                                + " restarts; all minutes: " + minutes)
                        .isLessThanOrEqualTo(m.operations() + m.restarts() * objects + 10);
            }
            List<Integer> perMinute =
                    new ArrayList<>(minutes.stream().map(Minute::eventWrites).toList());
            Collections.sort(perMinute);
            long bridgeEvents = client.v1().events().inAnyNamespace().list().getItems().stream()
                    .filter(e -> "topobridge".equals(e.getReportingComponent())
                            || (e.getSource() != null
                                    && "topobridge".equals(e.getSource().getComponent())))
                    .count();

            // heap: within each lifetime, the last samples after GC against the first after warm-up
            List<String> heapFigures = new ArrayList<>();
            double worstGrowth = 0;
            for (int l = 0; l <= lifetime; l++) {
                int life = l;
                List<Double> samples = heap.stream()
                        .filter(s -> s.lifetime() == life)
                        .map(HeapSample::megabytes)
                        .toList();
                if (samples.size() < 2) {
                    heapFigures.add("lifetime " + l + ": " + samples.size() + " sample(s)");
                    continue;
                }
                int n = Math.max(1, samples.size() / 3);
                double first = median(samples.subList(0, n));
                double last = median(samples.subList(samples.size() - n, samples.size()));
                worstGrowth = Math.max(worstGrowth, last - first);
                heapFigures.add(String.format(
                        "lifetime %d: %.1f MB -> %.1f MB (%d samples %s)", l, first, last, samples.size(), samples));
            }
            System.out.printf(
                    "Soak: %d min of churn (seed %d), %d operations %s, 2 restarts; settled as render prints in %d ms:"
                            + " %d HyperNodes, %d PodGroups equal; Event writes per minute max %d median %d (%s),"
                            + " %d Events of the bridge at the end; heap after GC %s, worst growth in a lifetime %.1f MB%n",
                    churned.toMinutes(),
                    Long.getLong("soak.seed", 14L),
                    total,
                    ops,
                    settled.toMillis(),
                    hyperNodes.size(),
                    podGroups.size(),
                    perMinute.get(perMinute.size() - 1),
                    perMinute.get(perMinute.size() / 2),
                    minutes,
                    bridgeEvents,
                    heapFigures,
                    worstGrowth);
            assertThat(restarts).isEqualTo(2);
            // single samples after a full GC spread over 4 MB (35.8 to 39.8 MB) in one lifetime of a 10-minute run,
            // medians of a third of the samples much less; 8 MB of growth over some 200 operations would be a leak
            // of 40 KB per operation
            assertThat(worstGrowth)
                    .as("heap growth after GC within a lifetime, MB: " + heapFigures)
                    .isLessThan(8.0);
        } finally {
            namespace.close();
            for (String node : nodes) {
                client.nodes().withName(node).delete();
            }
            // the bridge removes the soak's HyperNodes before it stops, so later tests start from the examples
            try {
                if (bridge.process().alive()) {
                    cluster.waitFor(
                            "the soak's nodes to go",
                            WAIT,
                            () -> client.nodes().list().getItems().stream()
                                    .noneMatch(n -> n.getMetadata().getName().startsWith("soak-")));
                    Map<String, JsonNode> left = Examples.renderedHyperNodes(nodesFile());
                    cluster.waitFor(
                            "the soak's HyperNodes to go",
                            WAIT,
                            () -> Examples.hyperNodes(client).equals(left));
                }
            } finally {
                bridge.stop();
            }
        }
    }

    // ---------------------------------------------------------------- churn

    /**
     * One random operation on the nodes or the workloads; one that loses a race with another controller (409) is
     * counted as such and not repeated.
     */
    private void churn() {
        try {
            operation();
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            count("conflict");
        }
    }

    private void operation() {
        int pick = random.nextInt(100);
        if (pick < 12) {
            if (nodes.size() < MAX_NODES) {
                addNode();
            } else {
                removeNode();
            }
        } else if (pick < 22) {
            if (nodes.size() > 2) {
                removeNode();
            } else {
                addNode();
            }
        } else if (pick < 50) {
            relabelNode();
        } else if (pick < 60) {
            if (workloads.size() < MAX_WORKLOADS) {
                createWorkload();
            } else {
                deleteWorkload();
            }
        } else if (pick < 68) {
            if (workloads.size() > 2) {
                deleteWorkload();
            } else {
                createWorkload();
            }
        } else if (pick < 85) {
            scaleWorkload();
        } else {
            reannotateWorkload();
        }
    }

    private void count(String op) {
        ops.merge(op, 1, Integer::sum);
    }

    private Map<String, String> topology(int leaf, int partition) {
        return Map.of(
                LEAF, "S-soak-leaf-" + leaf,
                SPINE, "S-soak-spine-" + (leaf % 2),
                CLIQUE, String.format("50a50a50-0000-4000-8000-%012d.%d", leaf, partition));
    }

    private void addNode() {
        String name = "soak-n" + nextNode++;
        Nodes.Spec spec = Nodes.node(name).cpu("32").memory("256Gi").gpus(4);
        topology(random.nextInt(LEAVES), 1 + random.nextInt(2)).forEach(spec::label);
        Nodes.create(cluster.client(), spec.build());
        nodes.add(name);
        count("node added");
    }

    private void removeNode() {
        String name = nodes.remove(random.nextInt(nodes.size()));
        cluster.client().nodes().withName(name).delete();
        count("node removed");
    }

    private void relabelNode() {
        String name = nodes.get(random.nextInt(nodes.size()));
        boolean strip = random.nextInt(5) == 0;
        Map<String, String> labels = topology(random.nextInt(LEAVES), 1 + random.nextInt(2));
        StringBuilder patch = new StringBuilder();
        labels.forEach((key, value) -> patch.append(patch.isEmpty() ? "" : ",")
                .append('"')
                .append(key)
                .append("\":")
                .append(strip ? "null" : '"' + value + '"'));
        cluster.client().nodes().withName(name).patch(MERGE, "{\"metadata\":{\"labels\":{" + patch + "}}}");
        count(strip ? "node stripped of topology" : "node relabelled");
    }

    private void createWorkload() {
        String name = "w" + nextWorkload++;
        cluster.client()
                .apps()
                .deployments()
                .inNamespace(NS)
                .resource(DeploymentWrapper.make(name, NS)
                        .replicas(random.nextInt(4))
                        .highestTier(TIERS.get(random.nextInt(TIERS.size())))
                        .cpu("100m")
                        .obj())
                .create();
        workloads.add(name);
        count("workload created");
    }

    private void deleteWorkload() {
        String name = workloads.remove(random.nextInt(workloads.size()));
        cluster.client().apps().deployments().inNamespace(NS).withName(name).delete();
        count("workload deleted");
    }

    private void scaleWorkload() {
        String name = workloads.get(random.nextInt(workloads.size()));
        cluster.client().apps().deployments().inNamespace(NS).withName(name).scale(random.nextInt(5));
        count("workload scaled");
    }

    private void reannotateWorkload() {
        String name = workloads.get(random.nextInt(workloads.size()));
        // one in four: no topobridge.io/ key at all, the workload leaves the bridge (its PodGroup goes)
        String tier = random.nextInt(4) == 0 ? null : TIERS.get(random.nextInt(TIERS.size()));
        cluster.client()
                .apps()
                .deployments()
                .inNamespace(NS)
                .withName(name)
                .patch(
                        MERGE,
                        "{\"metadata\":{\"annotations\":{\"" + TIER + "\":" + (tier == null ? "null" : '"' + tier + '"')
                                + "}}}");
        count(tier == null ? "workload unannotated" : "workload re-annotated");
    }

    // ---------------------------------------------------------------- oracles

    /** What a fresh render prints for the cluster's nodes and the namespace's Deployments as they are now. */
    private void rendered(Map<String, JsonNode> hyperNodes, Map<String, JsonNode> podGroups) {
        hyperNodes.clear();
        podGroups.clear();
        for (JsonNode doc : Examples.render(nodesFile(), deploymentsFile())) {
            String kind = doc.path("kind").asText();
            String name = doc.path("metadata").path("name").asText();
            if (kind.equals("HyperNode")) {
                hyperNodes.put(name, doc.path("spec"));
            } else if (kind.equals("PodGroup")
                    && NS.equals(doc.path("metadata").path("namespace").asText())) {
                podGroups.put(name, doc.path("spec"));
            }
        }
    }

    /** The bridge's PodGroups in the namespace, by name, with their specs. */
    private Map<String, JsonNode> livePodGroups() {
        Map<String, JsonNode> out = new TreeMap<>();
        for (GenericKubernetesResource pg : PodGroups.ours(cluster.client(), NS)) {
            if (pg.getMetadata().getDeletionTimestamp() == null) {
                out.put(
                        pg.getMetadata().getName(),
                        Examples.json(pg.getAdditionalProperties().get("spec")));
            }
        }
        return out;
    }

    /**
     * How the bridge's PodGroups differ from the rendered ones: names missing or extra, and spec fields render
     * prints with another value live (Volcano's controllers may add fields render does not print).
     */
    private List<String> podGroupDifferences(Map<String, JsonNode> rendered) {
        Map<String, JsonNode> live = livePodGroups();
        List<String> out = new ArrayList<>();
        for (String name : rendered.keySet()) {
            if (!live.containsKey(name)) {
                out.add("missing " + name);
                continue;
            }
            JsonNode want = rendered.get(name);
            JsonNode have = live.get(name);
            want.fieldNames().forEachRemaining(f -> {
                if (!want.get(f).equals(have.get(f))) {
                    out.add(name + "." + f + ": " + have.get(f) + " instead of " + want.get(f));
                }
            });
        }
        for (String name : live.keySet()) {
            if (!rendered.containsKey(name)) {
                out.add("extra " + name);
            }
        }
        return out;
    }

    /** The cluster's nodes as a YAML file, for {@code render}. */
    private String nodesFile() {
        StringBuilder out = new StringBuilder();
        for (Node n : cluster.client().nodes().list().getItems()) {
            n.getMetadata().setManagedFields(null);
            out.append("---\n")
                    .append(cluster.client().getKubernetesSerialization().asYaml(n));
        }
        return write("soak-nodes.yaml", out.toString());
    }

    /** The namespace's Deployments as they are, as a YAML file for {@code render}. */
    private String deploymentsFile() {
        StringBuilder out = new StringBuilder();
        for (Deployment d :
                cluster.client().apps().deployments().inNamespace(NS).list().getItems()) {
            d.getMetadata().setManagedFields(null);
            d.setStatus(null);
            out.append("---\n")
                    .append(cluster.client().getKubernetesSerialization().asYaml(d));
        }
        return write("soak-deployments.yaml", out.toString());
    }

    private String write(String name, String text) {
        try {
            Path file = cluster.runDir().resolve(name);
            Files.writeString(file, text);
            return file.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bridge's Event writes (creates and count-ups) since {@code mark}, from the audit log. */
    private int eventWrites(long mark) {
        return cluster.audit()
                .writesSince(
                        mark,
                        w -> w.user().equals(RealCluster.BRIDGE) && w.resource().equals("events"))
                .size();
    }

    /** The bridge's heap used right after a full GC ({@code jcmd GC.run}), in MB, from its metrics endpoint. */
    private static double heapAfterGc(Bridge bridge) {
        try {
            Process gc = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                    .toString(),
                            String.valueOf(bridge.process().pid()),
                            "GC.run")
                    .redirectErrorStream(true)
                    .start();
            String output = new String(gc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!gc.waitFor(60, TimeUnit.SECONDS) || gc.exitValue() != 0) {
                throw new IllegalStateException("jcmd GC.run failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        String metrics = bridge.get("/q/metrics").body();
        Matcher m = HEAP_USED.matcher(metrics);
        double bytes = 0;
        int pools = 0;
        while (m.find()) {
            bytes += Double.parseDouble(m.group(1));
            pools++;
        }
        if (pools == 0) {
            throw new IllegalStateException("no jvm_memory_used_bytes{area=\"heap\"} in the bridge's metrics");
        }
        return Math.round(bytes / 1048576.0 * 10) / 10.0;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}

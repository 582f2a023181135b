package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.e2e.TwoPartitionPool.Failure;
import java.time.Duration;
import java.util.ArrayList;
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
 * Failures of a running hard-tier gang on the real cluster (a Deployment of four 4-GPU pods, {@code highest-tier:
 * nvlink}, filling one NVLink partition of a pool of its own: two partitions of four 4-GPU nodes): a pod killed, its
 * node NotReady (the pod evicted), its node cordoned (the pod deleted, as a drain does), its node deleted. Per scenario
 * it prints the time until the gang runs again, whether it kept its tier and the bridge's writes in the audit log, and
 * asserts what the bridge says: nothing for a pod its domain takes back, {@code DomainLost} on the Deployment and its
 * PodGroup (and in explain, with the node that takes no pods) when the domain can no longer hold the gang.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecoveryE2E {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final String NS = "recovery-e2e";
    static final String POOL_LABEL = TwoPartitionPool.POOL_LABEL;
    static final String POOL = "recovery";
    /**
     * How long a gang may take to run again, and to be said {@code DomainLost}: at most 20 s in the suite; the figures
     * of docs/reliability.md were taken with {@code -Dtopobridge.e2e.recovery.window=60}, which also turns
     * {@link #SESSIONS} off (the whole window is watched).
     */
    static final Duration WINDOW = Duration.ofSeconds(Long.getLong("topobridge.e2e.recovery.window", 20));
    /**
     * Without a window given: a gang said {@code DomainLost} counts as stuck once twenty of Volcano's scheduling
     * sessions that began after the Event (each of which saw the replacement pending) have not run it again.
     */
    static final int SESSIONS = System.getProperty("topobridge.e2e.recovery.window") == null ? 20 : 0;

    private static final Duration PLACED = TwoPartitionPool.PLACED;
    private static final String CLIQUE = "9e1f0c2a-5b7d-4c3e-8f21-recovery0001";

    /** What one scenario measured. */
    record Figures(
            Failure failure,
            Duration toRunning,
            Duration watched,
            Boolean tierKept,
            String domainBefore,
            String domainAfter,
            Map<String, Integer> bridgeWrites) {

        String line() {
            return "RECOVERY kind=Deployment failure=" + failure + " running-again="
                    + (toRunning == null
                            ? "no (stuck > " + watched.toMillis() + " ms"
                                    + (SESSIONS > 0 ? ", " + SESSIONS + " scheduling sessions after DomainLost" : "")
                                    + ")"
                            : toRunning.toMillis() + " ms")
                    + " tier-kept=" + (tierKept == null ? "-" : tierKept ? "yes" : "no") + " domain=" + domainBefore
                    + "->" + domainAfter + " bridge-writes=" + bridgeWrites;
        }
    }

    private final RealCluster cluster;
    private final TwoPartitionPool pool;
    private KubernetesClient client;
    private GangPods gang;
    private final List<String> lines = new ArrayList<>();

    RecoveryE2E(RealCluster cluster) {
        this.cluster = cluster;
        this.pool = new TwoPartitionPool(cluster, NS, "rec", POOL, CLIQUE);
    }

    @BeforeAll
    void pool() {
        client = cluster.client();
        gang = new GangPods(client, NS);
        pool.setUp();
    }

    @AfterAll
    void cleanUp() {
        lines.forEach(System.out::println);
        pool.tearDown();
    }

    // ---------------------------------------------------------------- workloads

    private static String pod(String app) {
        return """
                metadata: {labels: {app: %1$s}}
                spec:
                  schedulerName: volcano
                  nodeSelector: {%2$s: %3$s}
                  containers:
                  - name: engine
                    image: registry.k8s.io/pause:3.10
                    resources:
                      requests: {nvidia.com/gpu: "4", cpu: "1"}
                      limits: {nvidia.com/gpu: "4"}
                """.formatted(app, POOL_LABEL, POOL);
    }

    private static String metadata(String name, String kind, String apiVersion, String annotations) {
        return """
                apiVersion: %s
                kind: %s
                metadata:
                  name: %s
                  namespace: %s
                  annotations: {topobridge.io/highest-tier: nvlink%s}
                """.formatted(apiVersion, kind, name, NS, annotations);
    }

    private static String manifest(String name) {
        return metadata(name, "Deployment", "apps/v1", "")
                + """
                spec:
                  replicas: 4
                  selector: {matchLabels: {app: %s}}
                  template:
                """.formatted(name)
                + pod(name).indent(4);
    }

    private HasMetadata create(String name) {
        HasMetadata object = client.getKubernetesSerialization().unmarshal(manifest(name), HasMetadata.class);
        return client.resource(object).create();
    }

    private JsonNode explain(String name) {
        var response = cluster.bridge().get("/api/gangs/" + NS + "/" + name);
        assertThat(response.statusCode())
                .as("explain " + name + ": " + response.body())
                .isEqualTo(200);
        try {
            return JSON.readTree(response.body()).path("gangs").get(0);
        } catch (java.io.IOException e) {
            throw new AssertionError("explain " + name + ": " + response.body(), e);
        }
    }

    private JsonNode json(String path) {
        var response = cluster.bridge().get(path);
        assertThat(response.statusCode())
                .as("GET " + path + ": " + response.body())
                .isEqualTo(200);
        try {
            return JSON.readTree(response.body());
        } catch (java.io.IOException e) {
            throw new AssertionError("GET " + path + ": " + response.body(), e);
        }
    }

    /** The status and message of the doctor's node-room check. */
    private String nodeRoom() {
        for (JsonNode check : json("/api/doctor").path("checks")) {
            if ("node-room".equals(check.path("name").asText())) {
                return check.path("status").asText() + ": "
                        + check.path("message").asText();
            }
        }
        throw new AssertionError("no node-room check in /api/doctor");
    }

    /** Writes of the bridge to this test's PodGroups since the mark (the achieved tier rewritten, say). */
    private long podGroupWrites(long mark) {
        return pool.ownWrites(mark).stream()
                .filter(w -> "podgroups".equals(w.resource()))
                .count();
    }

    private void scenario(Failure failure) {
        String name = "deploy-" + failure.name().toLowerCase().replace('_', '-');
        pool.restoreNodes();
        create(name);
        cluster.waitFor(name + " running", PLACED, () -> gang.running(name, Set.of()));
        String before = gang.domain(name).map(Placement.Domain::name).orElse("none");
        List<Pod> pods = new ArrayList<>(gang.live(name));
        pods.sort(java.util.Comparator.comparing(p -> p.getMetadata().getName()));
        String podGroup = pods.get(0).getMetadata().getAnnotations().get("scheduling.k8s.io/group-name");
        Pod victim = pods.get(pods.size() - 1);
        String victimNode = victim.getSpec().getNodeName();
        cluster.waitFor("the achieved tier of " + podGroup, PLACED, () -> "1".equals(pool.achievedTier(podGroup)));
        long mark = cluster.audit().mark();
        long started = System.nanoTime();
        Set<String> gone = pool.fail(failure, victim);
        Duration toRunning = null;
        Duration toFinding = null;
        long sessionsAtFinding = 0;
        long deadline = started + WINDOW.toNanos();
        while (System.nanoTime() < deadline) {
            if (toFinding == null
                    && !pool.events("DomainLost", "Deployment", name).isEmpty()) {
                toFinding = Duration.ofNanos(System.nanoTime() - started);
                sessionsAtFinding = cluster.schedulingSessions();
            }
            if (gang.running(name, gone)) {
                toRunning = Duration.ofNanos(System.nanoTime() - started);
                break;
            }
            // one more than SESSIONS: a session may have been under way when the Event was seen
            if (SESSIONS > 0 && toFinding != null && cluster.schedulingSessions() >= sessionsAtFinding + SESSIONS + 1) {
                break;
            }
            RealCluster.sleep(Duration.ofMillis(200));
        }
        Duration watched = Duration.ofNanos(System.nanoTime() - started);
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(60));
        Optional<Placement.Domain> after = toRunning == null ? Optional.empty() : gang.domain(name);
        Map<String, Integer> writes = new TreeMap<>();
        for (AuditLog.Write w : pool.ownWrites(mark)) {
            writes.merge(w.verb() + " " + w.resource(), 1, Integer::sum);
        }
        Figures f = new Figures(
                failure,
                toRunning,
                watched,
                toRunning == null ? null : after.map(d -> d.tier() <= 1).orElse(false),
                before,
                after.map(Placement.Domain::name).orElse("-"),
                writes);
        String line = f.line() + " domain-lost-event=" + (toFinding == null ? "none" : toFinding.toMillis() + " ms");
        System.out.println(line);
        lines.add(line);
        JsonNode explained = explain(name);
        System.out.println("explain " + name + ": " + explained.path("sentence").asText());
        try {
            if (failure == Failure.POD_KILLED) {
                // the node takes the pod back: the gang runs whole in its partition again, and nothing is said
                assertThat(f.toRunning()).as(line).isNotNull();
                assertThat(f.tierKept()).as(line).isTrue();
                assertThat(pool.events("DomainLost", "Deployment", name))
                        .as(line)
                        .isEmpty();
                assertThat(explained.path("pending").asBoolean())
                        .as(explained.toString())
                        .isFalse();
            } else {
                // three 4-GPU nodes cannot hold four 4-GPU pods: the partition is lost to the gang, and the bridge
                // says so on the Deployment, on the PodGroup, in explain and in the doctor
                assertThat(toFinding)
                        .as("a DomainLost Event on Deployment " + name + " within " + WINDOW.toSeconds() + " s; "
                                + line)
                        .isNotNull();
                String message =
                        pool.events("DomainLost", "Deployment", name).get(0).getMessage();
                assertThat(message)
                        .contains("gang " + podGroup)
                        .contains(before)
                        .contains("waiting since");
                assertThat(pool.events("DomainLost", "PodGroup", podGroup))
                        .as("DomainLost on the PodGroup")
                        .isNotEmpty();
                assertThat(explained.path("reason").asText())
                        .as(explained.toString())
                        .isEqualTo("DomainLost");
                assertThat(explained.path("domain").path("domain").asText()).isEqualTo(before);
                assertThat(explained.path("domain").path("since").isNull())
                        .as(explained.toString())
                        .isFalse();
                if (failure != Failure.NODE_DELETED) {
                    assertThat(explained.path("domain").path("unusable").toString())
                            .as("the node that takes no pods, in explain")
                            .contains(victimNode);
                }
                String doctor = nodeRoom();
                System.out.println("doctor node-room while " + failure + ": " + doctor);
                assertThat(doctor)
                        .startsWith("warning")
                        .contains(NS + "/" + podGroup + " in " + before + " (DomainLost");
                // the repair: the node back (Ready, uncordoned, or created again): the replacement runs in the same
                // partition, and the bridge no longer speaks of the gang's domain
                long repaired = System.nanoTime();
                pool.restoreNodes();
                cluster.waitFor(name + " running again after the repair", PLACED, () -> gang.running(name, gone));
                Duration afterRepair = Duration.ofNanos(System.nanoTime() - repaired);
                String domainAfter =
                        gang.domain(name).map(Placement.Domain::name).orElse("-");
                String repair = "RECOVERY failure=" + failure + " repaired: running again " + afterRepair.toMillis()
                        + " ms after the repair began, domain=" + domainAfter;
                System.out.println(repair);
                lines.add(repair);
                assertThat(domainAfter).as(repair).isEqualTo(before);
                cluster.waitFor(
                        "explain of " + name + " placed again",
                        Duration.ofSeconds(30),
                        () -> !explain(name).path("pending").asBoolean());
                cluster.waitFor(
                        "the doctor no longer listing " + podGroup,
                        Duration.ofSeconds(45),
                        () -> !nodeRoom().contains(podGroup));
            }
            // the achieved tier stayed true through the failure (and the repair): the gang never left its partition,
            // and the PodGroup was not rewritten
            assertThat(pool.achievedTier(podGroup)).isEqualTo("1");
            assertThat(podGroupWrites(mark))
                    .as("PodGroup writes of the bridge since the failure")
                    .isZero();
        } finally {
            deleteWorkload(name);
        }
    }

    private void deleteWorkload(String name) {
        HasMetadata object = client.getKubernetesSerialization().unmarshal(manifest(name), HasMetadata.class);
        client.resource(object).delete();
        pool.forceDeleteTerminating();
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

    @Test
    void podKilled() {
        scenario(Failure.POD_KILLED);
    }

    @Test
    void nodeNotReady() {
        scenario(Failure.NODE_NOT_READY);
    }

    @Test
    void nodeCordoned() {
        scenario(Failure.NODE_CORDONED);
    }

    @Test
    void nodeDeleted() {
        scenario(Failure.NODE_DELETED);
    }
}

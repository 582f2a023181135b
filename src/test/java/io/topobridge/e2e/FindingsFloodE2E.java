package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A hostile tenant floods the bridge with findings: Deployments carrying thousands of unknown {@code topobridge.io/}
 * keys each. Another namespace's Deployment created at the same moment still gets its PodGroup about as fast as
 * without the flood (measured in the same run), and the Events the bridge writes stay bounded: one per flooding
 * Deployment (audit log and event list).
 */
@ExtendWith(RealClusterExtension.class)
class FindingsFloodE2E {

    private static final String FLOOD = "flood-e2e";
    private static final String QUIET = "flood-quiet-e2e";

    @RegisterExtension
    final TestNamespace flood = TestNamespace.forEachTest(FLOOD);

    @RegisterExtension
    final TestNamespace quiet = TestNamespace.forEachTest(QUIET);
    /** Flooding Deployments, and unknown keys on each (about 20 bytes each: 2,000 keys are ~40 KB of the 256 KiB). */
    private static final int FLOODERS = 10;

    private static final int KEYS = 2000;
    private static final int BASELINE_RUNS = 3;
    private static final Duration WAIT = Duration.ofSeconds(240);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RealCluster cluster;

    FindingsFloodE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    private GenericKubernetesResource podGroup(String namespace, String name) {
        return cluster.client()
                .genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(namespace)
                .withName("tb-deploy-" + name)
                .get();
    }

    /** A one-pod Deployment within tier {@code leaf}, kept pending; {@code unknown} extra unknown keys. */
    private static Deployment deployment(String namespace, String name, int unknown) {
        Map<String, String> annotations = new TreeMap<>();
        annotations.put("topobridge.io/highest-tier", "leaf");
        for (int i = 0; i < unknown; i++) {
            annotations.put(String.format("topobridge.io/unknown-%05d", i), "x");
        }
        Deployment deployment = DeploymentWrapper.make(name, namespace)
                .annotations(annotations)
                .cpu("100m")
                .obj();
        deployment.getSpec().getTemplate().getSpec().setNodeSelector(Map.of("topobridge.io/e2e-nowhere", "true"));
        return deployment;
    }

    /** Creates the quiet namespace's Deployment {@code name} and returns how long its PodGroup took to appear. */
    private Duration timeToPodGroup(String name) {
        KubernetesClient client = cluster.client();
        long started = System.nanoTime();
        client.apps()
                .deployments()
                .inNamespace(QUIET)
                .resource(deployment(QUIET, name, 0))
                .create();
        long deadline = started + WAIT.toNanos();
        while (podGroup(QUIET, name) == null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "no PodGroup for " + QUIET + "/" + name + " within " + WAIT.toSeconds() + " s");
            }
            RealCluster.sleep(Duration.ofMillis(50));
        }
        return Duration.ofNanos(System.nanoTime() - started);
    }

    private static Duration median(List<Duration> values) {
        List<Duration> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    @Test
    void aFloodOfFindingsInOneNamespaceDoesNotDelayAnothersPodGroupNorFloodEvents() throws Exception {
        KubernetesClient client = cluster.client();
        Examples.ensureNodes(client);
        Bridge bridge = cluster.bridge();
        List<Duration> baseline = new ArrayList<>();
        for (int i = 0; i < BASELINE_RUNS; i++) {
            baseline.add(timeToPodGroup("before-" + i));
        }
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(60));

        long mark = cluster.audit().mark();
        long floodStarted = System.nanoTime();
        for (int i = 0; i < FLOODERS; i++) {
            client.apps()
                    .deployments()
                    .inNamespace(FLOOD)
                    .resource(deployment(FLOOD, "flood-" + i, KEYS))
                    .create();
        }
        Duration floodCreated = Duration.ofNanos(System.nanoTime() - floodStarted);
        Duration during = timeToPodGroup("during");
        for (int i = 0; i < FLOODERS; i++) {
            String name = "flood-" + i;
            cluster.waitFor("the PodGroup of " + FLOOD + "/" + name, WAIT, () -> podGroup(FLOOD, name) != null);
        }
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), WAIT);
        List<AuditLog.Write> eventWrites = cluster.audit()
                .writesSince(
                        mark,
                        w -> w.user().equals(RealCluster.BRIDGE) && w.resource().equals("events"));
        List<Event> floodEvents = client.v1().events().inNamespace(FLOOD).list().getItems().stream()
                .filter(e -> "topobridge".equals(e.getReportingComponent()))
                .toList();
        System.out.printf(
                "FindingsFloodE2E: %d Deployments x %d unknown keys created in %d ms; PodGroup of the other"
                        + " namespace after %d ms during the flood, %s ms without (median %d ms); %d Event"
                        + " writes of the bridge since the flood, %d Events in the flood namespace%n",
                FLOODERS,
                KEYS,
                floodCreated.toMillis(),
                during.toMillis(),
                baseline.stream().map(d -> String.valueOf(d.toMillis())).toList(),
                median(baseline).toMillis(),
                eventWrites.size(),
                floodEvents.size());

        // the other namespace's PodGroup: within 5 s of the same measurement without the flood, 3x for noise
        Duration bound = median(baseline).multipliedBy(3).plusSeconds(5);
        assertThat(during)
                .as("time to the other namespace's PodGroup during the flood (without: %s)", baseline)
                .isLessThanOrEqualTo(bound);
        // one UnknownAnnotation Event per flooding Deployment, naming how many keys it ignores
        assertThat(eventWrites.size())
                .as("the bridge's Event writes since the flood")
                .isLessThanOrEqualTo(2 * FLOODERS + 10);
        assertThat(floodEvents)
                .filteredOn(e -> "UnknownAnnotation".equals(e.getReason()))
                .hasSize(FLOODERS)
                .allSatisfy(e -> assertThat(e.getMessage()).contains(KEYS + " unknown"));
        // the REST view and the gauge count one finding per flooding Deployment
        JsonNode findings =
                JSON.readTree(bridge.get("/api/findings?source=workloads").body());
        int unknown = 0;
        for (JsonNode f : findings) {
            if (FLOOD.equals(f.path("namespace").asText())
                    && "UnknownAnnotation".equals(f.path("reason").asText())) {
                unknown++;
            }
        }
        assertThat(unknown).isEqualTo(FLOODERS);
        assertThat(bridge.get("/q/metrics").body())
                .contains("topobridge_findings{reason=\"UnknownAnnotation\",severity=\"warning\",source=\"workloads\"} "
                        + FLOODERS + ".0");
    }
}

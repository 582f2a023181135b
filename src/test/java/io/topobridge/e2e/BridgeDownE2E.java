package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.topobridge.testing.PodTemplates;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The bridge down on the real cluster: with its webhook server stopped (connection refused) or hung (a listener that
 * accepts and never answers), pods in an opted-in namespace are still created, within the webhook timeout (failure
 * policy Ignore). What Volcano does with the pods created meanwhile is observed and printed; when the bridge is back
 * it reports them (an {@code UntiedPods} finding and Event naming the gang and the pods), and the finding goes once
 * they are deleted and recreated through the webhook.
 */
@ExtendWith(RealClusterExtension.class)
class BridgeDownE2E {

    private static final String NS = "down-e2e";

    @RegisterExtension
    final TestNamespace namespace = TestNamespace.forEachTest(NS);

    private static final String GANG = "tb-deploy-web";
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** The pod webhook's {@code timeoutSeconds} (the bridge's default). */
    private static final Duration WEBHOOK_TIMEOUT = Duration.ofSeconds(3);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RealCluster cluster;

    BridgeDownE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    private List<Pod> pods() {
        return cluster.client().pods().inNamespace(NS).withLabel("app", "web").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    private static String groupName(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        return a == null ? null : a.get("scheduling.k8s.io/group-name");
    }

    /** Creates {@code count} plain pods in the namespace and returns each create's latency in milliseconds. */
    private List<Long> createLatencies(String prefix, int count) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Pod pod = new PodBuilder()
                    .withNewMetadata()
                    .withName(prefix + "-" + i)
                    .addToLabels("probe", prefix)
                    .endMetadata()
                    .withSpec(PodTemplates.spec("c", "x"))
                    .editSpec()
                    .withSchedulerName("volcano")
                    .endSpec()
                    .build();
            long started = System.nanoTime();
            cluster.client().pods().inNamespace(NS).resource(pod).create();
            out.add(Duration.ofNanos(System.nanoTime() - started).toMillis());
        }
        cluster.client().pods().inNamespace(NS).withLabel("probe", prefix).delete();
        return out;
    }

    private static String summary(List<Long> millis) {
        List<Long> sorted = new ArrayList<>(millis);
        Collections.sort(sorted);
        return "median " + sorted.get(sorted.size() / 2) + " ms, max " + sorted.get(sorted.size() - 1) + " ms over "
                + sorted.size();
    }

    private JsonNode untiedFindings(Bridge bridge) {
        try {
            JsonNode all = JSON.readTree(bridge.get("/api/findings").body());
            List<JsonNode> out = new ArrayList<>();
            all.forEach(f -> {
                if ("UntiedPods".equals(f.path("reason").asText())
                        && NS.equals(f.path("namespace").asText())) {
                    out.add(f);
                }
            });
            return JSON.valueToTree(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void podsAreCreatedWhileTheBridgeIsDownAndReportedWhenItIsBack() throws Exception {
        var client = cluster.client();
        Examples.ensureNodes(client);
        Bridge bridge = cluster.bridge();
        int webhookPort = bridge.webhookPort();
        try {
            client.apps()
                    .deployments()
                    .inNamespace(NS)
                    .resource(DeploymentWrapper.make("web", null)
                            .replicas(2)
                            .highestTier("leaf")
                            .cpu("1")
                            .obj())
                    .create();
            cluster.waitFor(
                    "two pods of the gang running",
                    WAIT,
                    () -> pods().size() == 2
                            && pods().stream()
                                    .allMatch(p -> GANG.equals(groupName(p))
                                            && "Running".equals(p.getStatus().getPhase())));
            List<Long> up = createLatencies("up", 5);

            // the bridge stopped: the API server's call is refused at once
            cluster.stopBridge();
            List<Long> refused = createLatencies("refused", 5);
            // a hung bridge: the connection is accepted and never answered, so each call waits for the timeout
            List<Long> hung;
            List<Socket> held = Collections.synchronizedList(new ArrayList<>());
            try (ServerSocket blackhole = new ServerSocket(webhookPort, 50, InetAddress.getByName("127.0.0.1"))) {
                Thread acceptor = new Thread(
                        () -> {
                            while (!blackhole.isClosed()) {
                                try {
                                    held.add(blackhole.accept());
                                } catch (IOException e) {
                                    return;
                                }
                            }
                        },
                        "blackhole");
                acceptor.setDaemon(true);
                acceptor.start();
                hung = createLatencies("hung", 3);
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
            System.out.printf(
                    "bridge down: pod create with the bridge up %s; stopped (refused) %s; hung %s"
                            + " (webhook timeout %d s)%n",
                    summary(up), summary(refused), summary(hung), WEBHOOK_TIMEOUT.toSeconds());
            assertThat(refused).as("creates while the webhook is refused").allMatch(ms -> ms < 10_000);
            assertThat(hung)
                    .as("creates while the webhook hangs: the timeout, not longer")
                    .allMatch(ms -> ms >= WEBHOOK_TIMEOUT.toMillis() - 500 && ms < WEBHOOK_TIMEOUT.toMillis() + 10_000);
            assertThat(held).as("the API server did call the hung webhook").isNotEmpty();

            // the workload's controller creates pods meanwhile: they come in untied
            long scaledAt = System.nanoTime();
            client.apps().deployments().inNamespace(NS).withName("web").scale(4);
            cluster.waitFor("four pods", WAIT, () -> pods().size() == 4);
            long createdMillis = Duration.ofNanos(System.nanoTime() - scaledAt).toMillis();
            Set<String> untied = pods().stream()
                    .filter(p -> !GANG.equals(groupName(p)))
                    .map(p -> p.getMetadata().getName())
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(untied).as("pods created while the bridge was down").hasSize(2);
            // what Volcano makes of them: its pg-controller ties each to a PodGroup of its own, then the scheduler
            // has a few sessions with them
            cluster.waitFor(
                    "Volcano's own PodGroups for the untied pods",
                    WAIT,
                    () -> pods().stream()
                            .filter(p -> untied.contains(p.getMetadata().getName()))
                            .allMatch(p -> groupName(p) != null
                                    && groupName(p).startsWith("podgroup-")
                                    && client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                                                    .inNamespace(NS)
                                                    .withName(groupName(p))
                                                    .get()
                                            != null));
            cluster.awaitSchedulingSessions(3, WAIT);
            Map<String, String> fate = new TreeMap<>();
            for (Pod p : pods()) {
                if (untied.contains(p.getMetadata().getName())) {
                    fate.put(
                            p.getMetadata().getName(),
                            "group-name " + groupName(p) + ", phase "
                                    + p.getStatus().getPhase() + ", node "
                                    + p.getSpec().getNodeName());
                }
            }
            List<String> volcanoGroups = new ArrayList<>();
            for (GenericKubernetesResource pg : client.genericKubernetesResources(
                            "scheduling.volcano.sh/v1beta1", "PodGroup")
                    .inNamespace(NS)
                    .list()
                    .getItems()) {
                Map<?, ?> spec = (Map<?, ?>) pg.getAdditionalProperties().get("spec");
                Map<?, ?> status = (Map<?, ?>) pg.getAdditionalProperties().get("status");
                volcanoGroups.add(pg.getMetadata().getName() + " (minMember " + spec.get("minMember") + ", topology "
                        + spec.get("networkTopology") + ", phase " + (status == null ? null : status.get("phase"))
                        + ")");
            }
            System.out.printf(
                    "bridge down: 2 pods created by the ReplicaSet in %d ms, untied: %s%n  PodGroups: %s%n",
                    createdMillis, fate, volcanoGroups);
            // Volcano's pg-controller ties such a pod to a PodGroup of its own, of one member and no topology
            for (Pod p : pods()) {
                if (untied.contains(p.getMetadata().getName())) {
                    assertThat(groupName(p)).as(fate.toString()).startsWith("podgroup-");
                    var own = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                            .inNamespace(NS)
                            .withName(groupName(p))
                            .get();
                    Map<?, ?> spec = (Map<?, ?>) own.getAdditionalProperties().get("spec");
                    assertThat(spec.get("minMember")).isEqualTo(1);
                    assertThat(spec.get("networkTopology")).isNull();
                }
            }

            // the bridge back: it names the gang and the untied pods
            long back = System.nanoTime();
            Bridge again = cluster.bridge();
            cluster.waitFor(
                    "the UntiedPods finding", WAIT, () -> untiedFindings(again).size() > 0);
            long reportedMillis = Duration.ofNanos(System.nanoTime() - back).toMillis();
            JsonNode finding = untiedFindings(again).get(0);
            System.out.println("bridge back: reported in " + reportedMillis + " ms after the restart: "
                    + finding.path("message").asText());
            assertThat(finding.path("severity").asText()).isEqualToIgnoringCase("warning");
            assertThat(finding.path("kind").asText()).isEqualTo("Deployment");
            assertThat(finding.path("name").asText()).isEqualTo("web");
            assertThat(finding.path("message").asText()).contains("2 pods run outside gang " + GANG);
            untied.forEach(name -> assertThat(finding.path("message").asText()).contains(name));
            cluster.waitFor(
                    "an UntiedPods Event on the Deployment",
                    WAIT,
                    () -> client.v1().events().inNamespace(NS).list().getItems().stream()
                            .anyMatch(e -> "UntiedPods".equals(e.getReason())
                                    && "web".equals(e.getInvolvedObject().getName())
                                    && "Warning".equals(e.getType())));

            // the fix: delete them, their ReplicaSet recreates them through the webhook, and the finding goes
            for (String name : untied) {
                client.pods().inNamespace(NS).withName(name).delete();
            }
            cluster.waitFor(
                    "four pods of the gang",
                    WAIT,
                    () -> pods().size() == 4 && pods().stream().allMatch(p -> GANG.equals(groupName(p))));
            cluster.waitFor(
                    "the finding to clear", WAIT, () -> untiedFindings(again).size() == 0);
            cluster.waitFor(
                    "the four pods running",
                    WAIT,
                    () -> pods().stream()
                            .allMatch(p -> "Running".equals(p.getStatus().getPhase())));
            cluster.assertHealthy();
        } finally {
            cluster.bridge();
        }
    }
}

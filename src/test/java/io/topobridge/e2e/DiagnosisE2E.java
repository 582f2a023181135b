package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.testing.Chromium;
import io.topobridge.testing.PackagedApp;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.imageio.ImageIO;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Doctor, explain, achieved tier and the topology page against the real cluster, with gangs Volcano placed: the
 * example's 9-tray tensor-parallel gang (one NVLink partition), the 10-tray one that fits no partition (pending,
 * explained, with an Event on its workload), and its soft twin placed above its tier. The achieved tier is written
 * once and a restarted bridge's full pass writes nothing (read from the API server's audit log); the page is drawn by
 * Debian's headless Chromium and checked against the API.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DiagnosisE2E {

    static final String NS = PlacementE2E.NS;

    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private static final Path GANGS = Path.of("examples", "workloads", "nvlink-partitions.yaml");
    private static final Duration PLACED = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ONE = "tb-lws-tp-one-partition-0";
    /** A second gang the size of tp-one-partition: it takes the other partition of rack r05. */
    private static final String SECOND = "tb-lws-tp-second-0";
    /** A third: no partition has room for it now (one that no partition could ever hold is refused outright). */
    private static final String WAITS = "tb-lws-tp-waits-0";

    private static final String SOFT = "tb-lws-tp-too-big-soft-0";

    private final RealCluster cluster;
    private KubernetesClient client;
    private Bridge bridge;
    private final Path out = Path.of("target", "e2e", "diagnosis").toAbsolutePath();

    DiagnosisE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void exampleCluster() throws IOException {
        client = cluster.client();
        Files.createDirectories(out);
        Examples.ensureNodes(client);
        cluster.stopBridge();
        bridge = Bridge.on(cluster, "topobridge-diagnosis")
                .set("topobridge.diagnosis.pending-event-after", "3s")
                .start()
                .awaitReady(Duration.ofSeconds(120));
    }

    @AfterAll
    void cleanUp() {
        client.configMaps()
                .inNamespace(RealCluster.VOLCANO_NAMESPACE)
                .withName("volcano-controller-configmap")
                .delete();
        if (bridge != null) {
            bridge.stop();
        }
    }

    /** A workload of the example file; {@code tp-second} and {@code tp-waits} are copies of tp-one-partition. */
    private HasMetadata workload(String name) {
        String from = List.of("tp-second", "tp-waits").contains(name) ? "tp-one-partition" : name;
        HasMetadata lws = PlacementE2E.load(GANGS).stream()
                .filter(o -> from.equals(o.getMetadata().getName()))
                .findFirst()
                .orElseThrow();
        lws.getMetadata().setName(name);
        return lws;
    }

    private JsonNode json(String path) {
        var response = bridge.get(path);
        assertThat(response.statusCode())
                .as("GET " + path + ": " + response.body())
                .isEqualTo(200);
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, String> annotations(String podGroup) {
        GenericKubernetesResource pg = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(NS)
                .withName(podGroup)
                .get();
        return pg == null || pg.getMetadata().getAnnotations() == null
                ? Map.of()
                : pg.getMetadata().getAnnotations();
    }

    /**
     * Creates an example LeaderWorkerSet and waits until all its pods are tied to its gang. A pod the LWS controller
     * creates before the bridge's cache holds the new LWS is admitted untied (the known informer-lag gap); such a pod
     * is deleted once, so its StatefulSet makes it again, tied.
     */
    private void createTied(String lws, String podGroup, int pods) {
        client.resource(workload(lws)).create();
        long deadline = System.nanoTime() + PLACED.toNanos();
        long untiedSince = 0;
        while (System.nanoTime() < deadline) {
            List<Pod> all = client.pods()
                    .inNamespace(NS)
                    .withLabel("leaderworkerset.sigs.k8s.io/name", lws)
                    .list()
                    .getItems();
            List<Pod> untied = all.stream()
                    .filter(p -> p.getMetadata().getAnnotations() == null
                            || !podGroup.equals(p.getMetadata().getAnnotations().get("scheduling.k8s.io/group-name")))
                    .toList();
            if (all.size() == pods && untied.isEmpty()) {
                return;
            }
            if (untied.isEmpty()) {
                untiedSince = 0;
            } else if (untiedSince == 0) {
                untiedSince = System.nanoTime();
            } else if (System.nanoTime() - untiedSince > Duration.ofSeconds(10).toNanos()) {
                System.out.println("recreating pods admitted before the bridge cached " + lws + ": "
                        + untied.stream().map(p -> p.getMetadata().getName()).toList());
                untied.forEach(p -> client.resource(p).withGracePeriod(0).delete());
                untiedSince = 0;
            }
            RealCluster.sleep(Duration.ofMillis(500));
        }
        throw new IllegalStateException("the pods of " + lws + " were not all tied to " + podGroup);
    }

    private List<Pod> awaitBound(String podGroup, int pods) {
        cluster.waitFor(pods + " pods of " + podGroup + " bound", PLACED, () -> {
            List<Pod> gang = Placement.gangPods(client, NS, podGroup);
            return gang.size() == pods && Placement.allBound(gang);
        });
        return Placement.gangPods(client, NS, podGroup);
    }

    private PackagedApp.Run cli(String... args) throws IOException, InterruptedException {
        List<String> withKubeconfig = new java.util.ArrayList<>(List.of(args));
        withKubeconfig.addAll(
                List.of("--kubeconfig", cluster.kubeconfig(RealCluster.BRIDGE).toString()));
        return PackagedApp.run(
                List.of(
                        "-Dtopobridge.admission.service-namespace=" + RealCluster.BRIDGE_NAMESPACE,
                        "-Dtopobridge.volcano.scheduler-config-namespace=" + RealCluster.VOLCANO_NAMESPACE),
                withKubeconfig.toArray(String[]::new));
    }

    @Test
    @Order(1)
    void doctorPassesOnTheTestClusterAndNamesWhatBreaksIt() throws Exception {
        String healthy = RealCluster.servesDra() ? "ok" : "warning";
        // the bridge applies its webhook configurations and HyperNodes right after start-up; a Kubernetes minor
        // without resource.k8s.io/v1 (before 1.34, -Dtopobridge.e2e.kubernetes) leaves just kubernetes-apis warning
        cluster.waitFor(
                "the doctor's checks all ok",
                Duration.ofSeconds(60),
                () -> healthy.equals(json("/api/doctor").path("status").asText()));
        assertThat(json("/api/doctor").path("checks")).hasSize(10);
        PackagedApp.Run ok = cli("doctor");
        System.out.println("doctor (healthy):\n" + ok.stdout() + ok.stderr());
        assertThat(ok.exitCode()).as(ok.stdout() + ok.stderr()).isEqualTo(RealCluster.servesDra() ? 0 : 1);
        assertThat(ok.stdout().lines())
                .hasSize(10)
                .allSatisfy(l -> assertThat(l)
                        .startsWith(RealCluster.servesDra() || !l.contains("kubernetes-apis") ? "ok" : "warning"));
        if (!RealCluster.servesDra()) {
            assertThat(ok.stdout())
                    .containsPattern("warning +kubernetes-apis +resource.k8s.io/v1 resourceclaims and"
                            + " resourceclaimtemplates not served");
        }

        // Volcano's own label discovery set to the labels the bridge reads: two sources fighting over nodes
        client.configMaps()
                .inNamespace(RealCluster.VOLCANO_NAMESPACE)
                .resource(RealCluster.labelDiscovery(
                        "topograph",
                        "fabric.topograph.run/tier-1",
                        "fabric.topograph.run/tier-0",
                        "kubernetes.io/hostname"))
                .create();
        PackagedApp.Run broken = cli("doctor");
        System.out.println("doctor (label discovery on):\n" + broken.stdout());
        assertThat(broken.exitCode()).isEqualTo(2);
        assertThat(broken.stdout())
                .containsPattern("failure +label-discovery .*fabric.topograph.run/tier-0, "
                        + "fabric.topograph.run/tier-1, which the bridge reads too");
        cluster.waitFor("the doctor's finding on the ConfigMap", Duration.ofSeconds(60), () -> {
            JsonNode findings = json("/api/findings?source=doctor");
            for (JsonNode f : findings) {
                if ("LabelDiscoveryOverlap".equals(f.path("reason").asText())
                        && "volcano-controller-configmap".equals(f.path("name").asText())) {
                    return true;
                }
            }
            return false;
        });
        cluster.waitFor(
                "the doctor's gauge",
                Duration.ofSeconds(30),
                () -> bridge.get("/q/metrics")
                        .body()
                        .contains("topobridge_doctor_checks{check=\"label-discovery\",status=\"failure\"} 1.0"));
        client.configMaps()
                .inNamespace(RealCluster.VOLCANO_NAMESPACE)
                .withName("volcano-controller-configmap")
                .delete();
        cluster.waitFor(
                "the doctor healthy again",
                Duration.ofSeconds(30),
                () -> healthy.equals(json("/api/doctor").path("status").asText()));
    }

    @Test
    @Order(2)
    void aPlacedGangGetsItsAchievedTierOnceAndAResyncWritesNothing() throws Exception {
        long before = cluster.audit().mark();
        createTied("tp-one-partition", ONE, 9);
        List<Pod> pods = awaitBound(ONE, 9);
        cluster.waitFor(
                "achieved tier on " + ONE,
                Duration.ofSeconds(60),
                () -> "1".equals(annotations(ONE).get("topobridge.io/achieved-tier")));
        Optional<Placement.Domain> domain = Placement.of(client)
                .lowestCommon(pods.stream().map(p -> p.getSpec().getNodeName()).toList());
        assertThat(domain).map(Placement.Domain::tierName).contains("nvlink");

        JsonNode explained =
                json("/api/gangs/" + NS + "/tp-one-partition").path("gangs").get(0);
        System.out.println(
                "explain tp-one-partition: " + explained.path("sentence").asText());
        assertThat(explained.path("pending").asBoolean()).isFalse();
        assertThat(explained.path("achieved").path("gang").path("tier").asInt()).isEqualTo(1);
        assertThat(explained.path("achieved").path("gang").path("hyperNode").asText())
                .isEqualTo(domain.get().name());
        assertThat(explained.path("sentence").asText())
                .startsWith("placed: all 9 pods within tier 1 (nvlink) in "
                        + domain.get().name());

        long settled = cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), Duration.ofSeconds(60));
        List<AuditLog.Write> writes = cluster.audit()
                .writesSince(
                        before,
                        w -> w.user().equals(RealCluster.BRIDGE)
                                && w.resource().equals("podgroups")
                                && w.name().equals(ONE));
        List<AuditLog.Write> placedWrites = writes.stream()
                .filter(w -> w.requestObject() != null
                        && w.requestObject()
                                .path("metadata")
                                .path("annotations")
                                .has("topobridge.io/achieved-tier"))
                .toList();
        System.out.println("writes to " + ONE + ": " + writes);
        assertThat(writes).allMatch(AuditLog.Write::succeeded);
        assertThat(placedWrites)
                .as("the achieved tier is written once: " + writes)
                .hasSize(1);
        assertThat(writes.indexOf(placedWrites.get(0)))
                .as("nothing after it: " + writes)
                .isEqualTo(writes.size() - 1);

        // a restarted bridge makes a full pass over every gang: nothing has changed, so nothing is written
        bridge.restart().awaitReady(Duration.ofSeconds(120));
        cluster.waitFor(
                "the restarted bridge's first full pass",
                Duration.ofSeconds(60),
                () -> json("/api/status")
                                .path("parts")
                                .path("workloads")
                                .path("fullPasses")
                                .asLong()
                        >= 1);
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), Duration.ofSeconds(60));
        assertThat(cluster.audit()
                        .writesSince(
                                settled,
                                w -> w.user().equals(RealCluster.BRIDGE)
                                        && w.resource().equals("podgroups")))
                .as("PodGroup writes after a restart")
                .isEmpty();
        cluster.waitFor(
                "the achieved-tier gauge",
                Duration.ofSeconds(30),
                () -> bridge.get("/q/metrics")
                        .body()
                        .contains("topobridge_gangs_achieved_tier{kind=\"LeaderWorkerSet\",mode=\"hard\",namespace=\""
                                + NS + "\",tier=\"1\"} 1.0"));
    }

    @Test
    @Order(3)
    void aGangThatFitsNoPartitionIsExplainedAndItsWorkloadToldWhy() throws Exception {
        createTied("tp-second", SECOND, 9);
        awaitBound(SECOND, 9);
        createTied("tp-waits", WAITS, 9);
        cluster.awaitSchedulingSessions(5, Duration.ofSeconds(60));
        assertThat(Placement.noneBound(Placement.gangPods(client, NS, WAITS))).isTrue();

        JsonNode explained =
                json("/api/gangs/" + NS + "/tp-waits").path("gangs").get(0);
        String sentence = explained.path("sentence").asText();
        System.out.println("explain tp-waits: " + sentence);
        assertThat(explained.path("pending").asBoolean()).isTrue();
        assertThat(explained.path("podGroup").asText()).isEqualTo(WAITS);
        assertThat(explained.path("reason").asText()).isEqualTo("NoDomainFits");
        // both partitions of the split rack are taken; the other partitions hold 8 trays or fewer
        assertThat(sentence)
                .startsWith("needs 36 nvidia.com/gpu within one tier-1 domain (nvlink); the best has 32 free (");
        assertThat(sentence).containsPattern("; tier \\d \\((leaf|spine)\\) has \\d+ free in ");
        assertThat(json("/api/gangs/" + NS + "/" + WAITS)
                        .path("gangs")
                        .get(0)
                        .path("sentence")
                        .asText())
                .isEqualTo(sentence);
        var unknown = bridge.get("/api/gangs/" + NS + "/no-such-gang");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("no gang named \\\"no-such-gang\\\" in namespace \\\"" + NS + "\\\"");

        PackagedApp.Run cli = cli("explain", NS + "/tp-waits");
        System.out.println("explain (CLI):\n" + cli.stdout() + cli.stderr());
        assertThat(cli.exitCode()).isZero();
        assertThat(cli.stdout()).contains("pending (NoDomainFits): " + sentence);
        assertThat(cli("explain", NS + "/no-such-gang").exitCode()).isEqualTo(1);

        cluster.waitFor(
                "a GangPending Event on the LeaderWorkerSet",
                Duration.ofSeconds(60),
                () -> client.v1().events().inNamespace(NS).list().getItems().stream()
                        .anyMatch(e -> "GangPending".equals(e.getReason())
                                && "tp-waits".equals(e.getInvolvedObject().getName())
                                && "LeaderWorkerSet"
                                        .equals(e.getInvolvedObject().getKind())
                                && e.getMessage().endsWith(sentence)));
        cluster.waitFor(
                "the pending gauge",
                Duration.ofSeconds(30),
                () -> bridge.get("/q/metrics")
                        .body()
                        .contains("topobridge_gangs_pending{reason=\"NoDomainFits\"} 1.0"));
        String metrics = bridge.get("/q/metrics").body();
        assertThat(metrics)
                .contains("topobridge_podgroups{mode=\"hard\",tier=\"1\"} 3.0")
                .containsPattern(
                        "topobridge_hypernodes\\{source=\"topobridge\",tier=\"1\",tier_name=\"nvlink\"\\} \\d+\\.0")
                .contains("topobridge_reconcile_seconds_count{controller=\"workloads\",result=\"ok\"}");
    }

    @Test
    @Order(4)
    void theTopologyPageDrawsTheForestWithTheApisNumbers() throws Exception {
        String url = "http://127.0.0.1:" + bridge.httpPort() + "/topology";
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(60));
        JsonNode api = json("/api/topology");
        Document dom = Jsoup.parse(Chromium.dumpDom(url));
        Files.writeString(out.resolve("topology.html"), dom.outerHtml());
        assertThat(dom.body().attr("data-state"))
                .as("the page's script rendered")
                .isEqualTo("rendered");

        List<JsonNode> domains = new ArrayList<>();
        api.path("roots").forEach(r -> flatten(r, domains));
        assertThat(domains).hasSize(Examples.hyperNodes(client).size());
        assertThat(dom.select("div.domain")).hasSize(domains.size());
        for (JsonNode d : domains) {
            Element box =
                    dom.selectFirst("div.domain[data-name=" + d.path("name").asText() + "]");
            assertThat(box).as("box of " + d.path("name").asText()).isNotNull();
            assertThat(box.attr("data-gpus")).isEqualTo(d.path("gpus").asText());
            assertThat(box.attr("data-free-gpus")).isEqualTo(d.path("freeGpus").asText());
            assertThat(box.selectFirst("> .head .gpus").text())
                    .startsWith(
                            d.path("freeGpus").asText() + "/" + d.path("gpus").asText() + " GPUs free");
        }
        // the placed gang sits in its NVLink partition's box, the pending one is listed with its sentence
        String placedIn = json("/api/gangs/" + NS + "/" + ONE)
                .path("gangs")
                .get(0)
                .path("achieved")
                .path("gang")
                .path("hyperNode")
                .asText();
        Element partition = dom.selectFirst("div.domain[data-name=" + placedIn + "]");
        assertThat(partition.select("> span.gang").eachAttr("data-gang")).contains(NS + "/" + ONE);
        assertThat(partition.attr("data-free-gpus")).isEqualTo("0");
        Element pending = dom.selectFirst("#pending li[data-gang=" + NS + "/" + WAITS + "]");
        assertThat(pending).isNotNull();
        assertThat(pending.text())
                .contains(json("/api/gangs/" + NS + "/" + WAITS)
                        .path("gangs")
                        .get(0)
                        .path("sentence")
                        .asText());

        Path png = Chromium.screenshot(url, out.resolve("topology.png"), 1600, 1400);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1600);
        int freeBar = count(image, 0x2da44e);
        int usedBar = count(image, 0xd0d7de);
        int gangChip = count(image, 0x0969da);
        int pendingMark = count(image, 0xbc4c00);
        System.out.printf(
                "screenshot %s: %d free-bar, %d used-bar, %d gang-chip, %d pending-mark pixels%n",
                png, freeBar, usedBar, gangChip, pendingMark);
        assertThat(freeBar).as("green free-GPU bars drawn").isGreaterThan(2000);
        assertThat(usedBar).as("grey used parts drawn").isGreaterThan(100);
        assertThat(gangChip).as("the placed gang's chip drawn").isGreaterThan(200);
        assertThat(pendingMark).as("the pending gang's marker drawn").isGreaterThan(50);
        // the full partition's bar has no green: sample the row through its bar, located from the DOM order
        assertThat(fullyUsedBarDrawn(image))
                .as("a bar with no free part (the placed partition)")
                .isTrue();
    }

    @Test
    @Order(5)
    void aSoftGangPlacedAboveItsTierGetsANormalEvent() {
        client.resource(workload("tp-waits")).delete();
        cluster.waitFor(
                WAITS + " gone",
                PLACED,
                () -> Placement.gangPods(client, NS, WAITS).isEmpty());
        createTied("tp-too-big-soft", SOFT, 10);
        awaitBound(SOFT, 10);
        cluster.waitFor(
                "achieved tier on " + SOFT,
                Duration.ofSeconds(60),
                () -> annotations(SOFT).containsKey("topobridge.io/achieved-tier"));
        String tier = annotations(SOFT).get("topobridge.io/achieved-tier");
        System.out.println("tp-too-big-soft achieved tier " + tier);
        assertThat(tier).isNotEqualTo("1");
        cluster.waitFor(
                "a PlacedAboveTier Event",
                Duration.ofSeconds(60),
                () -> client.v1().events().inNamespace(NS).list().getItems().stream()
                        .anyMatch(e -> "PlacedAboveTier".equals(e.getReason())
                                && "Normal".equals(e.getType())
                                && "tp-too-big-soft"
                                        .equals(e.getInvolvedObject().getName())
                                && e.getMessage().contains("soft gang " + SOFT + " prefers tier 1 or below")));
    }

    private static void flatten(JsonNode domain, List<JsonNode> out) {
        out.add(domain);
        domain.path("children").forEach(c -> flatten(c, out));
    }

    private static int count(BufferedImage image, int rgb) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) == rgb) {
                    n++;
                }
            }
        }
        return n;
    }

    /** Whether some row has a run of at least 40 used-bar pixels with no free-bar pixel on that row segment. */
    private static boolean fullyUsedBarDrawn(BufferedImage image) {
        for (int y = 0; y < image.getHeight(); y++) {
            int run = 0;
            for (int x = 0; x < image.getWidth(); x++) {
                int c = image.getRGB(x, y) & 0xffffff;
                if (c == 0xd0d7de) {
                    run++;
                    if (run >= 40
                            && x + 1 < image.getWidth()
                            && (image.getRGB(x + 1, y) & 0xffffff) != 0x2da44e
                            && leftOfRunIsNotGreen(image, x - run, y)) {
                        return true;
                    }
                } else {
                    run = 0;
                }
            }
        }
        return false;
    }

    private static boolean leftOfRunIsNotGreen(BufferedImage image, int x, int y) {
        return x < 0 || (image.getRGB(x, y) & 0xffffff) != 0x2da44e;
    }
}

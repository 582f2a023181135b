package io.topobridge.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.restassured.response.Response;
import io.topobridge.e2e.AuditLog.Write;
import io.topobridge.testing.FreePort;
import io.topobridge.testing.PodTemplates;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import io.topobridge.webhook.PodMutator;
import io.topobridge.webhook.Reviews;
import io.topobridge.webhook.WorkloadValidator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two replicas with leader election on the real cluster: both serve the webhooks (the follower answers a pod
 * review with the right patch and refuses a bad tier name against the tiers the leader built), and when the
 * leader is killed the follower takes over within the lease time and writes nothing the old leader already wrote,
 * also when the kill comes in the middle of a burst of node relabels while pods are being created.
 */
@ExtendWith(RealClusterExtension.class)
class HighAvailabilityE2E {

    private static final String NS = "ha-e2e";
    private static final Duration LEASE = Duration.ofSeconds(6);

    /** One namespace for the class, emptied after each test ({@link TestNamespace#empty}). */
    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private final RealCluster cluster;

    HighAvailabilityE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    /** A replica; all name the Service port of the first (they sit behind one Service, as a Deployment's pods). */
    private Bridge replica(String name, Bridge first) {
        var builder = Bridge.on(cluster, name).exposeWebhook(first == null);
        if (first != null) {
            builder.servicePort(first.webhookPort());
        }
        return builder.set("topobridge.leader-election.enabled", "true")
                .set("topobridge.leader-election.lease-duration", LEASE.toSeconds() + "s")
                .set("topobridge.leader-election.renew-deadline", "4s")
                .set("topobridge.leader-election.retry-period", "1s")
                .start();
    }

    /** What a test made is gone before the next starts, as with a namespace of its own. */
    @AfterEach
    void workloadsGone() {
        NAMESPACE.empty(cluster);
    }

    private static String role(Bridge bridge) {
        return bridge.get("/api/status").body().contains("\"role\":\"leader\"") ? "leader" : "follower";
    }

    private static Response review(Bridge bridge, String path, ObjectNode review) {
        return given().relaxedHTTPSValidation()
                .baseUri("https://127.0.0.1")
                .port(bridge.webhookPort())
                .contentType("application/json")
                .body(review.toString())
                .post(path);
    }

    @Test
    void everyReplicaServesTheWebhooksAndTheFollowerTakesOverWithoutWritingTwice() {
        var client = cluster.client();
        Examples.ensureNodes(client);
        cluster.stopBridge();
        Deployment web = client.resource(DeploymentWrapper.make("web", NS)
                        .highestTier("leaf")
                        .cpu("1")
                        .obj())
                .create();

        Bridge a = replica("replica-a", null);
        Bridge b = replica("replica-b", a);
        try {
            a.awaitReady(Duration.ofSeconds(120));
            b.awaitReady(Duration.ofSeconds(120));
            cluster.waitFor("one leader", Duration.ofSeconds(60), () -> {
                String ra = role(a);
                String rb = role(b);
                return !ra.equals(rb);
            });
            Bridge leader = role(a).equals("leader") ? a : b;
            Bridge follower = leader == a ? b : a;
            PodGroups.await(cluster, client, NS, "tb-deploy-web");
            ReplicaSet rs = client.apps()
                    .replicaSets()
                    .inNamespace(NS)
                    .list()
                    .getItems()
                    .get(0);
            // the follower's caches and tiers (learned from the leader's HyperNodes) answer a review on their own
            cluster.waitFor(
                    "the follower to know the tiers",
                    Duration.ofSeconds(60),
                    () -> follower.get("/api/status").body().contains("leaf"));
            Pod pod = new PodBuilder()
                    .withNewMetadata()
                    .withGenerateName(rs.getMetadata().getName() + "-")
                    .withNamespace(NS)
                    .addToLabels("app", "web")
                    .addToLabels(
                            "pod-template-hash", rs.getMetadata().getLabels().get("pod-template-hash"))
                    .addNewOwnerReference()
                    .withApiVersion("apps/v1")
                    .withKind("ReplicaSet")
                    .withName(rs.getMetadata().getName())
                    .withUid(rs.getMetadata().getUid())
                    .withController(true)
                    .endOwnerReference()
                    .endMetadata()
                    .withSpec(PodTemplates.spec("c", "x"))
                    .build();
            ObjectNode podReview = Reviews.podCreate(NS, pod);
            Response answer = review(follower, PodMutator.PATH, podReview);
            assertThat(answer.statusCode()).isEqualTo(200);
            Pod admitted = Reviews.admittedPod(podReview, answer);
            assertThat(admitted.getMetadata().getAnnotations())
                    .containsEntry("scheduling.k8s.io/group-name", "tb-deploy-web");
            assertThat(admitted.getSpec().getSchedulerName()).isEqualTo("volcano");

            Deployment bad = new DeploymentBuilder(web)
                    .editMetadata()
                    .withResourceVersion(null)
                    .withUid(null)
                    .withName("bad")
                    .withAnnotations(Map.of("topobridge.io/highest-tier", "rak"))
                    .endMetadata()
                    .build();
            ObjectNode badReview = Reviews.deployment("CREATE", NS, Reviews.toJson(bad), null);
            Response denial = review(follower, WorkloadValidator.PATH, badReview);
            assertThat(denial.jsonPath().getBoolean("response.allowed"))
                    .as(denial.asString())
                    .isFalse();
            assertThat(denial.jsonPath().getString("response.status.message")).contains("rak");

            long mark = cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(120));
            long killedAt = System.nanoTime();
            leader.kill();
            cluster.waitFor(
                    "the follower to lead",
                    LEASE.multipliedBy(4),
                    () -> role(follower).equals("leader"));
            Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);
            follower.awaitReady(Duration.ofSeconds(60));
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(4), Duration.ofSeconds(120));
            List<Write> writes = cluster.audit()
                    .writesSince(
                            mark,
                            w -> w.user().equals(RealCluster.BRIDGE)
                                    && !w.resource().equals("events")
                                    && !w.resource().equals("leases"));
            assertThat(writes)
                    .as("writes of the new leader on an unchanged cluster (took over in " + takeover.toMillis()
                            + " ms)")
                    .isEmpty();
            assertThat(takeover).isLessThan(LEASE.multipliedBy(3));

            // the new leader reconciles: a scale is one write of the PodGroup
            long scaled = cluster.audit().mark();
            client.apps().deployments().inNamespace(NS).withName("web").scale(2);
            cluster.waitFor("minMember 2", Duration.ofSeconds(60), () -> {
                var pg = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                        .inNamespace(NS)
                        .withName("tb-deploy-web")
                        .get();
                return ((Map<?, ?>) pg.getAdditionalProperties().get("spec"))
                        .get("minMember")
                        .equals(2);
            });
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(60));
            assertThat(cluster.audit().writesSince(scaled, RealCluster.BRIDGE, "podgroups"))
                    .hasSize(1);
            System.out.printf(
                    "HA: follower took over %d ms after the leader was killed (lease %d s)%n",
                    takeover.toMillis(), LEASE.toSeconds());
        } finally {
            a.stop();
            b.stop();
        }
    }

    /**
     * The leader SIGKILLed in the middle of a burst of node relabels, with pods being created meanwhile: the follower
     * takes over, brings the HyperNodes to what {@code render} prints, writes no object twice with the same content
     * (audit log), and every pod created during the failover is tied to its gang (the webhook Service, as kube-proxy
     * makes it, sends each call to a live replica).
     */
    @Test
    void theLeaderKilledInABurstOfRelabelsLeavesNothingWrittenTwiceAndNoPodUntied() {
        var client = cluster.client();
        Examples.ensureNodes(client);
        cluster.stopBridge();
        String ns = NS;
        List<String> trays =
                IntStream.rangeClosed(1, 8).mapToObj(i -> "gb200-r01-t0" + i).toList();
        Map<String, Map<String, String>> home = new LinkedHashMap<>();
        for (String tray : trays) {
            Map<String, String> labels =
                    client.nodes().withName(tray).get().getMetadata().getLabels();
            home.put(tray, Map.of(CLIQUE, labels.get(CLIQUE), LEAF, labels.get(LEAF)));
        }
        Map<String, String> labels =
                client.nodes().withName("gb200-r02-t01").get().getMetadata().getLabels();
        Map<String, String> away = Map.of(CLIQUE, labels.get(CLIQUE), LEAF, labels.get(LEAF));

        Replicas replicas = new Replicas();
        Bridge a = replicas.a;
        Bridge b = replicas.b;
        try {
            Bridge leader = replicas.awaitLeader();
            Bridge follower = leader == a ? b : a;
            client.apps()
                    .deployments()
                    .inNamespace(ns)
                    .resource(DeploymentWrapper.make("web", null)
                            .replicas(2)
                            .highestTier("leaf")
                            .cpu("100m")
                            .obj())
                    .create();
            // set-up, before the failover: a pod whose webhook call outran its 3 s timeout on the loaded machine
            // came in untied; deleting it has its ReplicaSet create it again through the webhook
            cluster.waitFor("the two pods tied to their gang", Duration.ofSeconds(120), () -> retied(ns, 2));
            cluster.waitFor(
                    "the follower to know the tiers",
                    Duration.ofSeconds(60),
                    () -> follower.get("/api/status").body().contains("leaf"));
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(120));
            long mark = cluster.audit().mark();

            long killedAt = 0;
            for (int i = 0; i < trays.size(); i++) {
                if (i == trays.size() / 2) {
                    leader.kill();
                    killedAt = System.nanoTime();
                    // pods created while no replica leads, and while the killed one's endpoint is gone
                    client.apps().deployments().inNamespace(ns).withName("web").scale(8);
                }
                String tray = trays.get(i);
                client.nodes().withName(tray).edit(n -> {
                    n.getMetadata().getLabels().putAll(away);
                    return n;
                });
                RealCluster.sleep(Duration.ofMillis(300));
            }
            cluster.waitFor(
                    "the follower to lead",
                    LEASE.multipliedBy(4),
                    () -> role(follower).equals("leader"));
            Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);
            Map<String, JsonNode> expected = Examples.renderedHyperNodes(nodesFile());
            cluster.waitFor(
                    "the HyperNodes render prints",
                    Duration.ofSeconds(90),
                    () -> Examples.hyperNodes(client).equals(expected));
            Duration converged = Duration.ofNanos(System.nanoTime() - killedAt);
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(4), Duration.ofSeconds(120));
            assertThat(Examples.hyperNodes(client)).isEqualTo(expected);
            cluster.waitFor("eight pods", Duration.ofSeconds(60), () -> pods(ns).size() == 8);
            List<String> untied = untiedAccountedFor(ns, mark, follower);
            assertThat(8 - untied.size()).as("pods tied, of 8").isPositive();
            cluster.waitFor(
                    "minMember 8",
                    Duration.ofSeconds(60),
                    () -> ((Map<?, ?>) client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                                    .inNamespace(ns)
                                    .withName("tb-deploy-web")
                                    .get()
                                    .getAdditionalProperties()
                                    .get("spec"))
                            .get("minMember")
                            .equals(8));

            List<Write> writes = ownWritesSince(mark);
            Map<String, JsonNode> last = new java.util.HashMap<>();
            List<String> twice = new ArrayList<>();
            for (Write w : writes) {
                String key = w.resource() + "/" + w.namespace() + "/" + w.name();
                JsonNode body = content(w.requestObject());
                if (body != null && body.equals(last.get(key))) {
                    twice.add(key);
                }
                last.put(key, body);
            }
            assertThat(twice)
                    .as("objects written twice in a row with the same content, among " + writes.size() + " writes")
                    .isEmpty();
            assertThat(takeover).isLessThan(LEASE.multipliedBy(3));
            System.out.printf(
                    "HA failover: leader killed mid-burst of %d relabels; takeover %d ms, HyperNodes as"
                            + " rendered %d ms after the kill; %d writes of HyperNodes and PodGroups, none repeated; %d of 8"
                            + " pods tied, %d webhook connections%n",
                    trays.size(),
                    takeover.toMillis(),
                    converged.toMillis(),
                    writes.size(),
                    8 - untied.size(),
                    replicas.service.connections());
            home.forEach((tray, original) -> client.nodes().withName(tray).edit(n -> {
                n.getMetadata().getLabels().putAll(original);
                return n;
            }));
            awaitHyperNodesAsRendered("the trays back", Duration.ofSeconds(90));
        } finally {
            replicas.close();
            home.forEach((tray, original) -> client.nodes().withName(tray).edit(n -> {
                n.getMetadata().getLabels().putAll(original);
                return n;
            }));
        }
    }

    /**
     * The leader SIGKILLed in the middle of a pass: 48 nodes without topology labels get a leaf switch and an NVLink
     * domain each in one burst (a pass of well over a hundred HyperNode writes) while Deployments are created, and
     * the leader dies once the audit log shows the pass's first HyperNode writes. The follower takes over within
     * the lease, the HyperNodes and PodGroups end as {@code render} prints them, the new leader writes no object
     * with the content it already has, and every pod created meanwhile is tied to its gang (or, for a webhook call
     * that was in flight to the dying replica, reported untied by the new leader).
     */
    @Test
    void theLeaderKilledInTheMiddleOfAPassLeavesNothingWrittenTwiceAndNoPodUntied() throws Exception {
        var client = cluster.client();
        Examples.ensureNodes(client);
        cluster.stopBridge();
        String ns = NS;
        int count = 48;
        List<String> names = IntStream.range(0, count)
                .mapToObj(i -> String.format("midpass-n%02d", i))
                .toList();
        for (String name : names) {
            // no topology labels yet: in no tree
            Nodes.create(
                    client, Nodes.node(name).cpu("32").memory("256Gi").gpus(4).build());
        }
        Replicas replicas = new Replicas();
        Bridge a = replicas.a;
        Bridge b = replicas.b;
        var burst = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            Bridge leader = replicas.awaitLeader();
            Bridge follower = leader == a ? b : a;
            cluster.waitFor(
                    "the follower to know the tiers",
                    Duration.ofSeconds(60),
                    () -> follower.get("/api/status").body().contains("leaf"));
            awaitHyperNodesAsRendered("the HyperNodes render prints before the pass", Duration.ofSeconds(90));
            Map<String, JsonNode> before = Examples.hyperNodes(client);
            Map<String, JsonNode> beforeContent = new java.util.HashMap<>();
            for (var h : client.genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode")
                    .list()
                    .getItems()) {
                beforeContent.put("hypernodes//" + h.getMetadata().getName(), content(Examples.json(h)));
            }
            long mark = cluster.audit().mark();

            // the pass: every node gets its own leaf switch and NVLink domain, in one burst
            List<java.util.concurrent.Future<?>> relabels = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String name = names.get(i);
                String patch = String.format(
                        "{\"metadata\":{\"labels\":{\"%s\":\"S-midpass-leaf-%02d\",\"%s\":\"S-midpass-spine\","
                                + "\"%s\":\"3a1d0000-0000-4000-8000-0000000000%02d.1\"}}}",
                        LEAF, i, SPINE, CLIQUE, i);
                relabels.add(burst.submit(() -> client.nodes()
                        .withName(name)
                        .patch(
                                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                                patch)));
            }
            // workloads created in the same moment: the workload controller's pass is under way too
            createLeafGangs(client, ns, "before-", 4);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (cluster.audit()
                            .writesSince(mark, RealCluster.BRIDGE, "hypernodes")
                            .isEmpty()
                    && System.nanoTime() < deadline) {
                RealCluster.sleep(Duration.ofMillis(20));
            }
            leader.kill();
            long killedAt = System.nanoTime();
            long killMark = cluster.audit().mark();
            int writtenByOldLeader = cluster.audit()
                    .writesSince(mark, RealCluster.BRIDGE, "hypernodes")
                    .size();
            Map<String, JsonNode> atKill = Examples.hyperNodes(client);
            // pods created while no replica leads, and while the killed one's endpoint is gone
            createLeafGangs(client, ns, "during-", 6);
            for (var relabel : relabels) {
                relabel.get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
            cluster.waitFor(
                    "the follower to lead",
                    LEASE.multipliedBy(4),
                    () -> role(follower).equals("leader"));
            Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);

            Map<String, JsonNode> expected = new java.util.TreeMap<>();
            Map<String, JsonNode> podGroups = new java.util.TreeMap<>();
            for (JsonNode doc : Examples.render(nodesFile(), deploymentsFile(ns))) {
                String name = doc.path("metadata").path("name").asText();
                if (doc.path("kind").asText().equals("HyperNode")) {
                    expected.put(name, doc.path("spec"));
                } else if (doc.path("kind").asText().equals("PodGroup")) {
                    podGroups.put(name, doc.path("spec"));
                }
            }
            long changed = expected.entrySet().stream()
                    .filter(e -> !e.getValue().equals(before.get(e.getKey())))
                    .count();
            assertThat(writtenByOldLeader)
                    .as("HyperNodes the old leader wrote before it was killed, of " + changed + " the pass changes")
                    .isPositive()
                    .isLessThan((int) changed);
            assertThat(atKill).as("the HyperNodes when the leader was killed").isNotEqualTo(expected);
            cluster.waitFor(
                    "the HyperNodes render prints",
                    Duration.ofSeconds(120),
                    () -> Examples.hyperNodes(client).equals(expected));
            cluster.waitFor(
                    "the PodGroups render prints",
                    Duration.ofSeconds(120),
                    () -> podGroupsDiffer(ns, podGroups).isEmpty());
            Duration converged = Duration.ofNanos(System.nanoTime() - killedAt);
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(4), Duration.ofSeconds(120));
            assertThat(Examples.hyperNodes(client)).isEqualTo(expected);
            assertThat(podGroupsDiffer(ns, podGroups)).isEmpty();

            // the new leader writes nothing an object already holds: no write with the content it had before
            Map<String, JsonNode> last = new java.util.HashMap<>(beforeContent);
            List<String> twice = new ArrayList<>();
            List<Write> writes = ownWritesSince(mark);
            for (Write w : writes) {
                String key = w.resource() + "/" + w.namespace() + "/" + w.name();
                JsonNode body = content(w.requestObject());
                if (body != null && body.equals(last.get(key))) {
                    twice.add(key);
                }
                last.put(key, w.verb().equals("delete") ? null : body);
            }
            int afterTakeover = ownWritesSince(killMark).size();
            assertThat(twice)
                    .as("objects written with the content they already had, among " + writes.size() + " writes")
                    .isEmpty();
            assertThat(takeover).isLessThan(LEASE.multipliedBy(3));

            // pods: all tied to their gang, but for a call in flight to the dying replica, which is reported
            cluster.waitFor(
                    "twenty pods",
                    Duration.ofSeconds(90),
                    () -> client.pods().inNamespace(ns).list().getItems().stream()
                                    .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                                    .count()
                            == 20);
            List<Pod> pods = client.pods().inNamespace(ns).list().getItems();
            List<String> untied = untiedAccountedFor(ns, mark, follower);
            assertThat(pods.stream()
                            .filter(p -> p.getMetadata().getName().startsWith("during-"))
                            .filter(p -> !untied.contains(p.getMetadata().getName())))
                    .as("pods created after the kill and tied to their gang")
                    .isNotEmpty();
            System.out.printf(
                    "HA mid-pass: leader killed after %d of %d HyperNode writes of the pass; takeover %d ms; HyperNodes"
                            + " and %d PodGroups as rendered %d ms after the kill; %d writes of HyperNodes and PodGroups"
                            + " after the kill, %d in all, none with the content the object had; %d pods created, %d tied,"
                            + " untied %s%n",
                    writtenByOldLeader,
                    changed,
                    takeover.toMillis(),
                    podGroups.size(),
                    converged.toMillis(),
                    afterTakeover,
                    writes.size(),
                    pods.size(),
                    pods.size() - untied.size(),
                    untied);

            for (String name : names) {
                client.nodes().withName(name).delete();
            }
            cluster.waitFor(
                    "the pass's nodes to go",
                    Duration.ofSeconds(60),
                    () -> client.nodes().list().getItems().stream()
                            .noneMatch(n -> n.getMetadata().getName().startsWith("midpass-")));
            awaitHyperNodesAsRendered("the HyperNodes without the pass's nodes", Duration.ofSeconds(120));
        } finally {
            burst.shutdownNow();
            replicas.close();
            for (String name : names) {
                client.nodes().withName(name).delete();
            }
        }
    }

    /**
     * The pods of {@code ns} not tied to their gang ({@code tb-deploy-<app>}). Each must be one the API server let in
     * after a failed call to the pod webhook (a call in flight to the killed replica, or one that outran its 3 s
     * timeout on the loaded machine; audit log), and the new leader must report it as {@code UntiedPods}.
     */
    private List<String> untiedAccountedFor(String ns, long mark, Bridge reporter) {
        List<Pod> pods = pods(ns, null);
        Map<String, List<String>> untied = new java.util.TreeMap<>();
        for (Pod p : pods) {
            String gang = "tb-deploy-" + p.getMetadata().getLabels().get("app");
            var annotations = p.getMetadata().getAnnotations();
            if (annotations == null || !gang.equals(annotations.get("scheduling.k8s.io/group-name"))) {
                untied.computeIfAbsent(gang, g -> new ArrayList<>())
                        .add(p.getMetadata().getName());
            }
        }
        List<String> names = untied.values().stream().flatMap(List::stream).toList();
        if (!names.isEmpty()) {
            long failedOpen = failedOpenPodCreates(ns, mark);
            assertThat(names.size())
                    .as("untied pods " + names + " against pod creates let in after a failed webhook call")
                    .isLessThanOrEqualTo((int) failedOpen);
            cluster.waitFor("the untied pods reported", Duration.ofSeconds(90), () -> {
                String findings = reporter.get("/api/findings").body();
                // a finding names its gang's first five pods
                return untied.values().stream()
                        .allMatch(list -> list.stream().limit(5).allMatch(findings::contains));
            });
        }
        return names;
    }

    /** Pod creates in {@code ns} since {@code mark} that the API server let in after the pod webhook failed. */
    private long failedOpenPodCreates(String ns, long mark) {
        try (var in = new java.io.RandomAccessFile(cluster.audit().file().toFile(), "r")) {
            byte[] bytes = new byte[(int) (in.length() - mark)];
            in.seek(mark);
            in.readFully(bytes);
            var json = new com.fasterxml.jackson.databind.ObjectMapper();
            long count = 0;
            for (String line : new String(bytes, java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (!line.contains("failed-open") || !line.contains("\"pods\"")) {
                    continue;
                }
                JsonNode event = json.readTree(line);
                JsonNode ref = event.path("objectRef");
                if (event.path("stage").asText().equals("ResponseComplete")
                        && event.path("verb").asText().equals("create")
                        && ref.path("resource").asText().equals("pods")
                        && ref.path("namespace").asText().equals(ns)) {
                    var fields = event.path("annotations").fields();
                    while (fields.hasNext()) {
                        var f = fields.next();
                        if (f.getKey().startsWith("failed-open")
                                && f.getValue().asText().equals("pods.topobridge.io")) {
                            count++;
                            break;
                        }
                    }
                }
            }
            return count;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** What a write sets that matters: spec, labels, annotations and owners (null when not recorded). */
    private static JsonNode content(JsonNode object) {
        if (object == null || object.isNull()) {
            return null;
        }
        var out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        out.set("spec", object.path("spec"));
        out.set("labels", object.path("metadata").path("labels"));
        out.set("annotations", object.path("metadata").path("annotations"));
        out.set("ownerReferences", object.path("metadata").path("ownerReferences"));
        return out;
    }

    /** Whether {@code count} pods are tied to the gang, deleting the ones that came in untied. */
    private boolean retied(String ns, int count) {
        for (Pod p : pods(ns)) {
            var annotations = p.getMetadata().getAnnotations();
            if (annotations == null || !"tb-deploy-web".equals(annotations.get("scheduling.k8s.io/group-name"))) {
                cluster.client()
                        .pods()
                        .inNamespace(ns)
                        .withName(p.getMetadata().getName())
                        .delete();
            }
        }
        return tied(ns, count);
    }

    private List<Pod> pods(String ns, String app) {
        return cluster.client().pods().inNamespace(ns).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .filter(p ->
                        app == null || app.equals(p.getMetadata().getLabels().get("app")))
                .toList();
    }

    /** Creates {@code count} Deployments {@code <prefix><i>} of two small pods, each gang held within a leaf. */
    private static void createLeafGangs(KubernetesClient client, String ns, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            client.resource(DeploymentWrapper.make(prefix + i, ns)
                            .replicas(2)
                            .highestTier("leaf")
                            .cpu("100m")
                            .obj())
                    .create();
        }
    }

    /** The bridge's successful writes of HyperNodes and PodGroups since {@code mark}. */
    private List<Write> ownWritesSince(long mark) {
        return cluster.audit()
                .writesSince(
                        mark,
                        w -> w.user().equals(RealCluster.BRIDGE)
                                && (w.resource().equals("hypernodes")
                                        || w.resource().equals("podgroups"))
                                && w.succeeded());
    }

    /** Where the bridge's PodGroups in {@code ns} differ from the rendered specs (every field render prints). */
    private List<String> podGroupsDiffer(String ns, Map<String, JsonNode> rendered) {
        Map<String, JsonNode> live = new java.util.TreeMap<>();
        for (var pg : PodGroups.ours(cluster.client(), ns)) {
            live.put(
                    pg.getMetadata().getName(),
                    Examples.json(pg.getAdditionalProperties().get("spec")));
        }
        List<String> out = new ArrayList<>();
        rendered.forEach((name, want) -> {
            JsonNode have = live.get(name);
            if (have == null) {
                out.add("missing " + name);
                return;
            }
            want.fieldNames().forEachRemaining(f -> {
                if (!want.get(f).equals(have.get(f))) {
                    out.add(name + "." + f);
                }
            });
        });
        live.keySet().stream().filter(n -> !rendered.containsKey(n)).forEach(n -> out.add("extra " + n));
        return out;
    }

    /** The Deployments of {@code ns} as they are, as a YAML file for {@code render}. */
    private String deploymentsFile(String ns) throws java.io.IOException {
        StringBuilder out = new StringBuilder();
        for (Deployment d :
                cluster.client().apps().deployments().inNamespace(ns).list().getItems()) {
            d.getMetadata().setManagedFields(null);
            d.setStatus(null);
            out.append("---\n")
                    .append(cluster.client().getKubernetesSerialization().asYaml(d));
        }
        var file = cluster.runDir().resolve("midpass-deployments.yaml");
        java.nio.file.Files.writeString(file, out);
        return file.toString();
    }

    private static final String CLIQUE = "nvidia.com/gpu.clique";
    private static final String LEAF = "fabric.topograph.run/tier-0";
    private static final String SPINE = "fabric.topograph.run/tier-1";

    /** Waits until the HyperNodes are what {@code render} prints for the nodes now, and the bridge writes no more. */
    private void awaitHyperNodesAsRendered(String what, Duration timeout) {
        var client = cluster.client();
        Map<String, JsonNode> rendered = Examples.renderedHyperNodes(nodesFile());
        cluster.waitFor(what, timeout, () -> Examples.hyperNodes(client).equals(rendered));
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(120));
    }

    /**
     * Two replicas with leader election whose webhooks sit behind one balancing Service, as the pods of a Deployment
     * sit behind its Service (the {@code topobridge-webhook} Service is pointed at the balancer).
     */
    private final class Replicas implements AutoCloseable {
        final WebhookBalancer service;
        final Bridge a;
        final Bridge b;

        Replicas() {
            int portA = FreePort.find();
            int portB = FreePort.find();
            service = new WebhookBalancer(List.of(portA, portB));
            cluster.pointWebhookServiceAt(service.port());
            a = behindService("replica-a", portA);
            b = behindService("replica-b", portB);
        }

        private Bridge behindService(String name, int webhookPort) {
            return Bridge.on(cluster, name)
                    .exposeWebhook(false)
                    .webhookPort(webhookPort)
                    .servicePort(service.port())
                    .set("topobridge.leader-election.enabled", "true")
                    .set("topobridge.leader-election.lease-duration", LEASE.toSeconds() + "s")
                    .set("topobridge.leader-election.renew-deadline", "4s")
                    .set("topobridge.leader-election.retry-period", "1s")
                    .start();
        }

        /** Waits until both replicas are ready and one of them leads; returns the leader. */
        Bridge awaitLeader() {
            a.awaitReady(Duration.ofSeconds(120));
            b.awaitReady(Duration.ofSeconds(120));
            cluster.waitFor("one leader", Duration.ofSeconds(60), () -> !role(a).equals(role(b)));
            return role(a).equals("leader") ? a : b;
        }

        @Override
        public void close() {
            a.stop();
            b.stop();
            service.close();
        }
    }

    private List<Pod> pods(String ns) {
        return cluster.client().pods().inNamespace(ns).withLabel("app", "web").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    private boolean tied(String ns, int count) {
        List<Pod> pods = pods(ns);
        return pods.size() == count
                && pods.stream()
                        .allMatch(p -> p.getMetadata().getAnnotations() != null
                                && "tb-deploy-web"
                                        .equals(p.getMetadata().getAnnotations().get("scheduling.k8s.io/group-name")));
    }

    /** The cluster's nodes as a YAML file, for {@code render}. */
    private String nodesFile() {
        return cluster.writeNodes("failover-nodes.yaml");
    }
}

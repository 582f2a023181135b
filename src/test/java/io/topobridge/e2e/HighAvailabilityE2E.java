package io.topobridge.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.restassured.response.Response;
import io.topobridge.e2e.AuditLog.Write;
import io.topobridge.testing.FreePort;
import io.topobridge.webhook.PodMutator;
import io.topobridge.webhook.Reviews;
import io.topobridge.webhook.WorkloadValidator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

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
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NS)
                        .addToLabels("topobridge.io/enabled", "true")
                        .endMetadata()
                        .build())
                .create();
        Deployment web = client.apps()
                .deployments()
                .inNamespace(NS)
                .resource(new DeploymentBuilder()
                        .withNewMetadata()
                        .withName("web")
                        .addToAnnotations("topobridge.io/highest-tier", "leaf")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(1)
                        .withNewSelector()
                        .addToMatchLabels("app", "web")
                        .endSelector()
                        .withNewTemplate()
                        .withNewMetadata()
                        .addToLabels("app", "web")
                        .endMetadata()
                        .withNewSpec()
                        .withSchedulerName("volcano")
                        .addNewContainer()
                        .withName("c")
                        .withImage("x")
                        .withNewResources()
                        .addToRequests("cpu", new Quantity("1"))
                        .endResources()
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build())
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
            cluster.waitFor(
                    "the Deployment's PodGroup",
                    Duration.ofSeconds(60),
                    () -> client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                                    .inNamespace(NS)
                                    .withName("tb-deploy-web")
                                    .get()
                            != null);
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
                    .withNewSpec()
                    .addNewContainer()
                    .withName("c")
                    .withImage("x")
                    .endContainer()
                    .endSpec()
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
            ObjectNode badReview =
                    Reviews.review("CREATE", NS, "apps", "v1", "Deployment", "deployments", Reviews.toJson(bad), null);
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
            assertThat(cluster.audit()
                            .writesSince(
                                    scaled,
                                    w -> w.user().equals(RealCluster.BRIDGE)
                                            && w.resource().equals("podgroups")))
                    .hasSize(1);
            System.out.printf(
                    "HA: follower took over %d ms after the leader was killed (lease %d s)%n",
                    takeover.toMillis(), LEASE.toSeconds());
        } finally {
            a.stop();
            b.stop();
            client.namespaces().withName(NS).delete();
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
        String ns = "failover-e2e";
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(ns)
                        .addToLabels("topobridge.io/enabled", "true")
                        .endMetadata()
                        .build())
                .create();
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

        int portA = FreePort.find();
        int portB = FreePort.find();
        WebhookBalancer service = new WebhookBalancer(List.of(portA, portB));
        var services = client.services().inNamespace(RealCluster.BRIDGE_NAMESPACE);
        services.withName("topobridge-webhook").delete();
        cluster.waitFor(
                "the old webhook Service to go",
                Duration.ofSeconds(30),
                () -> services.withName("topobridge-webhook").get() == null);
        services.resource(RealCluster.externalName("topobridge-webhook", service.port()))
                .create();
        Bridge a = behindService("replica-a", portA, service);
        Bridge b = behindService("replica-b", portB, service);
        try {
            a.awaitReady(Duration.ofSeconds(120));
            b.awaitReady(Duration.ofSeconds(120));
            cluster.waitFor("one leader", Duration.ofSeconds(60), () -> !role(a).equals(role(b)));
            Bridge leader = role(a).equals("leader") ? a : b;
            Bridge follower = leader == a ? b : a;
            client.apps()
                    .deployments()
                    .inNamespace(ns)
                    .resource(new DeploymentBuilder()
                            .withNewMetadata()
                            .withName("web")
                            .addToAnnotations("topobridge.io/highest-tier", "leaf")
                            .endMetadata()
                            .withNewSpec()
                            .withReplicas(2)
                            .withNewSelector()
                            .addToMatchLabels("app", "web")
                            .endSelector()
                            .withNewTemplate()
                            .withNewMetadata()
                            .addToLabels("app", "web")
                            .endMetadata()
                            .withNewSpec()
                            .withSchedulerName("volcano")
                            .addNewContainer()
                            .withName("c")
                            .withImage("x")
                            .withNewResources()
                            .addToRequests("cpu", new Quantity("100m"))
                            .endResources()
                            .endContainer()
                            .endSpec()
                            .endTemplate()
                            .endSpec()
                            .build())
                    .create();
            cluster.waitFor("the two pods tied to their gang", Duration.ofSeconds(60), () -> tied(ns, 2));
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
            assertThat(pods(ns))
                    .as("pods created during the failover")
                    .allSatisfy(p -> assertThat(p.getMetadata().getAnnotations())
                            .containsEntry("scheduling.k8s.io/group-name", "tb-deploy-web"));
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

            List<Write> writes = cluster.audit()
                    .writesSince(
                            mark,
                            w -> w.user().equals(RealCluster.BRIDGE)
                                    && (w.resource().equals("hypernodes")
                                            || w.resource().equals("podgroups"))
                                    && w.succeeded());
            Map<String, JsonNode> last = new java.util.HashMap<>();
            List<String> twice = new ArrayList<>();
            for (Write w : writes) {
                String key = w.resource() + "/" + w.namespace() + "/" + w.name();
                JsonNode body =
                        w.requestObject() == null ? null : w.requestObject().path("spec");
                if (body != null && body.equals(last.get(key))) {
                    twice.add(key);
                }
                last.put(key, body);
            }
            assertThat(twice)
                    .as("objects written twice in a row with the same spec, among " + writes.size() + " writes")
                    .isEmpty();
            assertThat(takeover).isLessThan(LEASE.multipliedBy(3));
            System.out.printf(
                    "HA failover: leader killed mid-burst of %d relabels; takeover %d ms, HyperNodes as"
                            + " rendered %d ms after the kill; %d writes of HyperNodes and PodGroups, none repeated; 8 of 8"
                            + " pods tied, %d webhook connections%n",
                    trays.size(), takeover.toMillis(), converged.toMillis(), writes.size(), service.connections());
            home.forEach((tray, original) -> client.nodes().withName(tray).edit(n -> {
                n.getMetadata().getLabels().putAll(original);
                return n;
            }));
            Map<String, JsonNode> restored = Examples.renderedHyperNodes(nodesFile());
            cluster.waitFor(
                    "the trays back",
                    Duration.ofSeconds(90),
                    () -> Examples.hyperNodes(client).equals(restored));
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(120));
        } finally {
            a.stop();
            b.stop();
            service.close();
            home.forEach((tray, original) -> client.nodes().withName(tray).edit(n -> {
                n.getMetadata().getLabels().putAll(original);
                return n;
            }));
            client.namespaces().withName(ns).delete();
        }
    }

    private static final String CLIQUE = "nvidia.com/gpu.clique";
    private static final String LEAF = "fabric.topograph.run/tier-0";

    /** A replica whose webhook sits behind {@code service}, as every replica of a Deployment sits behind one Service. */
    private Bridge behindService(String name, int webhookPort, WebhookBalancer service) {
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
        try {
            var file = cluster.runDir().resolve("failover-nodes.yaml");
            StringBuilder out = new StringBuilder();
            for (var n : cluster.client().nodes().list().getItems()) {
                n.getMetadata().setManagedFields(null);
                out.append("---\n")
                        .append(cluster.client().getKubernetesSerialization().asYaml(n));
            }
            java.nio.file.Files.writeString(file, out);
            return file.toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

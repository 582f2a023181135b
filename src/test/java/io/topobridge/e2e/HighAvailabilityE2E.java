package io.topobridge.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

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
import io.topobridge.webhook.PodMutator;
import io.topobridge.webhook.Reviews;
import io.topobridge.webhook.WorkloadValidator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two replicas with leader election on the real cluster: both serve the webhooks (the follower answers a pod
 * review with the right patch and refuses a bad tier name against the tiers the leader built), and when the
 * leader is killed the follower takes over within the lease time and writes nothing the old leader already wrote.
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
        return builder
                .set("topobridge.leader-election.enabled", "true")
                .set("topobridge.leader-election.lease-duration", LEASE.toSeconds() + "s")
                .set("topobridge.leader-election.renew-deadline", "4s")
                .set("topobridge.leader-election.retry-period", "1s")
                .start();
    }

    private static String role(Bridge bridge) {
        return bridge.get("/api/status").body().contains("\"role\":\"leader\"") ? "leader" : "follower";
    }

    private static Response review(Bridge bridge, String path, ObjectNode review) {
        return given().relaxedHTTPSValidation().baseUri("https://127.0.0.1").port(bridge.webhookPort())
                .contentType("application/json").body(review.toString()).post(path);
    }

    @Test
    void everyReplicaServesTheWebhooksAndTheFollowerTakesOverWithoutWritingTwice() {
        var client = cluster.client();
        Examples.ensureNodes(client);
        cluster.stopBridge();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS)
                .addToLabels("topobridge.io/enabled", "true").endMetadata().build()).create();
        Deployment web = client.apps().deployments().inNamespace(NS).resource(new DeploymentBuilder().withNewMetadata()
                .withName("web").addToAnnotations("topobridge.io/highest-tier", "leaf").endMetadata().withNewSpec()
                .withReplicas(1).withNewSelector().addToMatchLabels("app", "web").endSelector().withNewTemplate()
                .withNewMetadata().addToLabels("app", "web").endMetadata().withNewSpec().withSchedulerName("volcano")
                .addNewContainer().withName("c").withImage("x").withNewResources()
                .addToRequests("cpu", new Quantity("1")).endResources().endContainer().endSpec().endTemplate()
                .endSpec().build()).create();

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
            cluster.waitFor("the Deployment's PodGroup", Duration.ofSeconds(60), () -> client
                    .genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace(NS)
                    .withName("tb-deploy-web").get() != null);
            ReplicaSet rs = client.apps().replicaSets().inNamespace(NS).list().getItems().get(0);
            // the follower's caches and tiers (learned from the leader's HyperNodes) answer a review on their own
            cluster.waitFor("the follower to know the tiers", Duration.ofSeconds(60),
                    () -> follower.get("/api/status").body().contains("leaf"));
            Pod pod = new PodBuilder().withNewMetadata().withGenerateName(rs.getMetadata().getName() + "-")
                    .withNamespace(NS).addToLabels("app", "web")
                    .addToLabels("pod-template-hash", rs.getMetadata().getLabels().get("pod-template-hash"))
                    .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet")
                    .withName(rs.getMetadata().getName()).withUid(rs.getMetadata().getUid()).withController(true)
                    .endOwnerReference().endMetadata().withNewSpec().addNewContainer().withName("c").withImage("x")
                    .endContainer().endSpec().build();
            ObjectNode podReview = Reviews.podCreate(NS, pod);
            Response answer = review(follower, PodMutator.PATH, podReview);
            assertThat(answer.statusCode()).isEqualTo(200);
            Pod admitted = Reviews.admittedPod(podReview, answer);
            assertThat(admitted.getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", "tb-deploy-web");
            assertThat(admitted.getSpec().getSchedulerName()).isEqualTo("volcano");

            Deployment bad = new DeploymentBuilder(web).editMetadata().withResourceVersion(null).withUid(null)
                    .withName("bad").withAnnotations(Map.of("topobridge.io/highest-tier", "rak")).endMetadata().build();
            ObjectNode badReview = Reviews.review("CREATE", NS, "apps", "v1", "Deployment", "deployments",
                    Reviews.toJson(bad), null);
            Response denial = review(follower, WorkloadValidator.PATH, badReview);
            assertThat(denial.jsonPath().getBoolean("response.allowed")).as(denial.asString()).isFalse();
            assertThat(denial.jsonPath().getString("response.status.message")).contains("rak");

            long mark = cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(120));
            long killedAt = System.nanoTime();
            leader.kill();
            cluster.waitFor("the follower to lead", LEASE.multipliedBy(4), () -> role(follower).equals("leader"));
            Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);
            follower.awaitReady(Duration.ofSeconds(60));
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(4), Duration.ofSeconds(120));
            List<Write> writes = cluster.audit().writesSince(mark, w -> w.user().equals(RealCluster.BRIDGE)
                    && !w.resource().equals("events") && !w.resource().equals("leases"));
            assertThat(writes).as("writes of the new leader on an unchanged cluster (took over in "
                    + takeover.toMillis() + " ms)").isEmpty();
            assertThat(takeover).isLessThan(LEASE.multipliedBy(3));

            // the new leader reconciles: a scale is one write of the PodGroup
            long scaled = cluster.audit().mark();
            client.apps().deployments().inNamespace(NS).withName("web").scale(2);
            cluster.waitFor("minMember 2", Duration.ofSeconds(60), () -> {
                var pg = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace(NS)
                        .withName("tb-deploy-web").get();
                return ((Map<?, ?>) pg.getAdditionalProperties().get("spec")).get("minMember").equals(2);
            });
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(60));
            assertThat(cluster.audit().writesSince(scaled, w -> w.user().equals(RealCluster.BRIDGE)
                    && w.resource().equals("podgroups"))).hasSize(1);
            System.out.printf("HA: follower took over %d ms after the leader was killed (lease %d s)%n",
                    takeover.toMillis(), LEASE.toSeconds());
        } finally {
            a.stop();
            b.stop();
            client.namespaces().withName(NS).delete();
        }
    }
}

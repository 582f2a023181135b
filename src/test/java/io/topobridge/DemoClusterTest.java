package io.topobridge;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasToString;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.testing.DemoApiServer;
import io.topobridge.testing.MockApiServer;
import io.topobridge.testing.PodTemplates;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.testing.VolcanoSchemas;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.PodGroup;
import io.topobridge.webhook.AdmissionServer;
import io.topobridge.webhook.AdmissionServers;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole controller on the demo cluster (examples/ seeded as dev mode seeds it): the topology controller
 * builds the HyperNodes from the GPU cluster's labels and publishes its tiers, the workload controller resolves
 * the examples' tier *names* through them, admission ties a pod to its gang, every object is Volcano-valid,
 * and once converged nothing is written.
 */
@QuarkusTest
@TestProfile(DemoClusterTest.Profile.class)
@QuarkusTestResource(value = DemoApiServer.class, restrictToAnnotatedClass = true)
class DemoClusterTest {

    /** Its own application and API server, seeded with the examples. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public String getConfigProfile() {
            return "test";
        }
    }

    private static final String NS = "inference";
    private static final List<String> POD_GROUPS = List.of(
            "tb-ds-pd-slice-0",
            "tb-group-qwen-pd",
            "tb-lws-deepseek-0",
            "tb-lws-deepseek-1",
            "tb-lws-tp-one-partition-0",
            "tb-lws-tp-too-big-soft-0",
            "tb-rs-pd-demo-roleset-7xkq2");

    @Inject
    AdmissionServer admission;

    private static Map<String, PodGroup> podGroups() {
        return MockApiServer.cluster().client().resources(PodGroup.class).inNamespace(NS).list().getItems().stream()
                .collect(Collectors.toMap(p -> p.getMetadata().getName(), Function.identity()));
    }

    private static List<HyperNode> hyperNodes() {
        return MockApiServer.cluster()
                .client()
                .resources(HyperNode.class)
                .list()
                .getItems();
    }

    @BeforeEach
    void converged() {
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(hyperNodes()).hasSize(19);
            assertThat(podGroups().keySet()).containsExactlyInAnyOrderElementsOf(POD_GROUPS);
        });
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> given().get("/q/health/ready").then().statusCode(200));
    }

    @Test
    void hyperNodesFollowTheGpuClustersLabels() {
        Map<Integer, Long> byTier = hyperNodes().stream()
                .collect(Collectors.groupingBy(h -> h.getSpec().getTier(), Collectors.counting()));
        assertThat(byTier).containsExactlyInAnyOrderEntriesOf(Map.of(1, 7L, 2, 5L, 3, 5L, 4, 2L));
        assertThat(hyperNodes())
                .allSatisfy(h -> assertThat(h.getMetadata().getLabels())
                        .containsEntry(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE));
        given().get("/api/status")
                .then()
                .statusCode(200)
                .body("parts.topology.tiers.nvlink", hasToString("1"))
                .body("parts.topology.tiers.'nvlink-domain'", hasToString("2"))
                .body("parts.topology.tiers.leaf", hasToString("3"))
                .body("parts.topology.tiers.spine", hasToString("4"));
    }

    @Test
    void tierNamesInTheExamplesResolveThroughTheBuiltTopology() {
        Map<String, PodGroup> made = podGroups();
        // "nvlink" is tier 1 and "leaf" tier 3 only because the topology controller built them from the nodes (racks
        // r04 and r05 are split into NVLink partitions, so the NVLink domains are tier 2)
        assertThat(made.get("tb-lws-deepseek-0").getSpec().getNetworkTopology().getHighestTierAllowed())
                .isEqualTo(1);
        // the tensor-parallel gangs sized against rack r05's partitions: hard and soft, both on the partition tier;
        // the hard one no partition holds is refused (GangExceedsDomain) and gets none
        assertThat(made.get("tb-lws-tp-one-partition-0").getSpec().getMinMember())
                .isEqualTo(9);
        assertThat(made.get("tb-lws-tp-too-big-soft-0").getSpec().getMinMember())
                .isEqualTo(10);
        assertThat(List.of("tb-lws-tp-one-partition-0", "tb-lws-tp-too-big-soft-0"))
                .extracting(n -> made.get(n).getSpec().getNetworkTopology().getHighestTierAllowed() + " "
                        + made.get(n).getSpec().getNetworkTopology().getMode())
                .containsExactly("1 hard", "1 soft");
        assertThat(made).doesNotContainKey("tb-lws-tp-too-big-0");

        PodGroup pair = made.get("tb-group-qwen-pd");
        assertThat(pair.getSpec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(3);
        assertThat(pair.getSpec().getNetworkTopology().getHighestTierName()).isNull();
        assertThat(pair.getSpec().getSubGroupPolicy()).isNotEmpty().allSatisfy(s -> {
            assertThat(s.getNetworkTopology().getHighestTierAllowed()).isEqualTo(1);
            assertThat(s.getMatchLabelKeys()).isNotEmpty();
        });
        given().get("/api/podgroups")
                .then()
                .statusCode(200)
                .body("size()", equalTo(POD_GROUPS.size()))
                .body(
                        "find { it.metadata.name == 'tb-lws-deepseek-1' }.spec.networkTopology.highestTierAllowed",
                        equalTo(1));
        given().get("/api/hypernodes").then().statusCode(200).body("size()", equalTo(19));
        given().get("/api/findings")
                .then()
                .statusCode(200)
                .body("findAll { it.severity == 'REJECTED' }.reason", contains("GangExceedsDomain"))
                .body("findAll { it.severity == 'REJECTED' }.name", contains("tp-too-big"));
    }

    @Test
    void admissionTiesAPodOfTheExamplesToItsGang() {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> admission.ready() && AdmissionServers.port(admission) > 0);
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName("decode-6f7c9-abcde")
                .withNamespace(NS)
                .addToLabels("pod-template-hash", "6f7c9")
                .addToLabels("app", "qwen-decode")
                .addNewOwnerReference()
                .withApiVersion("apps/v1")
                .withKind("ReplicaSet")
                .withName("qwen-decode-6f7c9")
                .withUid("rs-uid")
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .withSpec(PodTemplates.spec("vllm", "vllm"))
                .build();
        String review = """
                {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"demo-1",
                "kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},
                "namespace":"%s","operation":"CREATE","object":%s}}""".formatted(
                NS,
                MockApiServer.cluster().client().getKubernetesSerialization().asJson(pod));
        String patch = given().relaxedHTTPSValidation()
                .baseUri("https://localhost")
                .port(AdmissionServers.port(admission))
                .contentType("application/json")
                .body(review)
                .post("/mutate/pods")
                .then()
                .statusCode(200)
                .body("response.allowed", equalTo(true))
                .body("response.uid", equalTo("demo-1"))
                .extract()
                .path("response.patch");
        String decoded = new String(Base64.getDecoder().decode(patch));
        assertThat(decoded)
                .contains("\"scheduling.k8s.io/group-name\":\"tb-group-qwen-pd\"")
                .contains("/metadata/labels/topobridge.io~1member")
                .contains("\"path\":\"/spec/schedulerName\",\"value\":\"volcano\"");
    }

    @Test
    void theDemoEnforcesHardTopologyAndThePageDrawsItsTree() {
        given().get("/api/status")
                .then()
                .statusCode(200)
                .body("parts.topology.hardTopology", org.hamcrest.Matchers.equalTo("enforced"));
        given().get("/api/findings?source=topology")
                .then()
                .statusCode(200)
                .body("reason", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem("SchedulerConfigMissing")));
        org.jsoup.nodes.Document dom = org.jsoup.Jsoup.parse(io.topobridge.testing.Chromium.dumpDom(
                "http://localhost:" + io.restassured.RestAssured.port + "/topology"));
        assertThat(dom.body().attr("data-state")).isEqualTo("rendered");
        assertThat(dom.select("div.domain")).hasSize(19);
        // the demo has no Volcano to bind pods: every gang is pending, each with its sentence
        assertThat(dom.select("#pending li").eachAttr("data-gang"))
                .containsAll(POD_GROUPS.stream().map(p -> NS + "/" + p).toList());
        assertThat(dom.selectFirst("#pending li[data-gang=" + NS + "/tb-lws-tp-one-partition-0]")
                        .text())
                .contains("needs 36 nvidia.com/gpu within one tier-1 domain (nvlink); 2 of 7 have room");
    }

    @Test
    void everyObjectWrittenIsVolcanoValid() {
        hyperNodes()
                .forEach(h -> assertThat(VolcanoSchemas.hyperNodes().violations(h))
                        .as(h.getMetadata().getName())
                        .isEmpty());
        podGroups()
                .values()
                .forEach(p -> assertThat(VolcanoSchemas.podGroups().violations(p))
                        .as(p.getMetadata().getName())
                        .isEmpty());
    }

    @Test
    void onceConvergedNothingIsWritten() throws InterruptedException {
        var dispatcher = RecordingDispatcher.of(MockApiServer.cluster());
        Thread.sleep(2000);
        dispatcher.clearLog();
        Thread.sleep(3000);
        assertThat(dispatcher.writes("/hypernodes")).isEmpty();
        assertThat(dispatcher.writes("/podgroups")).isEmpty();
    }
}

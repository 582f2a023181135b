package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.restassured.response.Response;
import io.topobridge.core.admission.Rfc6902;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.autotier.AutoTierTranslationTest;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PodGroup webhook over real HTTPS: an AIBrix update that rewrites its PodGroup's spec keeps the bridge's
 * topology fields, LWS's provider PodGroup carries them from its creation, and PodGroups the bridge does not adopt
 * pass unchanged.
 */
class PodGroupMutatorTest {

    private static final String NS = "llm";
    private static final List<HasMetadata> CLUSTER = Fixtures.objects("""
            apiVersion: orchestration.aibrix.ai/v1alpha1
            kind: RoleSet
            metadata:
              name: pd-x7k2p
              namespace: llm
              uid: u1
              annotations: {topobridge.io/highest-tier: "2", topobridge.io/subgroup-highest-tier: "1"}
            spec:
              schedulingStrategy: {volcanoSchedulingStrategy: {minMember: 3}}
              roles:
              - {name: prefill, replicas: 2, template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}}
              - {name: decode, replicas: 1, template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}}
            ---
            apiVersion: orchestration.aibrix.ai/v1alpha1
            kind: RoleSet
            metadata:
              name: pd-auto
              namespace: llm
              uid: u3
              annotations: {topobridge.io/highest-tier: auto}
            spec:
              schedulingStrategy: {volcanoSchedulingStrategy: {minMember: 2}}
              roles:
              - {name: prefill, replicas: 1, template: {spec: {containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "3"}}}]}}}
              - {name: decode, replicas: 1, template: {spec: {containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "3"}}}]}}}
            ---
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata: {name: ds, namespace: llm, uid: u2, annotations: {topobridge.io/highest-tier: "1"}}
            spec:
              replicas: 2
              leaderWorkerTemplate: {size: 2, workerTemplate: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}}
            """);
    private static WebhookFixture fixture;

    @BeforeAll
    static void start() {
        var translator = Fixtures.translator(Fixtures.defaultSettings());
        fixture = new WebhookFixture(List.of(new PodGroupMutator(
                translator,
                new AdmissionWebhook.Context(
                        () -> Fixtures.TIERS,
                        new InMemoryLookup(CLUSTER).withDomains(() -> AutoTierTranslationTest.domains(4)),
                        Reviews.SERIALIZATION,
                        Set.of("kube-system")))));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    private static ObjectNode podGroup(String yaml) {
        return (ObjectNode) Reviews.toJson(Fixtures.object(yaml));
    }

    private static JsonNode admitted(String operation, ObjectNode podGroup) {
        ObjectNode review = Reviews.review(
                operation,
                NS,
                "scheduling.volcano.sh",
                "v1beta1",
                "PodGroup",
                "podgroups",
                podGroup,
                "UPDATE".equals(operation) ? podGroup : null);
        Response response = fixture.request()
                .body(review.toString())
                .post(PodGroupMutator.PATH)
                .then()
                .statusCode(200)
                .body("response.allowed", equalTo(true))
                .extract()
                .response();
        JsonNode patch = Reviews.patch(response);
        return patch == null ? podGroup : Rfc6902.apply(patch, podGroup);
    }

    @Test
    void aibrixRewritingItsPodGroupKeepsTheBridgesTopology() {
        // what AIBrix writes on every RoleSet reconcile: its own spec, without the bridge's fields
        JsonNode after = admitted("UPDATE", podGroup("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: pd-x7k2p, namespace: llm, labels: {roleset-name: pd-x7k2p},
                           ownerReferences: [{apiVersion: orchestration.aibrix.ai/v1alpha1, kind: RoleSet, name: pd-x7k2p,
                                              uid: u1, controller: true}]}
                spec: {minMember: 3, queue: default}
                """));
        assertThat(after.path("spec").path("minMember").asInt())
                .as("AIBrix's fields untouched")
                .isEqualTo(3);
        assertThat(after.path("spec")
                        .path("networkTopology")
                        .path("highestTierAllowed")
                        .asInt())
                .isEqualTo(2);
        assertThat(after.path("spec").path("networkTopology").path("mode").asText())
                .isEqualTo("hard");
        assertThat(after.path("spec").path("subGroupPolicy"))
                .extracting(p -> p.path("name").asText())
                .containsExactly("prefill", "decode");
    }

    @Test
    void anAutoTierIsAddedWithItsExplanation() {
        JsonNode after = admitted("UPDATE", podGroup("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: pd-auto, namespace: llm, labels: {roleset-name: pd-auto},
                           annotations: {aibrix.ai/owner: rs},
                           ownerReferences: [{apiVersion: orchestration.aibrix.ai/v1alpha1, kind: RoleSet, name: pd-auto,
                                              uid: u3, controller: true}]}
                spec: {minMember: 2, queue: default}
                """));
        assertThat(after.path("spec")
                        .path("networkTopology")
                        .path("highestTierAllowed")
                        .asInt())
                .isEqualTo(2);
        assertThat(after.path("metadata")
                        .path("annotations")
                        .path("topobridge.io/chosen-tier")
                        .asText())
                .isEqualTo("2 (rack): 6 GPUs fit in 2 of 2 rack domains; 1 (nvlink) holds at most 4 GPUs");
        assertThat(after.path("metadata")
                        .path("annotations")
                        .path("aibrix.ai/owner")
                        .asText())
                .as("AIBrix's own annotations kept")
                .isEqualTo("rs");
    }

    @Test
    void lwsProviderPodGroupCarriesTheTopologyFromItsCreation() {
        JsonNode after = admitted("CREATE", podGroup("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: ds-1-5d8f, namespace: llm, labels: {leaderworkerset.sigs.k8s.io/name: ds},
                           ownerReferences: [{apiVersion: v1, kind: Pod, name: ds-1, uid: p1, controller: true}]}
                spec: {minMember: 2}
                """));
        assertThat(after.path("spec")
                        .path("networkTopology")
                        .path("highestTierAllowed")
                        .asInt())
                .isEqualTo(1);
        assertThat(after.path("spec").path("minMember").asInt()).isEqualTo(2);
    }

    @Test
    void aPodGroupTheBridgeDoesNotAdoptPassesUnchanged() {
        ObjectNode other = podGroup("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: podgroup-0f3a, namespace: llm}
                spec: {minMember: 1}
                """);
        assertThat(admitted("CREATE", other)).isEqualTo(other);
    }
}

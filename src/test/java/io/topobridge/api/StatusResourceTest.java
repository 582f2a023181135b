package io.topobridge.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.topobridge.testing.MockApiServer;
import io.topobridge.testing.RecordingDispatcher;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/podgroups} and {@code /api/hypernodes} answer from the replica's informer caches: however often they are
 * asked, the API server sees no LIST of PodGroups or HyperNodes beyond the informers' own.
 */
@QuarkusTest
@QuarkusTestResource(MockApiServer.class)
class StatusResourceTest {

    private static final String NS = "status-api";

    @Test
    void podGroupsAndHyperNodesComeFromTheCachesWithoutALivePerRequest() {
        var client = MockApiServer.cluster().client();
        client.namespaces()
                .resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NS)
                        .endMetadata()
                        .build())
                .createOr(r -> r.update());
        client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(NS)
                .resource(podGroup("ours", Map.of("app.kubernetes.io/managed-by", "topobridge")))
                .create();
        client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(NS)
                .resource(podGroup("volcanos", Map.of()))
                .create();
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> given().get("/api/podgroups")
                        .then()
                        .statusCode(200)
                        .body("metadata.name", hasItem("ours"))
                        .body("metadata.name", not(hasItem("volcanos"))));

        RecordingDispatcher api = RecordingDispatcher.of(MockApiServer.cluster());
        int before = lists(api).size();
        for (int i = 0; i < 5; i++) {
            given().get("/api/podgroups").then().statusCode(200).body("metadata.name", hasItem("ours"));
            given().get("/api/hypernodes").then().statusCode(200);
        }
        List<RecordingDispatcher.Request> after = lists(api);
        assertThat(after.subList(before, after.size()))
                .as("LISTs of PodGroups or HyperNodes sent to the API server for 10 requests")
                .isEmpty();
    }

    /**
     * GETs of the PodGroup or HyperNode collections that are not watches. The doctor's periodic GETs of the two CRDs
     * by name ({@code .../customresourcedefinitions/podgroups.scheduling.volcano.sh}) are not LISTs and do not count.
     */
    private static List<RecordingDispatcher.Request> lists(RecordingDispatcher api) {
        return api.requests(r -> r.method().equals("GET")
                && COLLECTION.matcher(r.path()).matches()
                && !r.path().contains("watch=true"));
    }

    private static final Pattern COLLECTION = Pattern.compile(".*/(podgroups|hypernodes)(\\?.*)?");

    private static io.fabric8.kubernetes.api.model.GenericKubernetesResource podGroup(
            String name, Map<String, String> labels) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .withLabels(labels)
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("minMember", 1)))
                .build();
    }
}

package io.topobridge.health;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.topobridge.testing.MockApiServer;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The controller process comes up against an API server that has Volcano but no optional workload CRDs. */
@QuarkusTest
@QuarkusTestResource(MockApiServer.class)
class HealthTest {

    @Test
    void livenessAndReadinessAreUp() {
        given().get("/q/health/live").then().statusCode(200);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> given().get("/q/health/ready")
                        .then()
                        .statusCode(200)
                        .body(
                                "checks.find { it.name == 'topobridge' }.data.'crd.leaderworkersets.leaderworkerset.x-k8s.io'",
                                equalTo("absent"))
                        .body(
                                "checks.find { it.name == 'topobridge' }.data.'crd.podgroups.scheduling.volcano.sh'",
                                equalTo("installed")));
    }

    @Test
    void metricsArePrometheusText() {
        given().get("/q/metrics").then().statusCode(200).body(containsString("jvm_memory_used_bytes"));
    }

    @Test
    void statusApiListsManagedKinds() {
        given().get("/api/status")
                .then()
                .statusCode(200)
                .body("managedKinds", org.hamcrest.Matchers.hasItems("Deployment", "StatefulSet"))
                .body("crds.'stormservices.orchestration.aibrix.ai'", equalTo(false));
    }
}

package io.topobridge.controller.topology;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.topobridge.testing.MockApiServer;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** In the real application the topology controller is started by the lifecycle and reports its state. */
@QuarkusTest
@QuarkusTestResource(MockApiServer.class)
class TopologyStatusTest {

    @Test
    void statusAndFindingsShowTheTopologyController() {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> given().get("/api/status")
                        .then()
                        .statusCode(200)
                        .body("parts.topology.ready", equalTo(true))
                        .body("parts.topology.state", equalTo("running"))
                        .body("parts.topology.config", equalTo("preset auto"))
                        .body("parts.topology.hardTopology", equalTo("config-missing")));
        given().get("/api/findings?source=topology")
                .then()
                .statusCode(200)
                .body("reason", hasItem("SchedulerConfigMissing"));
    }
}

package io.topobridge.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.topobridge.core.diagnosis.Doctor;
import io.topobridge.testing.MockApiServer;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The diagnosis endpoints of the running application, against the mock API server (no Volcano config there). */
@QuarkusTest
@QuarkusTestResource(MockApiServer.class)
class DiagnosisResourceTest {

    /** Every check of the doctor's catalog (DoctorTest pins the catalog itself). */
    private static final List<String> CHECKS =
            Doctor.CHECKS.stream().map(Doctor.Check::name).toList();

    @Test
    void doctorAnswersEveryCheck() {
        given().get("/api/doctor")
                .then()
                .statusCode(200)
                .body("checks.name", hasItems(CHECKS.toArray(String[]::new)))
                .body("checks", hasSize(CHECKS.size()))
                .body("checks.find { it.name == 'scheduler-config' }.status", equalTo("warning"));
        // the mock API server has no Volcano scheduler ConfigMap: a warning, which never makes the replica unready
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> given().get("/q/health/ready")
                        .then()
                        .body("checks.find { it.name == 'topobridge-doctor' }.status", equalTo("UP"))
                        .body("checks.find { it.name == 'topobridge-doctor' }.data.doctor", equalTo("warning"))
                        .body(
                                "checks.find { it.name == 'topobridge-doctor' }.data.'doctor.scheduler-config'",
                                containsString("does not exist")));
    }

    @Test
    void anUnknownGangIsA404NamingIt() {
        given().get("/api/gangs/llm/no-such")
                .then()
                .statusCode(404)
                .body(
                        "message",
                        equalTo("no gang named \"no-such\" in namespace \"llm\": neither a PodGroup the bridge"
                                + " manages nor a workload with one"));
    }

    @Test
    void topologyDataAndPage() {
        given().get("/api/topology")
                .then()
                .statusCode(200)
                .body("roots", hasSize(0))
                .body("pending", hasSize(0));
        given().get("/topology")
                .then()
                .statusCode(200)
                .contentType(containsString("text/html"))
                .body(containsString("fetch(\"/api/topology\""));
        given().get("/api/status").then().statusCode(200);
    }
}

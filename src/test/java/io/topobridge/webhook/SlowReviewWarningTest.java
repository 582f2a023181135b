package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.topobridge.testing.LogLines;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** An answer slower than the server's warning threshold is logged with where its time went; a fast one is not. */
class SlowReviewWarningTest {

    /** Answers CREATE after sleeping the milliseconds the request's namespace names. */
    private static final AdmissionWebhook SLEEPER = WebhookFixture.webhook("sleeper", request -> {
        try {
            Thread.sleep(Long.parseLong(request.namespace().substring("ns-".length())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return AdmissionAnswer.allow("allowed", List.of());
    });

    @Test
    void onlyAnswersSlowerThanTheThresholdAreWarnedOf() {
        LogLines capture = new LogLines(Level.WARNING);
        List<String> warnings = capture.lines();
        var logger = java.util.logging.Logger.getLogger(WebhookServer.class.getName());
        logger.addHandler(capture);
        Vertx vertx = Vertx.vertx();
        var server = WebhookServerBuilder.webhookServer(vertx, List.of(SLEEPER))
                .mapper(Reviews.JSON)
                .warnAfter(Duration.ofSeconds(1))
                .build();
        try {
            int port = server.start("127.0.0.1", 0, WebhookFixture.certificate("slow-ca"));
            // a threshold well above a cold first answer on a loaded machine (200 ms was seen to flake)
            post(port, "ns-0");
            assertThat(warnings).as("a fast answer").isEmpty();
            post(port, "ns-1200");
            // the warning is logged right after the answer is sent: the client may read the answer first
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(warnings).hasSize(1));
            assertThat(warnings.get(0))
                    .contains("sleeper webhook answered")
                    .contains("ns-1200")
                    .containsPattern("in \\d{4,} ms \\(\\d+ ms before its review started, \\d{4,} ms reviewing\\)");
        } finally {
            logger.removeHandler(capture);
            server.stop();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static void post(int port, String namespace) {
        io.restassured.RestAssured.given()
                .relaxedHTTPSValidation()
                .baseUri("https://127.0.0.1")
                .port(port)
                .contentType(ContentType.JSON)
                .body(Reviews.podCreate(
                                namespace, Reviews.JSON.createObjectNode().put("kind", "Pod"))
                        .toString())
                .post("/sleeper")
                .then()
                .statusCode(200);
    }
}

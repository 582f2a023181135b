package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.restassured.response.ValidatableResponse;
import io.topobridge.tls.ServingCertificate;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The HTTPS webhook server: answers every review it can, never crashes, and reloads its certificate live. */
class WebhookServerTest {

    /** A webhook that answers by the request's operation, to drive each server path. */
    private static final AdmissionWebhook PROBE =
            WebhookFixture.webhook("probe", request -> switch (request.operation()) {
                case "CREATE" -> AdmissionAnswer.allow("allowed", List.of());
                case "DELETE" -> throw new IllegalStateException("informer cache not synced");
                case "CONNECT" -> throw new AdmissionRequest.MalformedException("request.object is missing");
                default -> AdmissionAnswer.deny("topobridge.io/mode=sideways is not hard or soft", List.of("w"));
            });

    @AutoClose
    private static final WebhookFixture fixture = new WebhookFixture(List.of(PROBE));

    private ObjectNode review(String operation) {
        return Reviews.deployment(
                operation, "ml", Reviews.JSON.createObjectNode().put("kind", "Deployment"), null);
    }

    /** Posts {@code review} to the probe webhook; the answer is a 200. */
    private static ValidatableResponse probe(ObjectNode review) {
        return probe(fixture, review);
    }

    private static ValidatableResponse probe(WebhookFixture server, ObjectNode review) {
        return server.request().body(review.toString()).post("/probe").then().statusCode(200);
    }

    @Test
    void answersEchoTheUidAndTheApiVersion() {
        ObjectNode review = review("CREATE");
        double before = fixture.count("probe", "allowed");
        probe(review)
                .body("apiVersion", equalTo("admission.k8s.io/v1"))
                .body("kind", equalTo("AdmissionReview"))
                .body("response.uid", equalTo(Reviews.uid(review)))
                .body("response.allowed", equalTo(true))
                .body("response.patch", nullValue());
        assertThat(fixture.count("probe", "allowed")).isEqualTo(before + 1);
    }

    @Test
    void aWarmUpSendsEachReviewThroughTheServerItself() throws Exception {
        double before = fixture.count("probe", "allowed");
        byte[] body = Reviews.JSON.writeValueAsBytes(review("CREATE"));
        var answers =
                fixture.server.warmUp("0.0.0.0", java.util.Map.of("/probe", body), java.time.Duration.ofSeconds(10));
        assertThat(answers).containsOnlyKeys("/probe");
        assertThat(answers.get("/probe")).isNotNegative();
        assertThat(fixture.count("probe", "allowed")).isEqualTo(before + 1);
        // a path nothing serves answers 404: reported as a failed answer, not thrown
        assertThat(fixture.server.warmUp(
                        "127.0.0.1", java.util.Map.of("/nowhere", body), java.time.Duration.ofSeconds(10)))
                .containsEntry("/nowhere", -1L);
    }

    @Test
    void denialsCarryCodeMessageAndWarnings() {
        ObjectNode review = review("UPDATE");
        double before = fixture.count("probe", "denied");
        probe(review)
                .body("response.uid", equalTo(Reviews.uid(review)))
                .body("response.allowed", equalTo(false))
                .body("response.status.code", equalTo(422))
                .body("response.status.message", equalTo("topobridge.io/mode=sideways is not hard or soft"))
                .body("response.warnings", hasItem("w"));
        assertThat(fixture.count("probe", "denied")).isEqualTo(before + 1);
    }

    @Test
    void aFailureInsideTheBridgeAllowsTheRequestWithAWarning() {
        ObjectNode review = review("DELETE");
        double before = fixture.count("probe", "error");
        probe(review)
                .body("response.uid", equalTo(Reviews.uid(review)))
                .body("response.allowed", equalTo(true))
                .body("response.warnings[0]", containsString("informer cache not synced"));
        assertThat(fixture.count("probe", "error")).isEqualTo(before + 1);
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("not JSON", "{\"apiVersion\": ", "the body is not JSON"),
                Arguments.of("empty body", "", "the body is not a JSON object"),
                Arguments.of("a JSON array", "[1,2]", "the body is not a JSON object"),
                Arguments.of(
                        "another kind",
                        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"Pod\"}",
                        "kind is \"Pod\", expected AdmissionReview"),
                Arguments.of(
                        "v1beta1 review",
                        "{\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}",
                        "only admission.k8s.io/v1 is served"),
                Arguments.of(
                        "no request",
                        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}",
                        "request is missing"),
                Arguments.of(
                        "no uid",
                        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"operation\":\"CREATE\"}}",
                        "request.uid is missing"),
                Arguments.of(
                        "no operation",
                        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}",
                        "request.operation is missing"),
                Arguments.of(
                        "object not an object",
                        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\",\"operation\":\"CREATE\",\"object\":3}}",
                        "request.object is not an object"),
                Arguments.of(
                        "the webhook finds what it needs missing",
                        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\",\"operation\":\"CONNECT\"}}",
                        "request.object is missing"),
                Arguments.of("a JSON array, however deep", "[".repeat(5000) + "]".repeat(5000), "not a JSON object"),
                Arguments.of("two objects", "{}{}", "the body holds more after the AdmissionReview object"),
                Arguments.of("an object cut short", "{\"apiVersion\": {", "the body is not JSON"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedReviewsGet400WithTheReason(String name, String body, String reason) {
        double before = fixture.count("probe", "malformed");
        fixture.request()
                .body(body)
                .post("/probe")
                .then()
                .statusCode(400)
                .body("kind", equalTo("Status"))
                .body("code", equalTo(400))
                .body("message", containsString("malformed AdmissionReview"))
                .body("message", containsString(reason));
        assertThat(fixture.count("probe", "malformed")).isEqualTo(before + 1);
        // and the server keeps answering
        probe(review("CREATE"));
    }

    @Test
    void oversizedBodiesAreRefusedAndOtherPathsAreNotServed() {
        fixture.request()
                .body("x".repeat((int) WebhookServerBuilder.DEFAULT_LIMITS.maxBodyBytes() + 10))
                .post("/probe")
                .then()
                .statusCode(413)
                .body("message", containsString("over topobridge.admission.limits.max-body-size=3Mi"));
        fixture.request().get("/probe").then().statusCode(405);
        fixture.request().body("{}").post("/elsewhere").then().statusCode(404);
        probe(review("CREATE"));
    }

    @Test
    void aRenewedCertificateIsServedOnTheNextConnectionWithoutRestart() throws Exception {
        try (var own = new WebhookFixture(List.of(PROBE))) {
            ServingCertificate first = own.server.serving();
            assertThat(presented(trusting(first), own.port)).isEqualTo(first.certificate());

            ServingCertificate renewed = WebhookFixture.certificate("renewed-ca");
            own.server.updateCertificate(renewed);
            assertThat(own.server.port()).isEqualTo(own.port);
            assertThat(presented(trusting(renewed), own.port)).isEqualTo(renewed.certificate());
            assertThatThrownBy(() -> presented(trusting(first), own.port)).isInstanceOf(SSLHandshakeException.class);
            probe(own, review("CREATE"));
        }
    }

    /** An SSL context that trusts only the CA bundle of {@code certificate}, as the API server does with caBundle. */
    static SSLContext trusting(ServingCertificate certificate) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        int i = 0;
        for (X509Certificate ca : certificate.caCertificates()) {
            trust.setCertificateEntry("ca" + i++, ca);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    /** The certificate the server on {@code port} presents on a fresh TLS connection. */
    static X509Certificate presented(SSLContext context, int port) throws Exception {
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    /**
     * A replica being replaced: while it drains, each call is still answered and its connection closed (the API
     * server's next call goes to another replica); the port closes once calls have stopped coming for the quiet
     * time, long before the limit.
     */
    @Test
    void aStoppingServerAnswersUntilCallsStopAndClosesEachConnectionAfterItsAnswer() throws Exception {
        try (WebhookFixture stopping = new WebhookFixture(List.of(PROBE))) {
            long start = System.nanoTime();
            var stopped = java.util.concurrent.CompletableFuture.runAsync(
                    () -> stopping.server.stop(java.time.Duration.ofMillis(800), java.time.Duration.ofSeconds(30)));
            while (!stopping.server.draining()) {
                Thread.sleep(5);
            }
            for (int i = 0; i < 3; i++) {
                stopping.request()
                        .body(review("CREATE").toString())
                        .post("/probe")
                        .then()
                        .statusCode(200)
                        .header("Connection", "close")
                        .body("response.allowed", equalTo(true));
                Thread.sleep(300);
            }
            assertThat(stopped.isDone()).as("stopped while calls still came").isFalse();
            stopped.get(30, java.util.concurrent.TimeUnit.SECONDS);
            long took = (System.nanoTime() - start) / 1_000_000;
            assertThat(took).as("ms the stop took").isBetween(2 * 300 + 800L, 29_000L);
            assertThat(stopping.server.running()).isFalse();
            assertThatThrownBy(() -> new java.net.Socket("127.0.0.1", stopping.port).close())
                    .isInstanceOf(java.net.ConnectException.class);

            // started again, it answers as a fresh server: its connections are kept alive, not closed
            int again = stopping.server.start("127.0.0.1", 0, WebhookFixture.certificate("fixture-ca"));
            assertThat(stopping.server.draining()).isFalse();
            String connection = io.restassured.RestAssured.given()
                    .relaxedHTTPSValidation()
                    .baseUri("https://127.0.0.1:" + again)
                    .contentType(io.restassured.http.ContentType.JSON)
                    .body(review("CREATE").toString())
                    .post("/probe")
                    .then()
                    .statusCode(200)
                    .extract()
                    .header("Connection");
            assertThat(connection).isNotEqualToIgnoringCase("close");
            stopping.server.stop();
        }
    }
}

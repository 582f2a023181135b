package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.topobridge.testing.TrustAll;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The webhook port refuses what no API server sends before it costs memory: bodies over the size limit, JSON nested
 * or wide beyond the parse limits (refused by a streaming pass, without building a tree), and requests beyond the
 * number in flight (answered 429 at once, so the API server applies the failure policy).
 */
class WebhookLimitsTest {

    private static final AdmissionWebhook ALLOW =
            WebhookFixture.webhook("allow", request -> AdmissionAnswer.allow("allowed", List.of()));

    @AutoClose
    private static final WebhookFixture fixture = new WebhookFixture(List.of(ALLOW));

    /** A review whose object holds {@code inner} under {@code "data"}: the shape of the request is valid. */
    static String reviewAround(String inner) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u1\","
                + "\"operation\":\"CREATE\",\"namespace\":\"ml\",\"kind\":{\"group\":\"\",\"version\":\"v1\","
                + "\"kind\":\"Pod\"},\"object\":{\"kind\":\"Pod\",\"data\":" + inner + "}}}";
    }

    /** About {@code bytes} of {@code [{},{},…]}: the cheapest bytes for the largest tree. */
    static String wide(int bytes) {
        StringBuilder out = new StringBuilder(bytes + 8).append('[');
        while (out.length() < bytes) {
            out.append("{},");
        }
        out.setLength(out.length() - 1);
        return out.append(']').toString();
    }

    /** Posts {@code body} to {@code server}: refused with {@code code}, in a Status naming {@code limit}. */
    private static void refused(WebhookFixture server, String body, int code, String limit) {
        server.request()
                .body(body)
                .post("/allow")
                .then()
                .statusCode(code)
                .body("kind", equalTo("Status"))
                .body("code", equalTo(code))
                .body("message", containsString(limit));
    }

    static String deep(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    @Test
    void aWideBodyUnderTheSizeLimitIsRefusedNamingTheTokenLimit() {
        refused(fixture, reviewAround(wide(2_500_000)), 413, "max-json-tokens");
        answersANormalReview();
    }

    @Test
    void aDeeplyNestedObjectIsRefusedNamingTheDepthLimit() {
        fixture.request()
                .body(reviewAround(deep(400)))
                .post("/allow")
                .then()
                .statusCode(413)
                .body("message", containsString("max-json-depth"));
        answersANormalReview();
    }

    @Test
    void aRefusedBodyIsNotBuiltIntoATree() {
        byte[] body = reviewAround(wide(2_500_000)).getBytes(StandardCharsets.UTF_8);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        // warm up the parser classes, so the figure is the request's own
        for (int i = 0; i < 3; i++) {
            parseQuietly(body);
        }
        long before = threads.getThreadAllocatedBytes(id);
        parseQuietly(body);
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        System.out.printf(
                "refusing a %d-byte [{},{},...] review allocated %d bytes on the parsing thread%n",
                body.length, allocated);
        assertThat(allocated).as("bytes allocated to refuse one wide body").isLessThan(body.length / 4);
    }

    private static void parseQuietly(byte[] body) {
        try {
            Reviews.parse(body);
        } catch (AdmissionRequest.LimitException | AdmissionRequest.MalformedException e) {
            // refused: what is measured is the cost of finding out
        }
    }

    @Test
    void beyondTheRequestsInFlightTheServerAnswers429AtOnce() throws Exception {
        var limits = new AdmissionLimits(3 << 20, 100, 200_000, 8, 64 << 20);
        try (var own = new WebhookFixture(List.of(ALLOW), limits, java.time.Duration.ofSeconds(60))) {
            List<Socket> held = new ArrayList<>();
            try {
                // each sends its headers and half its body, then waits: a slow client holds its place
                for (int i = 0; i < 8; i++) {
                    held.add(startSlowRequest(own.port, 2048));
                }
                awaitInFlight(own, 8);
                refused(own, reviewAround("{}"), 429, "max-concurrent-reviews");
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
            // closed connections give their places back
            awaitInFlight(own, 0);
            own.request().body(reviewAround("{}")).post("/allow").then().statusCode(200);
        }
    }

    @Test
    void bigBodiesInFlightLeaveRoomForNormalReviewsAndTheNextBigOneIsAnswered429() throws Exception {
        // 2 MiB in flight: thirty-four 60 KiB bodies leave 8 KiB
        var limits = new AdmissionLimits(64 * 1024, 100, 10_000, 64, 2 << 20);
        try (var own = new WebhookFixture(List.of(ALLOW), limits, java.time.Duration.ofSeconds(30))) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 34; i++) {
                    held.add(startSlowRequest(own.port, 60 * 1024));
                }
                awaitInFlight(own, 34);
                own.request()
                        .body(reviewAround("\"" + "x".repeat(60 * 1024) + "\""))
                        .post("/allow")
                        .then()
                        .statusCode(429)
                        .body("message", containsString("max-in-flight-bytes=2Mi"));
                own.request()
                        .body(reviewAround("{}"))
                        .post("/allow")
                        .then()
                        .statusCode(200)
                        .body("response.allowed", equalTo(true));
                assertThat(own.refusals("max-in-flight-bytes")).isEqualTo(1);
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aClientTooSlowToSendItsBodyIsAnswered408AndGivesUpItsPlace() throws Exception {
        var limits = new AdmissionLimits(64 * 1024, 100, 10_000, 1, 2 << 20);
        try (var own = new WebhookFixture(List.of(ALLOW), limits, java.time.Duration.ofMillis(800))) {
            try (Socket slow = startSlowRequest(own.port, 2048)) {
                awaitInFlight(own, 1);
                own.request().body(reviewAround("{}")).post("/allow").then().statusCode(429);
                String answer = new String(slow.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(answer).startsWith("HTTP/1.1 408").contains("within 800 ms");
            }
            own.request().body(reviewAround("{}")).post("/allow").then().statusCode(200);
            assertThat(own.refusals("deadline")).isEqualTo(1);
            assertThat(own.refusals("max-concurrent-reviews")).isEqualTo(1);
        }
    }

    /** Waits until the server holds {@code count} requests (the slow clients' headers have arrived). */
    private static void awaitInFlight(WebhookFixture own, int count) {
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(10))
                .until(() -> own.meters
                                .get("topobridge.admission.in.flight.reviews")
                                .gauge()
                                .value()
                        == count);
    }

    static void answersANormalReview() {
        fixture.request()
                .body(Reviews.podCreate("ml", Reviews.JSON.createObjectNode().put("kind", "Pod"))
                        .toString())
                .post("/allow")
                .then()
                .statusCode(200)
                .body("response.allowed", equalTo(true));
    }

    /** A TLS connection that sent a POST's headers (Content-Length {@code length}) and half of its body. */
    static Socket startSlowRequest(int port, int length) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustAll()}, null);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
        socket.startHandshake();
        OutputStream out = socket.getOutputStream();
        out.write(("POST /allow HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                        + length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(" ".repeat(length / 2).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }
}

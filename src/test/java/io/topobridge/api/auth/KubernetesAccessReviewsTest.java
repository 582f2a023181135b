package io.topobridge.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reviews as the API server receives them: a small HTTP fake of its {@code tokenreviews} and
 * {@code subjectaccessreviews} endpoints checks what the bridge sends and answers as the API server does.
 */
class KubernetesAccessReviewsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpServer server;
    private KubernetesClient client;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private volatile int forbidReviews;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/apis/authentication.k8s.io/v1/tokenreviews", this::tokenReview);
        server.createContext("/apis/authorization.k8s.io/v1/subjectaccessreviews", this::accessReview);
        server.start();
        client = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
    }

    @AfterEach
    void stop() {
        client.close();
        server.stop(0);
    }

    private void tokenReview(HttpExchange exchange) throws IOException {
        JsonNode review = read(exchange);
        if (forbidReviews > 0) {
            answer(exchange, 403, forbidden("tokenreviews.authentication.k8s.io"));
            return;
        }
        ObjectNode status = ((ObjectNode) review).putObject("status");
        if ("good".equals(review.path("spec").path("token").asText())) {
            status.put("authenticated", true);
            ObjectNode user = status.putObject("user")
                    .put("username", "system:serviceaccount:monitoring:prometheus")
                    .put("uid", "u-1");
            user.putArray("groups").add("system:serviceaccounts").add("system:authenticated");
            user.putObject("extra")
                    .putArray("authentication.kubernetes.io/pod-name")
                    .add("prometheus-0");
        } else {
            status.put("authenticated", false).put("error", "invalid bearer token");
        }
        answer(exchange, 201, review);
    }

    private void accessReview(HttpExchange exchange) throws IOException {
        JsonNode review = read(exchange);
        JsonNode spec = review.path("spec");
        boolean allowed = spec.path("user").asText().equals("system:serviceaccount:monitoring:prometheus")
                && spec.path("nonResourceAttributes").path("path").asText().equals("/topobridge/q/metrics")
                && spec.path("nonResourceAttributes").path("verb").asText().equals("get");
        ((ObjectNode) review)
                .putObject("status")
                .put("allowed", allowed)
                .put("reason", allowed ? "RBAC: allowed by ClusterRoleBinding \"tb-metrics-reader\"" : "");
        answer(exchange, 201, review);
    }

    private JsonNode read(HttpExchange exchange) throws IOException {
        JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
        received.add(body);
        return body;
    }

    private static void answer(HttpExchange exchange, int code, JsonNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static JsonNode forbidden(String resource) {
        return JSON.createObjectNode()
                .put("apiVersion", "v1")
                .put("kind", "Status")
                .put("status", "Failure")
                .put("reason", "Forbidden")
                .put("code", 403)
                .put(
                        "message",
                        resource + " is forbidden: User \"system:serviceaccount:ops:tb\" cannot create "
                                + "resource \"tokenreviews\"");
    }

    @Test
    void aTokenIsReviewedAndItsUserAuthorizedOnTheNonResourceUrl() {
        var reviews = new KubernetesAccessReviews(client);
        var authentication = reviews.authenticate("good");
        assertThat(authentication.authenticated()).isTrue();
        var user = authentication.user();
        assertThat(user.name()).isEqualTo("system:serviceaccount:monitoring:prometheus");
        assertThat(user.groups()).containsExactly("system:serviceaccounts", "system:authenticated");
        assertThat(user.extra()).containsEntry("authentication.kubernetes.io/pod-name", List.of("prometheus-0"));

        var allowed = reviews.authorize(user, "/topobridge/q/metrics", "get");
        assertThat(allowed.allowed()).isTrue();
        assertThat(allowed.reason()).contains("tb-metrics-reader");
        assertThat(reviews.authorize(user, "/topobridge/api/podgroups", "get").allowed())
                .isFalse();

        JsonNode tokenReview = received.get(0);
        assertThat(tokenReview.path("apiVersion").asText()).isEqualTo("authentication.k8s.io/v1");
        assertThat(tokenReview.path("kind").asText()).isEqualTo("TokenReview");
        assertThat(tokenReview.path("spec").path("token").asText()).isEqualTo("good");
        assertThat(tokenReview.path("spec").has("audiences"))
                .as("no audiences: the API server's own")
                .isFalse();
        JsonNode accessReview = received.get(1);
        assertThat(accessReview.path("apiVersion").asText()).isEqualTo("authorization.k8s.io/v1");
        assertThat(accessReview.path("spec").path("uid").asText()).isEqualTo("u-1");
        assertThat(accessReview.path("spec").path("groups").toString()).contains("system:serviceaccounts");
        assertThat(accessReview.path("spec").path("extra").toString()).contains("prometheus-0");
        assertThat(accessReview.path("spec").has("resourceAttributes")).isFalse();
        assertThat(JSON.convertValue(accessReview.path("spec").path("nonResourceAttributes"), Map.class))
                .isEqualTo(Map.of("path", "/topobridge/q/metrics", "verb", "get"));
    }

    @Test
    void aTokenTheApiServerRejectsCarriesItsError() {
        var authentication = new KubernetesAccessReviews(client).authenticate("stolen");
        assertThat(authentication.authenticated()).isFalse();
        assertThat(authentication.error()).isEqualTo("invalid bearer token");
    }

    @Test
    void aBridgeWithoutTheRightToReviewSaysSo() {
        forbidReviews = 1;
        assertThatThrownBy(() -> new KubernetesAccessReviews(client).authenticate("good"))
                .isInstanceOf(AccessReviews.UnavailableException.class)
                .hasMessageContaining("TokenReview failed: HTTP 403")
                .hasMessageContaining("cannot create resource \\\"tokenreviews\\\"".replace("\\", ""));
    }
}

package io.topobridge.webhook;

import static io.restassured.RestAssured.given;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.topobridge.tls.Certificates;
import io.topobridge.tls.ServingCertificate;
import io.topobridge.tls.TlsSettings;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/** A real HTTPS webhook server on a free loopback port, for tests outside Quarkus. */
final class WebhookFixture implements AutoCloseable {

    final Vertx vertx = Vertx.vertx();
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final WebhookServer server;
    final int port;

    /** A webhook at {@code /<name>} that answers with {@code review}. */
    static AdmissionWebhook webhook(String name, Function<AdmissionRequest, AdmissionAnswer> review) {
        return new AdmissionWebhook(name, "/" + name, null) {
            @Override
            public AdmissionAnswer review(AdmissionRequest request) {
                return review.apply(request);
            }
        };
    }

    WebhookFixture(List<AdmissionWebhook> webhooks) {
        this(webhooks, WebhookServerBuilder.DEFAULT_LIMITS, Duration.ofSeconds(11));
    }

    /** A server with its own limits and request deadline. */
    WebhookFixture(List<AdmissionWebhook> webhooks, AdmissionLimits limits, Duration deadline) {
        server = WebhookServerBuilder.webhookServer(vertx, webhooks)
                .mapper(Reviews.JSON)
                .meters(meters)
                .limits(limits)
                .deadline(deadline)
                .build();
        port = server.start("127.0.0.1", 0, certificate("fixture-ca"));
    }

    /** How many requests the server refused because of {@code limit}. */
    double refusals(String limit) {
        return meters.find("topobridge.admission.refusals").tag("limit", limit).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    static ServingCertificate certificate(String caName) {
        Instant now = Instant.now();
        var ca = Certificates.newCa(caName, now, Duration.ofDays(10));
        var serving =
                Certificates.issueServing(ca, TlsSettings.serviceDnsNames("hook", "ops"), now, Duration.ofDays(5));
        return new ServingCertificate(serving.certificate(), serving.key(), List.of(ca.certificate()), ca.key());
    }

    RequestSpecification request() {
        return given().relaxedHTTPSValidation()
                .baseUri("https://127.0.0.1")
                .port(port)
                .contentType(ContentType.JSON);
    }

    double count(String webhook, String result) {
        var timer = meters.find("topobridge.admission.reviews")
                .tag("webhook", webhook)
                .tag("result", result)
                .timer();
        return timer == null ? 0 : timer.count();
    }

    @Override
    public void close() {
        server.stop();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }
}

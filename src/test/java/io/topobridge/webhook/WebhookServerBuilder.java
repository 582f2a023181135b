package io.topobridge.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;

/** A webhook server for tests, with defaults each test may change. */
public final class WebhookServerBuilder {

    /** The defaults of {@code topobridge.admission.limits.*}. */
    public static final AdmissionLimits DEFAULT_LIMITS = new AdmissionLimits(3L << 20, 100, 200_000, 64, 64L << 20);

    private final Vertx vertx;
    private final List<AdmissionWebhook> webhooks;
    private ObjectMapper mapper = new ObjectMapper();
    private MeterRegistry meters = new SimpleMeterRegistry();
    // answers slower than one second are warned of (the API server's default wait is 10 s, the bridge's 3 s)
    private Duration warnAfter = Duration.ofSeconds(1);
    private AdmissionLimits limits = DEFAULT_LIMITS;
    // the API server's longest default wait and a second
    private Duration deadline = Duration.ofSeconds(11);

    private WebhookServerBuilder(Vertx vertx, List<? extends AdmissionWebhook> webhooks) {
        this.vertx = vertx;
        this.webhooks = List.copyOf(webhooks);
    }

    /** A server of {@code webhooks} on {@code vertx}. */
    public static WebhookServerBuilder webhookServer(Vertx vertx, List<? extends AdmissionWebhook> webhooks) {
        return new WebhookServerBuilder(vertx, webhooks);
    }

    public WebhookServerBuilder mapper(ObjectMapper mapper) {
        this.mapper = mapper;
        return this;
    }

    public WebhookServerBuilder meters(MeterRegistry meters) {
        this.meters = meters;
        return this;
    }

    public WebhookServerBuilder warnAfter(Duration warnAfter) {
        this.warnAfter = warnAfter;
        return this;
    }

    public WebhookServerBuilder limits(AdmissionLimits limits) {
        this.limits = limits;
        return this;
    }

    public WebhookServerBuilder deadline(Duration deadline) {
        this.deadline = deadline;
        return this;
    }

    public WebhookServer build() {
        return new WebhookServer(vertx, mapper, meters, webhooks, warnAfter, limits, deadline);
    }
}

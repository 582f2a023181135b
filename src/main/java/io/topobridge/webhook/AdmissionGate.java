package io.topobridge.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.finding.UserText;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * What the webhook port lets in, by {@link AdmissionLimits}: a request declaring a body over the size limit is
 * refused from its headers (413); a request beyond the number in flight, or whose body would not fit in the bytes in
 * flight, is answered 429 at once without reading its body, so the API server applies the failure policy rather than
 * this process queueing memory; and a request not answered within its deadline is answered 408 and its connection
 * closed, so slow clients cannot hold their places. Refusals are counted in
 * {@code topobridge_admission_refusals_total{webhook,limit}}; {@code topobridge_admission_in_flight_reviews} and
 * {@code topobridge_admission_in_flight_bytes} show what is held.
 */
public final class AdmissionGate {

    // the webhook server's parts log as the server, as they did when they were one class
    private static final Logger LOG = Logger.getLogger(WebhookServer.class);

    static final String JSON = "application/json";
    /** Routing-context key: the {@link Ticket} of a request let in. */
    static final String TICKET = "topobridge.ticket";
    /** How long the rest of a refused request's body is read and dropped before its connection is closed. */
    static final long LINGER_MILLIS = 2000;

    private final Vertx vertx;
    private final ObjectMapper mapper;
    private final MeterRegistry meters;
    private final AdmissionLimits limits;
    private final long deadlineMillis;
    private final Map<String, Counter> refusals = new ConcurrentHashMap<>();
    private final AtomicInteger reviewsInFlight = new AtomicInteger();
    private final AtomicLong bytesInFlight = new AtomicLong();

    AdmissionGate(Vertx vertx, ObjectMapper mapper, MeterRegistry meters, AdmissionLimits limits, Duration deadline) {
        this.vertx = vertx;
        this.mapper = mapper;
        this.meters = meters;
        this.limits = limits;
        this.deadlineMillis = Math.max(1, deadline.toMillis());
        Gauge.builder("topobridge.admission.in.flight.reviews", reviewsInFlight, AtomicInteger::get)
                .description("Admission requests let in and not yet answered")
                .register(meters);
        Gauge.builder("topobridge.admission.in.flight.bytes", bytesInFlight, AtomicLong::get)
                .description("Bytes reserved by admission requests in flight (bodies and estimated trees)")
                .baseUnit("bytes")
                .register(meters);
    }

    AdmissionLimits limits() {
        return limits;
    }

    /** Why {@code what} is refused 429: it does not fit in the bytes in flight. */
    String doesNotFit(String what) {
        return "the admission requests in flight hold " + AdmissionLimits.formatSize(bytesInFlight.get()) + " and "
                + what + " does not fit in " + AdmissionLimits.MAX_IN_FLIGHT_BYTES + "="
                + AdmissionLimits.formatSize(limits.maxInFlightBytes());
    }

    /** Refuses a request from its headers, or lets it in holding a {@link Ticket} until it is answered. */
    void admit(AdmissionWebhook webhook, RoutingContext ctx) {
        long declared = contentLength(ctx);
        if (declared > limits.maxBodyBytes()) {
            refuse(
                    webhook.name(),
                    "max-body-size",
                    ctx,
                    413,
                    "RequestEntityTooLarge",
                    "the request body has " + declared + " bytes, over " + AdmissionLimits.MAX_BODY_SIZE + "="
                            + AdmissionLimits.formatSize(limits.maxBodyBytes()));
            return;
        }
        if (reviewsInFlight.incrementAndGet() > limits.maxConcurrentReviews()) {
            reviewsInFlight.decrementAndGet();
            refuse(
                    webhook.name(),
                    "max-concurrent-reviews",
                    ctx,
                    429,
                    "TooManyRequests",
                    "topobridge is answering " + limits.maxConcurrentReviews() + " admission requests already ("
                            + AdmissionLimits.MAX_CONCURRENT_REVIEWS + "); the API server applies the webhook's "
                            + "failurePolicy");
            return;
        }
        // a body sent in chunks declares no length: it may take up to the limit
        long body = declared >= 0 ? declared : limits.maxBodyBytes();
        if (!reserve(body)) {
            reviewsInFlight.decrementAndGet();
            refuse(
                    webhook.name(),
                    "max-in-flight-bytes",
                    ctx,
                    429,
                    "TooManyRequests",
                    doesNotFit("this one's body " + AdmissionLimits.formatSize(body)));
            return;
        }
        Ticket ticket = new Ticket(body);
        ctx.put(TICKET, ticket);
        long timer = vertx.setTimer(deadlineMillis, id -> {
            if (!ctx.response().ended() && !ctx.response().closed()) {
                refuse(
                        webhook.name(),
                        "deadline",
                        ctx,
                        408,
                        "Timeout",
                        "the request was not received and answered within " + deadlineMillis + " ms (the webhook's "
                                + "timeout and a second): the API server no longer waits for it");
            }
        });
        ctx.addEndHandler(done -> {
            vertx.cancelTimer(timer);
            ticket.requestDone();
        });
        ctx.next();
    }

    private static long contentLength(RoutingContext ctx) {
        String header = ctx.request().getHeader("Content-Length");
        if (header == null) {
            return -1;
        }
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private boolean reserve(long bytes) {
        long max = limits.maxInFlightBytes();
        return bytesInFlight.getAndUpdate(now -> now + bytes > max ? now : now + bytes) + bytes <= max;
    }

    /**
     * What a request let in holds (its place among the reviews in flight and its reserved bytes) until both its answer
     * is sent (or its connection closed) and its review is done with its body and tree.
     */
    final class Ticket {
        private final AtomicInteger holders = new AtomicInteger(1);
        private final AtomicBoolean requestDone = new AtomicBoolean();
        private final AtomicLong reserved;

        Ticket(long reserved) {
            this.reserved = new AtomicLong(reserved);
        }

        /** A review takes the request; false when it was answered (its deadline) before. */
        boolean enter() {
            return holders.getAndUpdate(now -> now == 0 ? 0 : now + 1) != 0;
        }

        boolean reserve(long bytes) {
            if (!AdmissionGate.this.reserve(bytes)) {
                return false;
            }
            reserved.addAndGet(bytes);
            return true;
        }

        void leave() {
            if (holders.decrementAndGet() == 0) {
                reviewsInFlight.decrementAndGet();
                bytesInFlight.addAndGet(-reserved.getAndSet(0));
            }
        }

        void requestDone() {
            if (requestDone.compareAndSet(false, true)) {
                leave();
            }
        }
    }

    /**
     * Answers {@code code} with a Status and closes the connection. A body not yet received is never kept: what still
     * arrives is read and dropped for at most {@link #LINGER_MILLIS} (so the client reads the answer rather than a
     * reset connection), then the connection is closed.
     */
    private void refuse(String webhook, String limit, RoutingContext ctx, int code, String reason, String message) {
        refusal(webhook, limit);
        LOG.warnf("%s webhook: refused a request from %s with %d: %s", webhook, peer(ctx), code, message);
        close(ctx, code, reason, message, true);
    }

    /** Answers {@code code} with a Status and {@code Connection: close}, lingering over the rest of the body if asked. */
    private void close(RoutingContext ctx, int code, String reason, String message, boolean linger) {
        var response = ctx.response();
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(code)
                .putHeader("Content-Type", JSON)
                .putHeader("Connection", "close")
                .end(Buffer.buffer(status(mapper, code, reason, message)));
        if (linger) {
            lingerAndClose(ctx);
        }
    }

    private void lingerAndClose(RoutingContext ctx) {
        var request = ctx.request();
        var connection = request.connection();
        if (request.isEnded()) {
            connection.close();
            return;
        }
        long timer = vertx.setTimer(LINGER_MILLIS, id -> connection.close());
        request.handler(dropped -> {});
        request.endHandler(done -> {
            vertx.cancelTimer(timer);
            connection.close();
        });
        request.resume();
    }

    void refusal(String webhook, String limit) {
        refusals.computeIfAbsent(
                        webhook + "|" + limit,
                        k -> Counter.builder("topobridge.admission.refusals")
                                .description("Admission requests refused before review, by webhook and limit")
                                .tag("webhook", webhook)
                                .tag("limit", limit)
                                .register(meters))
                .increment();
    }

    static String peer(RoutingContext ctx) {
        var address = ctx.request().connection().remoteAddress();
        return address == null ? "an unknown address" : address.hostAddress();
    }

    /** Requests the router refused before any webhook saw them (a body over the limit sent without a length). */
    void failed(RoutingContext ctx) {
        int code = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
        String message = code == 413
                ? "the request body exceeds " + AdmissionLimits.MAX_BODY_SIZE + "="
                        + AdmissionLimits.formatSize(limits.maxBodyBytes())
                : ctx.failure() != null ? UserText.excerpt(String.valueOf(ctx.failure())) : "request refused";
        if (code >= 500) {
            LOG.errorf(
                    ctx.failure(),
                    "webhook server: %s %s failed",
                    ctx.request().method(),
                    ctx.request().path());
        } else {
            LOG.warnf(
                    "webhook server: %s %s from %s refused with %d: %s",
                    ctx.request().method(), ctx.request().path(), peer(ctx), code, message);
        }
        close(ctx, code, code == 413 ? "RequestEntityTooLarge" : "BadRequest", message, code == 413);
    }

    /** A Kubernetes Status of failure, the body of every answer that is not a review (and of every refused request). */
    public static byte[] status(ObjectMapper mapper, int code, String reason, String message) {
        var node = mapper.createObjectNode()
                .put("apiVersion", "v1")
                .put("kind", "Status")
                .put("status", "Failure")
                .put("code", code)
                .put("reason", reason)
                .put("message", message);
        try {
            return mapper.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            return ("{\"message\":\"" + reason + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}

package io.topobridge.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.topobridge.core.finding.UserText;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * One admission request, from its received body to its answer, on the event loop: a review that must read the API
 * server (a cache miss, {@link ReadThrough}) is run again on a worker thread, where it may wait. A hop to a worker
 * for every review put a scheduling delay in the tail of the answers (p99 3.9 ms through a worker, 1.4 ms on the event
 * loop, on an idle 2-core machine); a miss is rare once the caches have synced. The body is scanned as a stream
 * before any tree is built (one too deep or with too many tokens is refused, 413; a tree that would not fit in the
 * bytes in flight, 429), parsed and handed to its webhook. A review it cannot parse gets HTTP 400 with the reason; a
 * failure inside a webhook gets {@code allowed: true} with a warning, so a broken bridge never blocks a cluster.
 * Metric: {@code topobridge_admission_reviews_seconds{webhook,result}} (count and latency).
 */
final class AdmissionReviewer {

    // the webhook server's parts log as the server, as they did when they were one class
    private static final Logger LOG = Logger.getLogger(WebhookServer.class);

    /** Routing-context key: when the request's body had arrived (nanoTime), before its review started. */
    static final String ARRIVED = "topobridge.arrived";

    /** What is sent back: the HTTP status, its body, and the result the metric counts it under. */
    private record Reply(int status, byte[] body, String result) {}

    private record Body(byte[] bytes, int offset, int length) {}

    private final ObjectMapper mapper;
    private final MeterRegistry meters;
    private final AdmissionGate gate;
    private final long warnAfterNanos;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    AdmissionReviewer(ObjectMapper mapper, MeterRegistry meters, AdmissionGate gate, java.time.Duration warnAfter) {
        this.mapper = mapper;
        this.meters = meters;
        this.gate = gate;
        this.warnAfterNanos = warnAfter.toNanos();
    }

    /** Reviews a request, unless its deadline answered it while it waited. */
    void handle(AdmissionWebhook webhook, RoutingContext ctx) {
        review(webhook, ctx, ctx.get(AdmissionGate.TICKET), null, System.nanoTime());
    }

    /**
     * Reviews {@code parsed} (null: the request's body, scanned and parsed here) and sends the answer; a review that
     * needs a live read on the event loop is handed to a worker thread with its parsed request.
     */
    private void review(
            AdmissionWebhook webhook,
            RoutingContext ctx,
            AdmissionGate.Ticket ticket,
            AdmissionRequest parsed,
            long start) {
        if (ticket != null && !ticket.enter()) {
            return; // answered already: its deadline passed while it waited
        }
        AdmissionRequest request = parsed;
        Reply reply;
        try {
            if (request == null) {
                Body body = body(ctx);
                reply = overBudget(webhook, body, ticket);
                if (reply == null) {
                    request = AdmissionRequest.parseScanned(mapper, body.bytes(), body.offset(), body.length());
                    reply = answer(webhook, request);
                }
            } else {
                reply = answer(webhook, request);
            }
        } catch (ReadThrough.OnWorkerThread e) {
            AdmissionRequest toReview = request;
            ctx.vertx()
                    .executeBlocking(
                            () -> {
                                review(webhook, ctx, ticket, toReview, start);
                                return null;
                            },
                            false);
            return;
        } catch (AdmissionRequest.LimitException e) {
            LOG.warnf(
                    "%s webhook: refused a request from %s: %s",
                    webhook.name(), AdmissionGate.peer(ctx), e.getMessage());
            gate.refusal(webhook.name(), e.limit());
            reply = failure(413, "RequestEntityTooLarge", e.getMessage(), "too-large");
        } catch (AdmissionRequest.MalformedException e) {
            LOG.warnf(
                    "%s webhook: malformed AdmissionReview from %s: %s",
                    webhook.name(), AdmissionGate.peer(ctx), e.getMessage());
            reply = failure(400, "BadRequest", "malformed AdmissionReview: " + e.getMessage(), "malformed");
        } catch (JsonProcessingException | RuntimeException e) {
            LOG.errorf(e, "%s webhook: cannot answer", webhook.name());
            reply = failure(
                    500, "InternalError", "topobridge cannot answer: " + UserText.excerpt(e.toString()), "error");
        } finally {
            if (ticket != null) {
                ticket.leave();
            }
        }
        send(webhook, ctx, reply, start, request == null ? "an unparsed request" : request.describe());
    }

    /** The received body as it is, without a copy (the bytes were reserved when the request was let in). */
    private static Body body(RoutingContext ctx) {
        Buffer buffer = ctx.body().buffer();
        io.netty.buffer.ByteBuf bytes = buffer == null ? null : buffer.getByteBuf();
        if (bytes == null) {
            return new Body(new byte[0], 0, 0);
        }
        if (bytes.hasArray()) {
            return new Body(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), bytes.readableBytes());
        }
        byte[] copy = buffer.getBytes();
        return new Body(copy, 0, copy.length);
    }

    /**
     * Scans {@code body} as a stream and reserves the bytes of its tree: the 429 reply when they do not fit in the bytes
     * in flight, null when the request may be parsed.
     */
    private Reply overBudget(AdmissionWebhook webhook, Body body, AdmissionGate.Ticket ticket) {
        AdmissionLimits limits = gate.limits();
        long tokens = AdmissionRequest.scan(body.bytes(), body.offset(), body.length(), limits);
        long tree = tokens * AdmissionLimits.TREE_BYTES_PER_TOKEN;
        if (ticket != null && !ticket.reserve(tree)) {
            gate.refusal(webhook.name(), "max-in-flight-bytes");
            return failure(
                    429,
                    "TooManyRequests",
                    gate.doesNotFit("this review's tree (about " + AdmissionLimits.formatSize(tree) + ", " + tokens
                            + " JSON tokens)"),
                    "busy");
        }
        return null;
    }

    /** A Kubernetes Status of failure with HTTP status {@code code}, counted under {@code result}. */
    private Reply failure(int code, String reason, String message, String result) {
        return new Reply(code, AdmissionGate.status(mapper, code, reason, message), result);
    }

    /** The webhook's answer to {@code request}; one that fails lets the object pass unchanged, with a warning. */
    private Reply answer(AdmissionWebhook webhook, AdmissionRequest request) throws JsonProcessingException {
        AdmissionAnswer answer;
        try {
            answer = webhook.review(request);
        } catch (AdmissionRequest.MalformedException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            LOG.errorf(e, "%s webhook failed on %s; allowing it unchanged", webhook.name(), request.describe());
            answer = AdmissionAnswer.allow(
                    "error",
                    List.of("topobridge could not review " + request.describe() + " and let it pass unchanged: "
                            + UserText.excerpt(e.toString())));
        }
        return new Reply(200, mapper.writeValueAsBytes(answer.toReview(mapper, request.uid())), answer.result());
    }

    /** Sends {@code reply} unless the request was answered already, counts it, and warns of a slow answer. */
    private void send(AdmissionWebhook webhook, RoutingContext ctx, Reply reply, long start, String described) {
        long end = System.nanoTime();
        if (ctx.response().ended() || ctx.response().closed()) {
            LOG.warnf(
                    "%s webhook: %s was answered (deadline) or its connection closed before its review ended",
                    webhook.name(), described);
            return;
        }
        // counted before the answer leaves: whoever reads the metric after the answer arrived sees it counted
        timer(webhook.name(), reply.result()).record(end - start, TimeUnit.NANOSECONDS);
        ctx.response()
                .setStatusCode(reply.status())
                .putHeader("Content-Type", AdmissionGate.JSON)
                .end(Buffer.buffer(reply.body()));
        Long arrived = ctx.get(ARRIVED);
        if (arrived != null && end - arrived > warnAfterNanos) {
            LOG.warnf(
                    "%s webhook answered %s in %d ms (%d ms before its review started, %d ms reviewing): "
                            + "the API server waits at most the webhook's timeoutSeconds, then applies its failure "
                            + "policy",
                    webhook.name(),
                    described,
                    (end - arrived) / 1_000_000,
                    (start - arrived) / 1_000_000,
                    (end - start) / 1_000_000);
        }
    }

    private Timer timer(String webhook, String result) {
        return timers.computeIfAbsent(
                webhook + "|" + result,
                k -> Timer.builder("topobridge.admission.reviews")
                        .description("Admission reviews answered, by webhook and result, and their latency")
                        .tag("webhook", webhook)
                        .tag("result", result)
                        .register(meters));
    }
}

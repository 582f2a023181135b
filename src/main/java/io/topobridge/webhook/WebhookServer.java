package io.topobridge.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.topobridge.core.finding.UserText;
import io.topobridge.tls.ServingCertificate;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.SSLOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The HTTPS server the API server calls for admission, on its own port because its certificate is made at
 * run time and rotates: a renewed certificate is swapped in with {@link HttpServer#updateSSLOptions} and
 * served on every new connection, without a restart.
 *
 * <p>It never fails a request it can answer: a review it cannot parse gets HTTP 400 with the reason (the API
 * server then applies the webhook's failurePolicy); a failure inside a webhook gets {@code allowed: true}
 * with a warning, so a broken bridge never blocks a cluster. Every answer echoes the request's {@code uid}.
 * Metric: {@code topobridge_admission_reviews_seconds{webhook,result}} (count and latency).
 *
 * <p>Reviews run on worker threads: a review may read the API server (a cache miss, {@link ReadThrough}) through
 * a client that shares this Vert.x, and must never block the event loop that client needs for its answer.
 *
 * <p>Only the API server has a reason to call this port, and it never sends more than one object (or an object and
 * its old version) per request, so the port is bounded by {@link AdmissionLimits}: a request declaring a body over
 * the size limit is refused from its headers (413); each body is scanned as a stream before any tree is built and
 * one too deep or with too many tokens is refused (413); a request beyond the number in flight, or whose body and
 * tree would not fit in the bytes in flight, is answered 429 at once without reading its body, so the API server
 * applies the failure policy rather than this process queueing memory; and a request not answered within its
 * deadline (the webhook's timeout and a second: the API server has stopped waiting) is answered 408 and its
 * connection closed, so slow clients cannot hold their places. Refusals are counted in
 * {@code topobridge_admission_refusals_total{webhook,limit}}; {@code topobridge_admission_in_flight_reviews} and
 * {@code topobridge_admission_in_flight_bytes} show what is held.
 */
public final class WebhookServer {

    private static final Logger LOG = Logger.getLogger(WebhookServer.class);

    private static final String JSON = "application/json";
    /** Routing-context key: when the request's body had arrived (nanoTime), before a worker thread took it. */
    private static final String ARRIVED = "topobridge.arrived";
    /** Routing-context key: the {@link Ticket} of a request let in. */
    private static final String TICKET = "topobridge.ticket";
    /**
     * An idle connection is closed after this long: longer than the API server's own idle timeout for webhook
     * connections (90 s), so it is the one that closes them and never sends a request on one being closed here.
     */
    static final int IDLE_TIMEOUT_SECONDS = 120;

    private final Vertx vertx;
    private final ObjectMapper mapper;
    private final MeterRegistry meters;
    private final List<AdmissionWebhook> webhooks;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final Map<String, Counter> refusals = new ConcurrentHashMap<>();
    private volatile HttpServer server;
    private volatile ServingCertificate serving;
    private final long warnAfterNanos;
    private final AdmissionLimits limits;
    private final long deadlineMillis;
    private final AtomicInteger reviewsInFlight = new AtomicInteger();
    private final AtomicLong bytesInFlight = new AtomicLong();

    /** Warns of answers slower than one second (the API server's default wait is 10 s, the bridge's 3 s). */
    public WebhookServer(Vertx vertx, ObjectMapper mapper, MeterRegistry meters, List<AdmissionWebhook> webhooks) {
        this(vertx, mapper, meters, webhooks, java.time.Duration.ofSeconds(1));
    }

    /** The default limits and a deadline of 11 s (the API server's longest default wait and a second). */
    public WebhookServer(
            Vertx vertx,
            ObjectMapper mapper,
            MeterRegistry meters,
            List<AdmissionWebhook> webhooks,
            java.time.Duration warnAfter) {
        this(vertx, mapper, meters, webhooks, warnAfter, AdmissionLimits.DEFAULT, java.time.Duration.ofSeconds(11));
    }

    /**
     * @param warnAfter an answer that took longer (from the arrival of the request's body) is logged as a warning, with how long it
     *     waited for a worker thread and how long the review itself took: past the webhook's timeoutSeconds the API
     *     server has stopped waiting and applied the failure policy
     * @param limits what one request may be and how much may be in flight
     * @param deadline a request not answered this long after its headers arrived is answered 408 and its connection
     *     closed
     */
    public WebhookServer(
            Vertx vertx,
            ObjectMapper mapper,
            MeterRegistry meters,
            List<AdmissionWebhook> webhooks,
            java.time.Duration warnAfter,
            AdmissionLimits limits,
            java.time.Duration deadline) {
        this.vertx = vertx;
        this.mapper = mapper;
        this.meters = meters;
        this.webhooks = List.copyOf(webhooks);
        this.warnAfterNanos = warnAfter.toNanos();
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

    /** The limits this server enforces. */
    public AdmissionLimits limits() {
        return limits;
    }

    /** Starts serving HTTPS on {@code host:port} (0: any free port) with {@code certificate}; returns the port. */
    public synchronized int start(String host, int port, ServingCertificate certificate) {
        if (server != null) {
            throw new IllegalStateException("the webhook server is already running on port " + server.actualPort());
        }
        Router router = Router.router(vertx);
        BodyHandler body = BodyHandler.create(false).setBodyLimit(limits.maxBodyBytes());
        for (AdmissionWebhook webhook : webhooks) {
            // a review may read the API server (a cache miss, ReadThrough) through a client that shares this
            // Vert.x: run it on a worker thread, never on the event loop that client needs for its answer
            router.post(webhook.path())
                    .handler((io.vertx.ext.web.handler.PlatformHandler) ctx -> admit(webhook, ctx))
                    .handler(body)
                    .handler(ctx -> {
                        ctx.put(ARRIVED, System.nanoTime());
                        ctx.next();
                    })
                    .blockingHandler(ctx -> handle(webhook, ctx), false);
        }
        router.route().failureHandler(this::failed);
        var options = new HttpServerOptions()
                .setHost(host)
                .setPort(port)
                .setSsl(true)
                .setKeyCertOptions(keyCert(certificate))
                .setCompressionSupported(false)
                .setIdleTimeout(IDLE_TIMEOUT_SECONDS)
                .setIdleTimeoutUnit(TimeUnit.SECONDS);
        HttpServer created = vertx.createHttpServer(options).requestHandler(router);
        try {
            created.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the webhook server", e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot serve the admission webhooks on " + host + ":" + port + ": "
                            + (e.getCause() == null
                                    ? e.getMessage()
                                    : e.getCause().getMessage()),
                    e);
        }
        server = created;
        serving = certificate;
        LOG.infof(
                "serving admission webhooks %s over HTTPS on port %d (certificate valid until %s)",
                webhooks.stream().map(AdmissionWebhook::path).toList(), created.actualPort(), certificate.notAfter());
        return created.actualPort();
    }

    /**
     * Sends each review to this server over HTTPS, one after the other, as the API server would, and returns how long
     * each answer took (milliseconds, by path; -1 for one that failed or did not come within {@code timeout}). The
     * first answers of a fresh process pay for the TLS handshake, class loading and the first reads of the API
     * server; paying them here, before the webhooks are registered, keeps the first real pods within the webhook's
     * timeout. The connection trusts any certificate: it goes to this process's own port.
     */
    public Map<String, Long> warmUp(String host, Map<String, byte[]> reviewsByPath, java.time.Duration timeout) {
        int port = port();
        if (port < 0) {
            throw new IllegalStateException("the webhook server is not running");
        }
        String target =
                host == null || host.isBlank() || "0.0.0.0".equals(host) || "::".equals(host) ? "127.0.0.1" : host;
        var client = vertx.createHttpClient(new io.vertx.core.http.HttpClientOptions()
                .setSsl(true)
                .setTrustAll(true)
                .setVerifyHost(false)
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis())));
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        try {
            for (var review : reviewsByPath.entrySet()) {
                long start = System.nanoTime();
                try {
                    int status = client.request(io.vertx.core.http.HttpMethod.POST, port, target, review.getKey())
                            .compose(request -> request.putHeader("Content-Type", JSON)
                                    .send(Buffer.buffer(review.getValue()))
                                    .compose(response -> response.body().map(body -> response.statusCode())))
                            .toCompletionStage()
                            .toCompletableFuture()
                            .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                    out.put(review.getKey(), status == 200 ? (System.nanoTime() - start) / 1_000_000 : -1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    out.put(review.getKey(), -1L);
                    break;
                } catch (Exception e) {
                    LOG.debugf("warm-up review of %s failed: %s", review.getKey(), e.getMessage());
                    out.put(review.getKey(), -1L);
                }
            }
        } finally {
            client.close();
        }
        return out;
    }

    /** Serves {@code certificate} on every connection opened from now on. */
    public synchronized void updateCertificate(ServingCertificate certificate) {
        HttpServer running = server;
        if (running == null) {
            throw new IllegalStateException("the webhook server is not running");
        }
        try {
            running.updateSSLOptions(new SSLOptions().setKeyCertOptions(keyCert(certificate)))
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reloading the webhook certificate", e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot reload the webhook certificate: " + e.getMessage(), e);
        }
        serving = certificate;
        LOG.infof("webhook server now serves the certificate valid until %s", certificate.notAfter());
    }

    public synchronized void stop() {
        HttpServer running = server;
        server = null;
        if (running != null) {
            try {
                running.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.warnf("closing the webhook server: %s", e.getMessage());
            }
        }
    }

    public boolean running() {
        return server != null;
    }

    /** The port it listens on, or -1 when not running. */
    public int port() {
        HttpServer running = server;
        return running == null ? -1 : running.actualPort();
    }

    /** The certificate served now (null before the start). */
    public ServingCertificate serving() {
        return serving;
    }

    private static PemKeyCertOptions keyCert(ServingCertificate certificate) {
        return new PemKeyCertOptions()
                .setCertValue(Buffer.buffer(certificate.certificatePem()))
                .setKeyValue(Buffer.buffer(certificate.keyPem()));
    }

    /**
     * The gate every request passes before its body is read: a declared body over the size limit is refused (413), a
     * request beyond the number in flight or the bytes in flight is answered 429, each at once and with its connection
     * closed (its body is never read); a request let in holds a {@link Ticket} until it is answered and starts its
     * deadline.
     */
    private void admit(AdmissionWebhook webhook, RoutingContext ctx) {
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
                    "the admission requests in flight hold " + AdmissionLimits.formatSize(bytesInFlight.get())
                            + " and this one's body " + AdmissionLimits.formatSize(body) + " does not fit in "
                            + AdmissionLimits.MAX_IN_FLIGHT_BYTES + "="
                            + AdmissionLimits.formatSize(limits.maxInFlightBytes()));
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
        while (true) {
            long now = bytesInFlight.get();
            if (now + bytes > limits.maxInFlightBytes()) {
                return false;
            }
            if (bytesInFlight.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /**
     * What a request let in holds (its place among the reviews in flight and its reserved bytes) until both its answer
     * is sent (or its connection closed) and its worker thread, if one took it, is done with its body and tree.
     */
    private final class Ticket {
        private final AtomicInteger holders = new AtomicInteger(1);
        private final java.util.concurrent.atomic.AtomicBoolean requestDone =
                new java.util.concurrent.atomic.AtomicBoolean();
        private final AtomicLong reserved;

        Ticket(long reserved) {
            this.reserved = new AtomicLong(reserved);
        }

        /** A worker thread takes the request; false when it was answered (its deadline) before. */
        boolean enter() {
            while (true) {
                int now = holders.get();
                if (now == 0) {
                    return false;
                }
                if (holders.compareAndSet(now, now + 1)) {
                    return true;
                }
            }
        }

        boolean reserve(long bytes) {
            if (!WebhookServer.this.reserve(bytes)) {
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

    private void handle(AdmissionWebhook webhook, RoutingContext ctx) {
        Ticket ticket = ctx.get(TICKET);
        if (ticket != null && !ticket.enter()) {
            return; // answered already: its deadline passed while it waited for a worker thread
        }
        try {
            review(webhook, ctx, ticket);
        } finally {
            if (ticket != null) {
                ticket.leave();
            }
        }
    }

    private void review(AdmissionWebhook webhook, RoutingContext ctx, Ticket ticket) {
        long start = System.nanoTime();
        String result;
        int status;
        byte[] out;
        String described = "an unparsed request";
        try {
            // the received body as it is, without a copy (the bytes were reserved when the request was let in)
            Buffer buffer = ctx.body().buffer();
            io.netty.buffer.ByteBuf bytes = buffer == null ? null : buffer.getByteBuf();
            byte[] body;
            int offset;
            int length;
            if (bytes == null) {
                body = new byte[0];
                offset = 0;
                length = 0;
            } else if (bytes.hasArray()) {
                body = bytes.array();
                offset = bytes.arrayOffset() + bytes.readerIndex();
                length = bytes.readableBytes();
            } else {
                body = buffer.getBytes();
                offset = 0;
                length = body.length;
            }
            long tokens = AdmissionRequest.scan(body, offset, length, limits);
            long tree = limits.treeBytes(tokens);
            if (ticket != null && !ticket.reserve(tree)) {
                refusal(webhook.name(), "max-in-flight-bytes");
                out = status(
                        429,
                        "TooManyRequests",
                        "the admission requests in flight hold " + AdmissionLimits.formatSize(bytesInFlight.get())
                                + " and this review's tree (about " + AdmissionLimits.formatSize(tree) + ", "
                                + tokens + " JSON tokens) does not fit in " + AdmissionLimits.MAX_IN_FLIGHT_BYTES
                                + "=" + AdmissionLimits.formatSize(limits.maxInFlightBytes()));
                status = 429;
                result = "busy";
            } else {
                AdmissionRequest request = AdmissionRequest.parseScanned(mapper, body, offset, length);
                described = request.describe();
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
                out = mapper.writeValueAsBytes(answer.toReview(mapper, request.uid()));
                status = 200;
                result = answer.result();
            }
        } catch (AdmissionRequest.LimitException e) {
            LOG.warnf("%s webhook: refused a request from %s: %s", webhook.name(), peer(ctx), e.getMessage());
            refusal(webhook.name(), e.limit());
            out = status(413, "RequestEntityTooLarge", e.getMessage());
            status = 413;
            result = "too-large";
        } catch (AdmissionRequest.MalformedException e) {
            LOG.warnf("%s webhook: malformed AdmissionReview from %s: %s", webhook.name(), peer(ctx), e.getMessage());
            out = status(400, "BadRequest", "malformed AdmissionReview: " + e.getMessage());
            status = 400;
            result = "malformed";
        } catch (JsonProcessingException | RuntimeException e) {
            LOG.errorf(e, "%s webhook: cannot answer", webhook.name());
            out = status(500, "InternalError", "topobridge cannot answer: " + UserText.excerpt(e.toString()));
            status = 500;
            result = "error";
        }
        long end = System.nanoTime();
        if (ctx.response().ended() || ctx.response().closed()) {
            LOG.warnf(
                    "%s webhook: %s was answered (deadline) or its connection closed before its review ended",
                    webhook.name(), described);
            return;
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", JSON).end(Buffer.buffer(out));
        timer(webhook.name(), result).record(end - start, TimeUnit.NANOSECONDS);
        Long arrived = ctx.get(ARRIVED);
        if (arrived != null && end - arrived > warnAfterNanos) {
            LOG.warnf(
                    "%s webhook answered %s in %d ms (%d ms before a worker thread took the request, %d ms reviewing): "
                            + "the API server waits at most the webhook's timeoutSeconds, then applies its failure "
                            + "policy",
                    webhook.name(),
                    described,
                    (end - arrived) / 1_000_000,
                    (start - arrived) / 1_000_000,
                    (end - start) / 1_000_000);
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
        var response = ctx.response();
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(code)
                .putHeader("Content-Type", JSON)
                .putHeader("Connection", "close")
                .end(Buffer.buffer(status(code, reason, message)));
        lingerAndClose(ctx);
    }

    /** How long the rest of a refused request's body is read and dropped before its connection is closed. */
    static final long LINGER_MILLIS = 2000;

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

    private void refusal(String webhook, String limit) {
        refusals.computeIfAbsent(
                        webhook + "|" + limit,
                        k -> Counter.builder("topobridge.admission.refusals")
                                .description("Admission requests refused before review, by webhook and limit")
                                .tag("webhook", webhook)
                                .tag("limit", limit)
                                .register(meters))
                .increment();
    }

    private static String peer(RoutingContext ctx) {
        var address = ctx.request().connection().remoteAddress();
        return address == null ? "an unknown address" : address.hostAddress();
    }

    /** Requests the router refused before any webhook saw them (a body over the limit sent without a length). */
    private void failed(RoutingContext ctx) {
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
        if (!ctx.response().ended() && !ctx.response().closed()) {
            ctx.response()
                    .setStatusCode(code)
                    .putHeader("Content-Type", JSON)
                    .putHeader("Connection", "close")
                    .end(Buffer.buffer(status(code, code == 413 ? "RequestEntityTooLarge" : "BadRequest", message)));
            if (code == 413) {
                lingerAndClose(ctx);
            }
        }
    }

    private byte[] status(int code, String reason, String message) {
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

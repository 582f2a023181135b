package io.topobridge.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * <p>Reviews are answered on the event loop: a review is pure computation over in-memory informer caches
 * (about 50 microseconds), and on a busy node every hand-off to a worker thread adds a scheduling delay to the
 * tail latency the API server waits on.
 */
public final class WebhookServer {

    private static final Logger LOG = Logger.getLogger(WebhookServer.class);
    /** Kubernetes objects are at most about 1.5 MiB; a review carries up to two of them. */
    static final long MAX_BODY = 4L * 1024 * 1024;

    private static final String JSON = "application/json";
    /** Routing-context key: when the request's body had arrived (nanoTime), before a worker thread took it. */
    private static final String ARRIVED = "topobridge.arrived";

    private final Vertx vertx;
    private final ObjectMapper mapper;
    private final MeterRegistry meters;
    private final List<AdmissionWebhook> webhooks;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private volatile HttpServer server;
    private volatile ServingCertificate serving;
    private final long warnAfterNanos;

    /** Warns of answers slower than one second (the API server's default wait is 10 s, the bridge's 3 s). */
    public WebhookServer(Vertx vertx, ObjectMapper mapper, MeterRegistry meters, List<AdmissionWebhook> webhooks) {
        this(vertx, mapper, meters, webhooks, java.time.Duration.ofSeconds(1));
    }

    /**
     * @param warnAfter an answer that took longer (from the arrival of the request's body) is logged as a warning, with how long it
     *     waited for a worker thread and how long the review itself took: past the webhook's timeoutSeconds the API
     *     server has stopped waiting and applied the failure policy
     */
    public WebhookServer(
            Vertx vertx,
            ObjectMapper mapper,
            MeterRegistry meters,
            List<AdmissionWebhook> webhooks,
            java.time.Duration warnAfter) {
        this.vertx = vertx;
        this.mapper = mapper;
        this.meters = meters;
        this.webhooks = List.copyOf(webhooks);
        this.warnAfterNanos = warnAfter.toNanos();
    }

    /** Starts serving HTTPS on {@code host:port} (0: any free port) with {@code certificate}; returns the port. */
    public synchronized int start(String host, int port, ServingCertificate certificate) {
        if (server != null) {
            throw new IllegalStateException("the webhook server is already running on port " + server.actualPort());
        }
        Router router = Router.router(vertx);
        BodyHandler body = BodyHandler.create(false).setBodyLimit(MAX_BODY);
        for (AdmissionWebhook webhook : webhooks) {
            // a review may read the API server (a cache miss, ReadThroughLookup) through a client that shares this
            // Vert.x: run it on a worker thread, never on the event loop that client needs for its answer
            router.post(webhook.path())
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
                .setCompressionSupported(false);
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

    private void handle(AdmissionWebhook webhook, RoutingContext ctx) {
        long start = System.nanoTime();
        String result;
        int status;
        byte[] out;
        String described = "an unparsed request";
        try {
            AdmissionRequest request = AdmissionRequest.parse(
                    mapper,
                    ctx.body().buffer() == null
                            ? new byte[0]
                            : ctx.body().buffer().getBytes());
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
        } catch (AdmissionRequest.MalformedException e) {
            LOG.warnf("%s webhook: malformed AdmissionReview: %s", webhook.name(), e.getMessage());
            out = status(400, "BadRequest", "malformed AdmissionReview: " + e.getMessage());
            status = 400;
            result = "malformed";
        } catch (JsonProcessingException | RuntimeException e) {
            LOG.errorf(e, "%s webhook: cannot answer", webhook.name());
            out = status(500, "InternalError", "topobridge cannot answer: " + UserText.excerpt(e.toString()));
            status = 500;
            result = "error";
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", JSON).end(Buffer.buffer(out));
        long end = System.nanoTime();
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

    /** Requests the router refused before any webhook saw them (a body over the limit, above all). */
    private void failed(RoutingContext ctx) {
        int code = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
        String message = code == 413
                ? "the request body exceeds " + MAX_BODY + " bytes"
                : ctx.failure() != null ? UserText.excerpt(String.valueOf(ctx.failure())) : "request refused";
        if (code >= 500) {
            LOG.errorf(
                    ctx.failure(),
                    "webhook server: %s %s failed",
                    ctx.request().method(),
                    ctx.request().path());
        } else {
            LOG.warnf(
                    "webhook server: %s %s refused with %d: %s",
                    ctx.request().method(), ctx.request().path(), code, message);
        }
        if (!ctx.response().ended()) {
            ctx.response()
                    .setStatusCode(code)
                    .putHeader("Content-Type", JSON)
                    .end(Buffer.buffer(status(code, code == 413 ? "RequestEntityTooLarge" : "BadRequest", message)));
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

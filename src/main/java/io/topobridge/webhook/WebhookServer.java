package io.topobridge.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.tls.ServingCertificate;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.SSLOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The HTTPS server the API server calls for admission, on its own port because its certificate is made at
 * run time and rotates: a renewed certificate is swapped in with {@link HttpServer#updateSSLOptions} and
 * served on every new connection, without a restart. Each webhook's path passes the {@link AdmissionGate} (what
 * may be in flight, and each request's deadline) before its body is read, then the {@link AdmissionReviewer}.
 *
 * <p>It never fails a request it can answer, and every answer echoes the request's {@code uid}.
 *
 * <p>Reviews run on the event loop; one that must read the API server (a cache miss, {@link ReadThrough}) through a
 * client that shares this Vert.x moves to a worker thread, and never blocks the event loop that client needs for its
 * answer.
 *
 * <p>Only the API server has a reason to call this port, and it never sends more than one object (or an object and
 * its old version) per request, so the port is bounded by {@link AdmissionLimits}.
 */
public final class WebhookServer {

    private static final Logger LOG = Logger.getLogger(WebhookServer.class);

    /**
     * An idle connection is closed after this long: longer than the API server's own idle timeout for webhook
     * connections (90 s), so it is the one that closes them and never sends a request on one being closed here.
     */
    static final int IDLE_TIMEOUT_SECONDS = 120;

    private final Vertx vertx;
    private final List<AdmissionWebhook> webhooks;
    private final AdmissionGate gate;
    private final AdmissionReviewer reviewer;
    private volatile HttpServer server;
    private volatile ServingCertificate serving;
    /** Set by {@link #stop(Duration, Duration)}: every answer from then on closes its connection. */
    private volatile boolean draining;

    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile long lastArrival = System.nanoTime();

    /**
     * @param warnAfter an answer that took longer (from the arrival of the request's body) is logged as a warning, with how long it
     *     waited before its review started and how long the review itself took: past the webhook's timeoutSeconds the API
     *     server has stopped waiting and applied the failure policy
     * @param deadline a request not answered this long after its headers arrived is answered 408 and its connection
     *     closed
     */
    public WebhookServer(
            Vertx vertx,
            ObjectMapper mapper,
            MeterRegistry meters,
            List<AdmissionWebhook> webhooks,
            Duration warnAfter,
            AdmissionLimits limits,
            Duration deadline) {
        this.vertx = vertx;
        this.webhooks = List.copyOf(webhooks);
        this.gate = new AdmissionGate(vertx, mapper, meters, limits, deadline);
        this.reviewer = new AdmissionReviewer(mapper, meters, gate, warnAfter);
    }

    /** Starts serving HTTPS on {@code host:port} (0: any free port) with {@code certificate}; returns the port. */
    public synchronized int start(String host, int port, ServingCertificate certificate) {
        if (server != null) {
            throw new IllegalStateException("the webhook server is already running on port " + server.actualPort());
        }
        // a server started again after a drained stop answers as a fresh one
        draining = false;
        Router router = Router.router(vertx);
        router.route().handler(this::arrived);
        BodyHandler body = BodyHandler.create(false).setBodyLimit(gate.limits().maxBodyBytes());
        for (AdmissionWebhook webhook : webhooks) {
            router.post(webhook.path())
                    .handler((io.vertx.ext.web.handler.PlatformHandler) ctx -> gate.admit(webhook, ctx))
                    .handler(body)
                    .handler(ctx -> {
                        ctx.put(AdmissionReviewer.ARRIVED, System.nanoTime());
                        reviewer.handle(webhook, ctx);
                    });
        }
        router.route().failureHandler(gate::failed);
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
    public Map<String, Long> warmUp(String host, Map<String, byte[]> reviewsByPath, Duration timeout) {
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
                            .compose(request -> request.putHeader("Content-Type", AdmissionGate.JSON)
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

    /**
     * Counts a call in flight until its answer is sent; while draining, the answer says {@code Connection: close} and
     * the connection is closed after it, so the API server sends its next call on a new connection, which the Service
     * gives to another replica.
     */
    private void arrived(RoutingContext ctx) {
        lastArrival = System.nanoTime();
        inFlight.incrementAndGet();
        ctx.addEndHandler(done -> inFlight.decrementAndGet());
        if (draining) {
            ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
            ctx.addEndHandler(done -> ctx.request().connection().close());
        }
        ctx.next();
    }

    /**
     * Stops without breaking a call: keeps answering (each answer closing its connection) until no call is in flight
     * and none has arrived for {@code quiet}, at most {@code atMost}, then closes the port and every connection left.
     * A replica being replaced gets SIGTERM while the API server still holds kept-alive connections to it, and while
     * the Service's endpoints are still being updated: closing at once breaks the calls on those connections, and
     * with {@code failurePolicy: Ignore} a pod whose call broke is admitted untied from its gang.
     */
    public void stop(Duration quiet, Duration atMost) {
        if (server != null) {
            long start = System.nanoTime();
            draining = true;
            lastArrival = Math.max(lastArrival, start);
            long deadline = start + atMost.toNanos();
            while (System.nanoTime() < deadline
                    && (inFlight.get() > 0 || System.nanoTime() - lastArrival < quiet.toNanos())) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            LOG.infof(
                    "webhook server drained in %d ms (%d calls in flight when it closed)",
                    (System.nanoTime() - start) / 1_000_000, inFlight.get());
        }
        stop();
    }

    /** Closes the port and every connection at once. */
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

    /** Whether a stop is draining the calls (every answer closes its connection). */
    boolean draining() {
        return draining;
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
}

package io.topobridge.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.topobridge.testing.FreePort;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;

/**
 * A plain-HTTP proxy on loopback in front of the real API server that injects faults into what one client (the
 * bridge) sees: answers the API server never gave (409, 429 with {@code Retry-After}, 500, 503), responses held
 * back past the client's timeout after the API server carried the request out, watches cut mid-stream, and
 * connections closed without an answer. Everything else is forwarded as it is (the client's own token included),
 * so the API server's audit log still records who wrote what. WebSocket upgrades are answered {@link
 * #WEBSOCKET_ANSWER} without upgrading, as by a proxy that cannot tunnel them: fabric8 then watches over plain HTTP
 * streams (its fallback for a handshake answered 200 or 503), which the proxy sees.
 */
public final class FaultProxy implements AutoCloseable {

    /** What the proxy does to a request a fault applies to. */
    public enum Fault {
        /** 409 Conflict, without forwarding. */
        CONFLICT(409, "Conflict"),
        /** 429 Too Many Requests with {@code Retry-After: 1}, without forwarding. */
        THROTTLE(429, "TooManyRequests"),
        /** 500, without forwarding. */
        INTERNAL_ERROR(500, "InternalError"),
        /** 503, without forwarding. */
        UNAVAILABLE(503, "ServiceUnavailable"),
        /** Forwarded; the API server's answer is held back for {@link FaultProxy#SLOW} before it is sent. */
        SLOW(0, ""),
        /** The connection is closed without an answer, the request never forwarded. */
        DROP(0, "");

        final int code;
        final String reason;

        Fault(int code, String reason) {
            this.code = code;
            this.reason = reason;
        }
    }

    /**
     * The answer to a WebSocket upgrade: 200 ({@code -Dtopobridge.e2e.faults.websocket-answer=503} for the 503 of the
     * runs docs/reliability.md reports). fabric8 retries a 503 as a failed request first (ten times, the backoff
     * growing to 3.2 s): each informer of the bridge's start-up spent some 19 s on it before watching over HTTP.
     */
    static final int WEBSOCKET_ANSWER = Integer.getInteger("topobridge.e2e.faults.websocket-answer", 200);

    /** How long a {@link Fault#SLOW} answer is held back. */
    public static final Duration SLOW = Duration.ofSeconds(12);

    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Set<String> HOP_HEADERS = Set.of(
            "connection",
            "content-length",
            "expect",
            "host",
            "upgrade",
            "transfer-encoding",
            "keep-alive",
            "te",
            "trailer",
            "proxy-connection");

    private final URI upstream;
    private final HttpClient client;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fault-proxy");
        t.setDaemon(true);
        return t;
    });
    private final int port = FreePort.find();
    private final Set<InputStream> watches = ConcurrentHashMap.newKeySet();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong injected = new AtomicLong();
    private volatile Fault fault;
    private volatile boolean writesOnly;
    private final AtomicInteger budget = new AtomicInteger();

    private FaultProxy(String upstream, String caPem) throws IOException {
        this.upstream = URI.create(upstream);
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(trusting(caPem))
                .connectTimeout(Duration.ofSeconds(5))
                .executor(threads)
                .build();
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 100);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    /** A proxy to the API server at {@code upstream} (trusting {@code caPem}), listening at {@link #url()}. */
    public static FaultProxy to(String upstream, String caPem) {
        try {
            return new FaultProxy(upstream, caPem);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the fault proxy", e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /**
     * Applies {@code fault} to the next {@code count} requests (writes only when {@code writesOnly}; a watch is never
     * held back, it is {@linkplain #cutWatches() cut}); a negative count means until {@link #clear()}.
     */
    public void inject(Fault fault, int count, boolean writesOnly) {
        this.writesOnly = writesOnly;
        this.budget.set(count);
        this.fault = fault;
    }

    /** Stops injecting. */
    public void clear() {
        fault = null;
    }

    /** Whether the last {@link #inject} has used up its count. */
    public boolean spent() {
        return fault == null || budget.get() == 0;
    }

    /** Ends every watch stream now, mid-stream, as a proxy or load balancer that drops idle connections does. */
    public int cutWatches() {
        int n = 0;
        for (InputStream in : watches) {
            try {
                in.close();
                n++;
            } catch (IOException e) {
                // already gone
            }
        }
        return n;
    }

    /** Requests received so far. */
    public long requests() {
        return requests.get();
    }

    /** Requests answered with a fault so far. */
    public long injected() {
        return injected.get();
    }

    private Fault faultFor(String method, boolean watch) {
        Fault f = fault;
        if (f == null || (watch && f == Fault.SLOW) || (writesOnly && !WRITES.contains(method))) {
            return null;
        }
        int left = budget.getAndUpdate(b -> b > 0 ? b - 1 : b);
        if (left == 0) {
            return null;
        }
        injected.incrementAndGet();
        return f;
    }

    private void handle(HttpExchange exchange) throws IOException {
        requests.incrementAndGet();
        try (exchange) {
            String method = exchange.getRequestMethod();
            String query = exchange.getRequestURI().getRawQuery();
            boolean watch = query != null && (query.contains("watch=true") || query.contains("watch=1"));
            String upgrade = exchange.getRequestHeaders().getFirst("Upgrade");
            if (upgrade != null && upgrade.toLowerCase().contains("websocket")) {
                // no tunnel for WebSocket: fabric8 then watches over a plain HTTP stream, which the proxy can cut
                exchange.sendResponseHeaders(WEBSOCKET_ANSWER, -1);
                return;
            }
            Fault f = faultFor(method, watch);
            if (f == Fault.DROP) {
                return;
            }
            if (f != null && f.code > 0) {
                byte[] body = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                                + "\"message\":\"injected by the test's fault proxy\",\"reason\":\"" + f.reason
                                + "\",\"code\":"
                                + f.code + "}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                if (f == Fault.THROTTLE) {
                    exchange.getResponseHeaders().add("Retry-After", "1");
                }
                exchange.sendResponseHeaders(f.code, body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            forward(exchange, method, watch, f == Fault.SLOW);
        } catch (IOException | RuntimeException e) {
            // the client or the API server went away mid-request: the exchange is closed
        }
    }

    private void forward(HttpExchange exchange, String method, boolean watch, boolean slow) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        URI target = upstream.resolve(exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null
                        ? ""
                        : "?" + exchange.getRequestURI().getRawQuery()));
        HttpRequest.Builder request = HttpRequest.newBuilder(target)
                .method(
                        method,
                        body.length == 0
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, List<String>> header :
                exchange.getRequestHeaders().entrySet()) {
            if (!HOP_HEADERS.contains(header.getKey().toLowerCase())) {
                header.getValue().forEach(v -> request.header(header.getKey(), v));
            }
        }
        HttpResponse<InputStream> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (IOException e) {
            // the API server is down (restarting): the client sees its connection closed
            return;
        }
        InputStream in = response.body();
        if (slow) {
            byte[] all = in.readAllBytes();
            RealCluster.sleep(SLOW);
            in = new ByteArrayInputStream(all);
        }
        response.headers().map().forEach((k, v) -> {
            if (!HOP_HEADERS.contains(k.toLowerCase()) && !k.startsWith(":")) {
                v.forEach(value -> exchange.getResponseHeaders().add(k, value));
            }
        });
        long length = response.headers().firstValueAsLong("content-length").orElse(-2);
        boolean empty = length == 0 || response.statusCode() == 204 || response.statusCode() == 304;
        exchange.sendResponseHeaders(response.statusCode(), empty ? -1 : 0);
        if (empty) {
            in.close();
            return;
        }
        if (watch) {
            watches.add(in);
        }
        try (InputStream stream = in;
                OutputStream out = exchange.getResponseBody()) {
            // the headers go out now: a watch on a quiet resource may send no event for minutes
            out.flush();
            byte[] buffer = new byte[16 * 1024];
            int n;
            while ((n = stream.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } finally {
            watches.remove(in);
        }
    }

    private static SSLContext trusting(String caPem) {
        try {
            return RealCluster.trusting(CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII))));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        cutWatches();
        threads.shutdownNow();
    }
}

package io.topobridge.api.auth;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.topology.HyperNodeNames;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.LongSupplier;

/**
 * Decides whether an HTTP request may read the bridge, as a Kubernetes component's metrics endpoint does: the bearer
 * token is authenticated by a TokenReview and its user authorized by a SubjectAccessReview for the request's verb on
 * the non-resource URL {@value #URL_PREFIX} followed by the request's path (e.g. {@code get /topobridge/q/metrics}).
 *
 * <p>The prefix is there because every authenticated user may already {@code get /api/*} on any cluster (the API
 * server's own {@code system:discovery} role, bound to {@code system:authenticated}): asked about the bare path
 * {@code /api/podgroups}, the API server would allow anyone. Under {@value #URL_PREFIX} nothing is granted unless a
 * role names it.
 *
 * <p>The health probes ({@code /q/health} and below) are open to the kubelet; in mode {@code none} everything is; with
 * {@code allow-loopback} a connection whose both ends are loopback addresses (what {@code kubectl port-forward} opens
 * inside the pod) needs no token. Authenticated tokens and allowed decisions are reused for {@code cache-ttl},
 * denials for at most {@link HttpAuthSettings#MAX_DENIAL_TTL}, the least recently used dropped beyond
 * {@code cache-size}: a scrape every 15 s costs two reviews a minute, not two per scrape. Tokens are kept only as
 * their SHA-256. At most {@value #MAX_REVIEWS_IN_FLIGHT} reviews run at once; beyond that a request is answered 503,
 * so a flood of random tokens cannot turn into a flood of reviews.
 */
public final class HttpAuthorizer {

    /** Prefix of the non-resource URLs the bridge asks the API server about. */
    public static final String URL_PREFIX = "/topobridge";

    static final int MAX_REVIEWS_IN_FLIGHT = 16;
    private static final String REQUESTS = "Requests to the HTTP port by how they were let in or refused";
    private static final String REVIEWS =
            "TokenReviews (token) and SubjectAccessReviews (access) sent to the API server";
    /** Longer bearer tokens are refused unread (a ServiceAccount token is about 1 KiB). */
    static final int MAX_TOKEN_LENGTH = 16 * 1024;

    /** A request as the authorizer sees it. */
    public record Request(String authorization, String method, String path, boolean loopback) {}

    /** The answer: {@code status} 200 lets the request through; otherwise the HTTP status and why. */
    public record Decision(int status, String reason, String message) {
        static final Decision ALLOWED = new Decision(200, "Allowed", "");

        public boolean allowed() {
            return status == 200;
        }
    }

    private final HttpAuthSettings settings;
    private final AccessReviews reviews;
    private final LongSupplier nanoTime;
    private final Semaphore inFlight = new Semaphore(MAX_REVIEWS_IN_FLIGHT);
    private final Lru<String, AccessReviews.Authentication> tokens;
    private final Lru<String, AccessReviews.Authorization> decisions;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final MeterRegistry meters;

    public HttpAuthorizer(
            HttpAuthSettings settings, AccessReviews reviews, MeterRegistry meters, LongSupplier nanoTime) {
        this.settings = settings;
        this.reviews = reviews;
        this.meters = meters;
        this.nanoTime = nanoTime;
        this.tokens = new Lru<>(settings.cacheSize());
        this.decisions = new Lru<>(settings.cacheSize());
    }

    /** Whether {@code path} (normalized) is a health probe, open to anyone. */
    public static boolean open(String path) {
        return path.equals("/q/health") || path.startsWith("/q/health/");
    }

    /** The SubjectAccessReview verb of an HTTP method (HEAD reveals what GET does). */
    public static String verb(String method) {
        String lower = method.toLowerCase(Locale.ROOT);
        return lower.equals("head") ? "get" : lower;
    }

    /**
     * The decision when it needs no call to the API server (an open path, mode none, loopback, no or a malformed
     * token, or everything cached); empty when {@link #decide} must ask.
     */
    public Optional<Decision> quick(Request request) {
        return Optional.ofNullable(resolve(request, false));
    }

    /** The decision, asking the API server what is not cached. Blocking: call it on a worker thread. */
    public Decision decide(Request request) {
        Decision quick = resolve(request, false);
        if (quick != null) {
            return quick;
        }
        if (!inFlight.tryAcquire()) {
            return refuse(503, MAX_REVIEWS_IN_FLIGHT + " token reviews are in flight already; retry in a moment");
        }
        try {
            return resolve(request, true);
        } catch (AccessReviews.UnavailableException e) {
            return refuse(503, "topobridge cannot check the token with the API server: " + e.getMessage());
        } finally {
            inFlight.release();
        }
    }

    /** The decision, asking the API server what is not cached when {@code ask}; null when it would have to ask. */
    private Decision resolve(Request request, boolean ask) {
        if (settings.mode() == HttpAuthSettings.Mode.NONE || open(request.path())) {
            return count(Decision.ALLOWED, "open");
        }
        if (settings.allowLoopback() && request.loopback()) {
            return count(Decision.ALLOWED, "loopback");
        }
        String token = token(request.authorization());
        if (token == null) {
            return refuse(
                    401,
                    "no bearer token: send \"Authorization: Bearer <token>\" of a user who may "
                            + verb(request.method()) + " the non-resource URL " + url(request.path())
                            + " (the chart's api-reader or metrics-reader ClusterRole grants it)");
        }
        if (token.length() > MAX_TOKEN_LENGTH) {
            return refuse(
                    401, "the bearer token is longer than " + MAX_TOKEN_LENGTH + " characters; no Kubernetes token is");
        }
        String key = HyperNodeNames.hash(token, 64);
        AccessReviews.Authentication authentication = tokens.get(key, nanoTime.getAsLong());
        if (authentication == null) {
            if (!ask) {
                return null;
            }
            authentication = reviews.authenticate(token);
            counter("topobridge.http.auth.reviews", REVIEWS, "kind", "token").increment();
            tokens.put(key, authentication, nanoTime.getAsLong() + ttl(authentication.authenticated()));
        }
        if (!authentication.authenticated()) {
            return refuse(401, "the API server did not accept the bearer token: " + authentication.error());
        }
        AccessReviews.User user = authentication.user();
        String decisionKey = decisionKey(user, request);
        AccessReviews.Authorization authorization = decisions.get(decisionKey, nanoTime.getAsLong());
        if (authorization == null) {
            if (!ask) {
                return null;
            }
            authorization = reviews.authorize(user, url(request.path()), verb(request.method()));
            counter("topobridge.http.auth.reviews", REVIEWS, "kind", "access").increment();
            decisions.put(decisionKey, authorization, nanoTime.getAsLong() + ttl(authorization.allowed()));
        }
        if (authorization.allowed()) {
            return count(Decision.ALLOWED, "allowed");
        }
        return refuse(
                403,
                "user \"" + user.name() + "\" may not " + verb(request.method()) + " the non-resource URL "
                        + url(request.path())
                        + (authorization.reason().isBlank() ? "" : ": " + authorization.reason()));
    }

    /** The non-resource URL asked about for {@code path}. */
    public static String url(String path) {
        return URL_PREFIX + path;
    }

    private long ttl(boolean allowed) {
        return (allowed ? settings.cacheTtl() : settings.denialTtl()).toNanos();
    }

    private static String decisionKey(AccessReviews.User user, Request request) {
        return String.join(
                "\n",
                user.name(),
                user.uid(),
                String.valueOf(user.groups()),
                String.valueOf(new java.util.TreeMap<>(user.extra())),
                verb(request.method()),
                request.path());
    }

    /** The token of an {@code Authorization: Bearer <token>} header, or null. */
    static String token(String header) {
        if (header == null) {
            return null;
        }
        String value = header.trim();
        if (value.length() < 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = value.substring(7).trim();
        return token.isEmpty() ? null : token;
    }

    /** A refusal with its status's reason, counted under the result that status means. */
    private Decision refuse(int status, String message) {
        return switch (status) {
            case 401 -> count(new Decision(401, "Unauthorized", message), "unauthenticated");
            case 403 -> count(new Decision(403, "Forbidden", message), "forbidden");
            default -> count(new Decision(503, "ServiceUnavailable", message), "unavailable");
        };
    }

    private Decision count(Decision decision, String result) {
        counter("topobridge.http.auth.requests", REQUESTS, "result", result).increment();
        return decision;
    }

    private Counter counter(String name, String description, String tag, String value) {
        return counters.computeIfAbsent(
                name + "|" + value,
                k -> Counter.builder(name)
                        .description(description)
                        .tag(tag, value)
                        .register(meters));
    }

    /** A bounded map whose entries expire; the least recently used entry goes first when it is full. */
    private static final class Lru<K, V> {
        private record Entry<V>(V value, long expires) {}

        private final LinkedHashMap<K, Entry<V>> map;

        Lru(int size) {
            this.map = new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<K, Entry<V>> eldest) {
                    return size() > size;
                }
            };
        }

        synchronized V get(K key, long now) {
            Entry<V> entry = map.get(key);
            if (entry != null && now - entry.expires() >= 0) {
                map.remove(key);
                return null;
            }
            return entry == null ? null : entry.value();
        }

        synchronized void put(K key, V value, long expires) {
            map.put(key, new Entry<>(value, expires));
        }
    }
}

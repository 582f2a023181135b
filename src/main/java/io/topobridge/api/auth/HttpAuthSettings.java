package io.topobridge.api.auth;

import io.topobridge.config.HttpConfig;
import java.time.Duration;
import java.util.Locale;

/** Validated settings of the HTTP port's authentication, from {@code topobridge.http.auth.*} (documented there). */
public record HttpAuthSettings(Mode mode, boolean allowLoopback, Duration cacheTtl, int cacheSize) {

    /** How requests are checked. */
    public enum Mode {
        /** A bearer token, TokenReview and SubjectAccessReview for every path but the health probes. */
        KUBERNETES,
        /** Nothing is checked (a port no one else can reach, e.g. dev mode). */
        NONE
    }

    /** Denials are reused at most this long, so a binding just made takes effect quickly. */
    public static final Duration MAX_DENIAL_TTL = Duration.ofSeconds(10);

    public HttpAuthSettings {
        if (cacheTtl.isNegative() || cacheTtl.compareTo(Duration.ofMinutes(10)) > 0) {
            throw invalid("cache-ttl", cacheTtl, "0s to 10m");
        }
        if (cacheSize < 16 || cacheSize > 100_000) {
            throw invalid("cache-size", cacheSize, "16 to 100000");
        }
    }

    /** How long a denial (an unknown token, a forbidden path) is reused. */
    public Duration denialTtl() {
        return cacheTtl.compareTo(MAX_DENIAL_TTL) < 0 ? cacheTtl : MAX_DENIAL_TTL;
    }

    /** Maps and checks {@code topobridge.http.auth.*}; throws {@link IllegalArgumentException} naming key and value. */
    public static HttpAuthSettings from(HttpConfig.Auth config) {
        Mode mode = switch (config.mode().trim().toLowerCase(Locale.ROOT)) {
            case "kubernetes" -> Mode.KUBERNETES;
            case "none" -> Mode.NONE;
            default -> throw invalid("mode", config.mode(), "kubernetes or none");
        };
        return new HttpAuthSettings(mode, config.allowLoopback(), config.cacheTtl(), config.cacheSize());
    }

    private static IllegalArgumentException invalid(String key, Object value, String expected) {
        return new IllegalArgumentException("topobridge.http.auth." + key + "=" + value + " is not " + expected);
    }
}

package io.topobridge.config;

import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code topobridge.http.*}: the HTTP port (REST API, topology page, metrics and health probes). */
public interface HttpConfig {

    /** Who may read the HTTP port beyond the health probes. */
    Auth auth();

    /**
     * {@code topobridge.http.auth.*}: every path but {@code /q/health} needs a bearer token the API server
     * authenticates (TokenReview) and authorizes (SubjectAccessReview on a non-resource URL).
     */
    interface Auth {

        /** {@code kubernetes}: TokenReview and SubjectAccessReview for every path but the health probes; {@code none}: open. */
        @WithDefault("kubernetes")
        String mode();

        /** Let connections whose both ends are loopback addresses (kubectl port-forward) in without a token. */
        @WithDefault("true")
        boolean allowLoopback();

        /** How long an allowed token and decision are reused (0s: ask the API server every time; at most 10m). */
        @WithDefault("1m")
        Duration cacheTtl();

        /** Most tokens and decisions kept (the least recently used go first; 16 to 100000). */
        @WithDefault("1024")
        int cacheSize();
    }
}

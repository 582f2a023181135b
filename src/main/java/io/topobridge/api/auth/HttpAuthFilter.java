package io.topobridge.api.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.topobridge.webhook.AdmissionGate;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.jboss.logging.Logger;

/**
 * Puts {@link HttpAuthorizer} in front of every route of the HTTP port (REST API, topology page, metrics, and all the
 * others; only the health probes stay open). A decision that needs the API server is made on a worker thread while
 * the request waits, paused; a refusal is a Kubernetes Status (401 with {@code WWW-Authenticate: Bearer}, 403, 503).
 * Whether a connection is local is read from the socket itself, never from a forwarded header.
 */
@ApplicationScoped
public class HttpAuthFilter {

    private static final Logger LOG = Logger.getLogger(HttpAuthFilter.class);
    /** Ahead of every route and of Quarkus' own filters. */
    static final int PRIORITY = 10_000;

    private final HttpAuthSettings settings;
    private final HttpAuthorizer authorizer;
    private final ObjectMapper json = new ObjectMapper();

    public HttpAuthFilter(HttpAuthSettings settings, AccessReviews reviews, MeterRegistry meters) {
        this.settings = settings;
        this.authorizer = new HttpAuthorizer(settings, reviews, meters, System::nanoTime);
    }

    void register(@Observes Filters filters) {
        if (io.topobridge.config.CliMode.active()) {
            // a command's output is its own: the port's policy is news for the controller only
        } else if (settings.mode() == HttpAuthSettings.Mode.NONE) {
            LOG.warn("the HTTP port is open to anyone who reaches it (topobridge.http.auth.mode=none): its REST API "
                    + "and metrics describe every namespace's gangs");
        } else {
            LOG.infof(
                    "the HTTP port needs a bearer token the API server authenticates and authorizes (get on %s<path>)"
                            + " for everything but /q/health%s",
                    HttpAuthorizer.URL_PREFIX,
                    settings.allowLoopback() ? "; loopback connections (kubectl port-forward) need none" : "");
        }
        filters.register(this::filter, PRIORITY);
    }

    void filter(RoutingContext ctx) {
        var request = new HttpAuthorizer.Request(
                ctx.request().getHeader("Authorization"),
                ctx.request().method().name(),
                ctx.normalizedPath(),
                loopback(ctx.request().connection().remoteAddress())
                        && loopback(ctx.request().connection().localAddress()));
        var quick = authorizer.quick(request);
        if (quick.isPresent()) {
            answer(ctx, quick.get());
            return;
        }
        ctx.request().pause();
        ctx.vertx().executeBlocking(() -> authorizer.decide(request), false).onComplete(done -> {
            ctx.request().resume();
            answer(
                    ctx,
                    done.succeeded()
                            ? done.result()
                            : new HttpAuthorizer.Decision(
                                    503, "ServiceUnavailable", "cannot check the token: " + done.cause()));
        });
    }

    private void answer(RoutingContext ctx, HttpAuthorizer.Decision decision) {
        if (decision.allowed()) {
            ctx.next();
            return;
        }
        LOG.debugf(
                "HTTP %s %s from %s refused with %d: %s",
                ctx.request().method(),
                ctx.normalizedPath(),
                ctx.request().connection().remoteAddress(),
                decision.status(),
                decision.message());
        var response = ctx.response().setStatusCode(decision.status()).putHeader("Content-Type", "application/json");
        if (decision.status() == 401) {
            response.putHeader("WWW-Authenticate", "Bearer realm=\"topobridge\"");
        }
        if (decision.status() == 503) {
            response.putHeader("Retry-After", "1");
        }
        response.end(
                Buffer.buffer(AdmissionGate.status(json, decision.status(), decision.reason(), decision.message())));
    }

    static boolean loopback(SocketAddress address) {
        if (address == null || address.hostAddress() == null) {
            return false; // a Unix socket or an unknown peer: not taken for local
        }
        try {
            // a literal address: no lookup happens
            return InetAddress.getByName(address.hostAddress()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}

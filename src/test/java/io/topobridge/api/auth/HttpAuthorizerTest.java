package io.topobridge.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Who may read the HTTP port, decided against a small fake of the API server's two reviews. */
class HttpAuthorizerTest {

    private static final HttpAuthSettings SETTINGS =
            new HttpAuthSettings(HttpAuthSettings.Mode.KUBERNETES, true, Duration.ofMinutes(1), 16);

    private final FakeAccessReviews api = new FakeAccessReviews()
            .user("reader-token", "system:serviceaccount:monitoring:prometheus")
            .user("tenant-token", "system:serviceaccount:team-a:default")
            .grant("system:serviceaccount:monitoring:prometheus", "get", "/topobridge/q/metrics")
            .grant("system:serviceaccount:monitoring:prometheus", "get", "/topobridge/api/podgroups");
    private final AtomicLong clock = new AtomicLong();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private HttpAuthorizer authorizer(HttpAuthSettings settings) {
        return new HttpAuthorizer(settings, api, meters, clock::get);
    }

    private static HttpAuthorizer.Request get(String path, String token) {
        return new HttpAuthorizer.Request(token == null ? null : "Bearer " + token, "GET", path, false);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("health probes are open", "/q/health/ready", null, false, 200, ""),
                Arguments.of("the health root too", "/q/health", null, false, 200, ""),
                Arguments.of("a path that only starts like health is not", "/q/healthz", null, false, 401, "no bearer"),
                Arguments.of(
                        "no token",
                        "/api/podgroups",
                        null,
                        false,
                        401,
                        "get the non-resource URL " + "/topobridge/api/podgroups"),
                Arguments.of("an unknown token", "/q/metrics", "forged", false, 401, "invalid bearer token"),
                Arguments.of(
                        "a tenant's token",
                        "/api/podgroups",
                        "tenant-token",
                        false,
                        403,
                        "user \"system:serviceaccount:team-a:default\" may not get the non-resource URL "
                                + "/topobridge/api/podgroups"),
                Arguments.of("the reader's token on metrics", "/q/metrics", "reader-token", false, 200, ""),
                Arguments.of("the reader's token elsewhere", "/api/findings", "reader-token", false, 403, "may not"),
                Arguments.of("loopback needs no token", "/api/podgroups", null, true, 200, ""),
                Arguments.of("every other path is protected", "/", null, false, 401, "no bearer"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(String name, String path, String token, boolean loopback, int status, String message) {
        var decision = authorizer(SETTINGS)
                .decide(new HttpAuthorizer.Request(token == null ? null : "Bearer " + token, "GET", path, loopback));
        assertThat(decision.status()).isEqualTo(status);
        assertThat(decision.message()).contains(message);
    }

    @Test
    void theApiServerIsAskedAboutThePrefixedUrlBecauseEveryUserMayGetApiStar() {
        authorizer(SETTINGS).decide(get("/api/podgroups", "tenant-token"));
        assertThat(api.askedPaths).containsExactly("get /topobridge/api/podgroups");
    }

    @Test
    void withoutLoopbackTheLocalClientNeedsATokenToo() {
        var strict = new HttpAuthSettings(HttpAuthSettings.Mode.KUBERNETES, false, Duration.ofMinutes(1), 16);
        var local = new HttpAuthorizer.Request(null, "GET", "/api/podgroups", true);
        assertThat(authorizer(strict).decide(local).status()).isEqualTo(401);
    }

    @Test
    void modeNoneLetsEverythingThrough() {
        var none = new HttpAuthSettings(HttpAuthSettings.Mode.NONE, false, Duration.ofMinutes(1), 16);
        assertThat(authorizer(none).decide(get("/api/podgroups", null)).allowed())
                .isTrue();
        assertThat(api.tokenReviews.get()).isZero();
    }

    @Test
    void aScrapeEvery15SecondsCostsTwoReviewsPerMinuteNotTwoPerScrape() {
        HttpAuthorizer authorizer = authorizer(SETTINGS);
        for (int scrape = 0; scrape < 8; scrape++) { // two minutes
            assertThat(authorizer.decide(get("/q/metrics", "reader-token")).allowed())
                    .isTrue();
            // the cached answer needs no worker thread
            assertThat(authorizer.quick(get("/q/metrics", "reader-token"))).isPresent();
            clock.addAndGet(Duration.ofSeconds(15).toNanos());
        }
        assertThat(api.tokenReviews.get()).isEqualTo(2);
        assertThat(api.accessReviews.get()).isEqualTo(2);
    }

    @Test
    void denialsAreReusedOnlyBriefly() {
        HttpAuthorizer authorizer = authorizer(SETTINGS);
        assertThat(authorizer.decide(get("/api/findings", "reader-token")).status())
                .isEqualTo(403);
        assertThat(authorizer.decide(get("/api/findings", "reader-token")).status())
                .isEqualTo(403);
        assertThat(api.accessReviews.get()).isEqualTo(1);
        // the binding is made; within ten seconds the denial is forgotten
        api.grant("system:serviceaccount:monitoring:prometheus", "get", "/topobridge/api/findings");
        clock.addAndGet(HttpAuthSettings.MAX_DENIAL_TTL.toNanos());
        assertThat(authorizer.decide(get("/api/findings", "reader-token")).allowed())
                .isTrue();
        // an unknown token is asked about again after as long
        authorizer.decide(get("/q/metrics", "forged"));
        authorizer.decide(get("/q/metrics", "forged"));
        assertThat(api.tokenReviews.get()).isEqualTo(2);
        clock.addAndGet(HttpAuthSettings.MAX_DENIAL_TTL.toNanos());
        authorizer.decide(get("/q/metrics", "forged"));
        assertThat(api.tokenReviews.get()).isEqualTo(3);
    }

    @Test
    void theCacheKeepsAtMostItsSizeForgettingTheLeastRecentlyUsed() {
        HttpAuthorizer authorizer = authorizer(SETTINGS);
        authorizer.decide(get("/q/metrics", "reader-token"));
        for (int i = 0; i < 16; i++) {
            authorizer.decide(get("/q/metrics", "random-" + i)); // 16 unknown tokens push the reader's out
        }
        int before = api.tokenReviews.get();
        authorizer.decide(get("/q/metrics", "reader-token"));
        assertThat(api.tokenReviews.get()).isEqualTo(before + 1);
    }

    @Test
    void aZeroTtlAsksEveryTime() {
        var uncached = new HttpAuthSettings(HttpAuthSettings.Mode.KUBERNETES, true, Duration.ZERO, 16);
        HttpAuthorizer authorizer = authorizer(uncached);
        authorizer.decide(get("/q/metrics", "reader-token"));
        authorizer.decide(get("/q/metrics", "reader-token"));
        assertThat(api.tokenReviews.get()).isEqualTo(2);
        assertThat(api.accessReviews.get()).isEqualTo(2);
    }

    @Test
    void anApiServerThatCannotAnswerGives503AndNothingIsCached() {
        HttpAuthorizer authorizer = authorizer(SETTINGS);
        api.down = true;
        var decision = authorizer.decide(get("/q/metrics", "reader-token"));
        assertThat(decision.status()).isEqualTo(503);
        assertThat(decision.message()).contains("TokenReview failed: HTTP 403");
        api.down = false;
        assertThat(authorizer.decide(get("/q/metrics", "reader-token")).allowed())
                .isTrue();
    }

    @Test
    void tokensAreReadOnlyFromABearerHeader() {
        assertThat(HttpAuthorizer.token("Bearer abc")).isEqualTo("abc");
        assertThat(HttpAuthorizer.token("bearer   abc ")).isEqualTo("abc");
        assertThat(HttpAuthorizer.token("Basic YWxhZGRpbjpvcGVu")).isNull();
        assertThat(HttpAuthorizer.token("Bearer ")).isNull();
        assertThat(HttpAuthorizer.token(null)).isNull();
        var decision = authorizer(SETTINGS).decide(get("/q/metrics", "x".repeat(20_000)));
        assertThat(decision.status()).isEqualTo(401);
        assertThat(api.tokenReviews.get())
                .as("an oversized token is never sent")
                .isZero();
    }

    @Test
    void headIsAuthorizedAsGet() {
        authorizer(SETTINGS).decide(new HttpAuthorizer.Request("Bearer reader-token", "HEAD", "/q/metrics", false));
        assertThat(api.askedPaths).containsExactly("get /topobridge/q/metrics");
    }

    @Test
    void settingsAreValidatedNamingTheKey() {
        assertThatThrownBy(() -> new HttpAuthSettings(HttpAuthSettings.Mode.KUBERNETES, true, Duration.ofHours(1), 16))
                .hasMessageContaining("topobridge.http.auth.cache-ttl=PT1H");
        assertThatThrownBy(() -> new HttpAuthSettings(HttpAuthSettings.Mode.KUBERNETES, true, Duration.ofMinutes(1), 3))
                .hasMessageContaining("topobridge.http.auth.cache-size=3");
    }
}

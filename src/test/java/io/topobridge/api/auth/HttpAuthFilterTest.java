package io.topobridge.api.auth;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.topobridge.testing.MockApiServer;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The running application's HTTP port with the token check in force for local clients too
 * ({@code allow-loopback=false}), the API server's reviews answered by a small fake: every route but the health probes
 * (the REST API, the topology page, the metrics) needs a token whose user may get its non-resource URL.
 */
@QuarkusTest
@QuarkusTestResource(MockApiServer.class)
@TestProfile(HttpAuthFilterTest.Strict.class)
class HttpAuthFilterTest {

    /** Local connections get no pass; the reviews go to the fake. */
    public static class Strict implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("topobridge.http.auth.allow-loopback", "false");
        }

        @Override
        public java.util.Set<Class<?>> getEnabledAlternatives() {
            return java.util.Set.of(Fake.class);
        }
    }

    /** The application's {@link AccessReviews} in this profile: whichever fake the test set up. */
    @jakarta.enterprise.inject.Alternative
    @jakarta.annotation.Priority(1)
    @jakarta.enterprise.context.ApplicationScoped
    public static class Fake implements AccessReviews {
        static volatile FakeAccessReviews current = new FakeAccessReviews();

        @Override
        public Authentication authenticate(String token) {
            return current.authenticate(token);
        }

        @Override
        public Authorization authorize(User user, String path, String verb) {
            return current.authorize(user, path, verb);
        }
    }

    private static final String PROMETHEUS = "system:serviceaccount:monitoring:prometheus";
    private static final String OPERATOR = "system:serviceaccount:ops:sre";

    private FakeAccessReviews api;

    @BeforeEach
    void fakeApiServer() {
        api = new FakeAccessReviews()
                .user("prometheus-token", PROMETHEUS)
                .user("sre-token", OPERATOR)
                .user("tenant-token", "system:serviceaccount:team-a:default")
                .grant(PROMETHEUS, "get", "/topobridge/q/metrics");
        for (String path : new String[] {"/api/status", "/api/podgroups", "/topology", "/q/metrics"}) {
            api.grant(OPERATOR, "get", "/topobridge" + path);
        }
        Fake.current = api;
    }

    @Test
    void healthProbesAreOpen() {
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/health/started").then().statusCode(200);
    }

    @Test
    void withoutATokenEverythingElseIs401() {
        for (String path : new String[] {"/api/status", "/api/podgroups", "/topology", "/q/metrics", "/api/doctor"}) {
            given().get(path)
                    .then()
                    .statusCode(401)
                    .header("WWW-Authenticate", "Bearer realm=\"topobridge\"")
                    .body("kind", equalTo("Status"))
                    .body("code", equalTo(401))
                    .body("message", containsString("/topobridge" + path));
        }
        assertThat(api.tokenReviews.get()).isZero();
    }

    @Test
    void aPathThatWalksOutOfTheHealthProbesIsNotOpen() {
        given().urlEncodingEnabled(false)
                .get("/q/health/%2e%2e/%2e%2e/api/status")
                .then()
                .statusCode(401);
    }

    @Test
    void aTenantsTokenIs403AndAForgedOne401() {
        given().auth()
                .oauth2("tenant-token")
                .get("/api/podgroups")
                .then()
                .statusCode(403)
                .body("message", containsString("may not get the non-resource URL /topobridge/api/podgroups"));
        given().auth().oauth2("forged").get("/q/metrics").then().statusCode(401);
    }

    @Test
    void prometheusReadsTheMetricsAndNothingElse() {
        given().auth()
                .oauth2("prometheus-token")
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .body(containsString("topobridge_http_auth_requests_total"));
        given().auth().oauth2("prometheus-token").get("/api/status").then().statusCode(403);
    }

    @Test
    void anOperatorReadsTheApiAndThePage() {
        given().auth().oauth2("sre-token").get("/api/status").then().statusCode(200);
        given().auth().oauth2("sre-token").get("/api/podgroups").then().statusCode(200);
        given().auth()
                .oauth2("sre-token")
                .get("/topology")
                .then()
                .statusCode(200)
                .body(containsString("/api/topology"));
        // one TokenReview for the token, one SubjectAccessReview per path, then answers from the cache
        given().auth().oauth2("sre-token").get("/api/status").then().statusCode(200);
        assertThat(api.tokenReviews.get()).isEqualTo(1);
        assertThat(api.accessReviews.get()).isEqualTo(3);
    }

    @Test
    void anApiServerThatCannotAnswerIs503() {
        api.down = true;
        given().auth()
                .oauth2("another-token")
                .get("/api/status")
                .then()
                .statusCode(503)
                .header("Retry-After", "1")
                .body("message", containsString("cannot check the token"));
    }
}

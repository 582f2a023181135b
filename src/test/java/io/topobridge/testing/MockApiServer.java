package io.topobridge.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.topobridge.devcluster.MockCluster;
import java.util.Map;

/**
 * Quarkus test resource: the controller under test talks to an in-process mock API server (CRUD mode with
 * server-side apply and a request log) that has Volcano's CRDs installed. Tests reach it through
 * {@link #cluster()}; use distinct namespaces and names per test class, as the application (and this
 * server) is shared by every {@code @QuarkusTest} class with the same resources.
 */
public class MockApiServer implements QuarkusTestResourceLifecycleManager {

    private static volatile MockCluster cluster;

    @Override
    public Map<String, String> start() {
        cluster = RecordingDispatcher.start().installVolcanoCrds();
        return Map.of(
                "quarkus.kubernetes-client.api-server-url", cluster.url(),
                "quarkus.kubernetes-client.trust-certs", "true",
                "quarkus.kubernetes-client.namespace", "default");
    }

    @Override
    public void stop() {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    /** The running mock API server. */
    public static MockCluster cluster() {
        if (cluster == null) {
            throw new IllegalStateException("MockApiServer is not running; annotate the test with "
                    + "@QuarkusTestResource(MockApiServer.class)");
        }
        return cluster;
    }
}

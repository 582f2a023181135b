package io.topobridge.testing;

import java.nio.file.Path;
import java.util.Map;

/**
 * The mock API server seeded from {@code examples/} before the application starts, exactly as dev mode
 * seeds its embedded cluster: what a newcomer sees with {@code ./mvnw quarkus:dev}.
 */
public class DemoApiServer extends MockApiServer {

    @Override
    public Map<String, String> start() {
        Map<String, String> config = super.start();
        cluster().seed(Path.of("examples"));
        cluster().seedSchedulerConfig("volcano-system", "volcano-scheduler-configmap", "volcano-scheduler.conf");
        return config;
    }
}

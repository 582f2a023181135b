package io.topobridge.findings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.annotation.AnnotationParser;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.devcluster.MockCluster;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A tenant's flood of unknown keys: bounded findings and Events, and publish never waits for the API server. */
class FindingsFloodTest {

    static final ObjectRef DEPLOY = new ObjectRef("apps/v1", "Deployment", "flood", "vllm", "u1");
    static final TierCatalog TIERS = TierCatalog.of(List.of(new TierCatalog.Tier(1, "rack")));

    static List<AnnotationSource> unknownKeys(int count) {
        Map<String, String> annotations = new TreeMap<>();
        annotations.put("topobridge.io/highest-tier", "1");
        for (int i = 0; i < count; i++) {
            annotations.put(String.format("topobridge.io/k%05d", i), "x");
        }
        return List.of(new AnnotationSource(DEPLOY, "metadata", annotations));
    }

    @Test
    void fiveThousandUnknownKeysGiveOneFindingAndOneEvent() {
        List<Finding> findings =
                AnnotationParser.parse(unknownKeys(5000), TIERS).findings();
        assertThat(findings)
                .filteredOn(f -> f.reason() == WorkloadReason.UNKNOWN_ANNOTATION)
                .singleElement()
                .satisfies(f -> assertThat(f.message()).contains("5000 unknown", "and 4997 more"));
        try (MockCluster cluster = MockCluster.start()) {
            var meters = new SimpleMeterRegistry();
            var registry = new FindingsRegistry(new EventRecorder(cluster.client(), meters), meters);
            registry.publish("workloads", Set.of(DEPLOY.toString()), findings);
            assertThat(cluster.dispatcher().writes("/events")).hasSize(1);
        }
    }

    @Test
    void publishReturnsWhileTheApiServerHangs() throws Exception {
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            arrived.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
                .withRequestTimeout(60_000)
                .withRequestRetryBackoffLimit(0)
                .build();
        try (KubernetesClient client =
                new KubernetesClientBuilder().withConfig(config).build()) {
            var meters = new SimpleMeterRegistry();
            var registry = new FindingsRegistry(new EventRecorder(client, meters), meters);
            List<Finding> many = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                many.add(Finding.warning(WorkloadReason.UNKNOWN_ANNOTATION, DEPLOY, "unknown " + i)
                        .withKey("k" + i));
            }
            assertTimeoutPreemptively(
                    Duration.ofSeconds(20),
                    () -> registry.publish("workloads", many),
                    "publish waited for the API server");
            assertThat(arrived.await(20, TimeUnit.SECONDS))
                    .as("the Event write reached the server")
                    .isTrue();
            // the topology controller's publish is not held up by the workloads' writes either
            assertTimeoutPreemptively(
                    Duration.ofSeconds(20),
                    () -> registry.publish(
                            "topology",
                            List.of(Finding.info(
                                    WorkloadReason.UNKNOWN_ANNOTATION, ObjectRef.node("n1"), "single domain"))));
            assertThat(registry.of("topology")).hasSize(1);
        } finally {
            release.countDown();
            server.stop(0);
        }
    }
}

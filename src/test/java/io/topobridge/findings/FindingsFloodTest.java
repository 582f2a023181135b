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
import io.topobridge.testing.RecordingDispatcher;
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
    static final TierCatalog TIERS = TierCatalog.of(List.of(new TierCatalog.Tier(1, "rack")), List.of());

    static List<AnnotationSource> unknownKeys(int count) {
        Map<String, String> annotations = new TreeMap<>();
        annotations.put("topobridge.io/highest-tier", "1");
        for (int i = 0; i < count; i++) {
            annotations.put(String.format("topobridge.io/k%05d", i), "x");
        }
        return List.of(AnnotationSource.of(DEPLOY, "metadata", annotations));
    }

    @Test
    void fiveThousandUnknownKeysGiveOneFindingAndOneEvent() {
        List<Finding> findings =
                AnnotationParser.parse(unknownKeys(5000), TIERS).findings();
        assertThat(findings)
                .filteredOn(f -> f.reason() == WorkloadReason.UNKNOWN_ANNOTATION)
                .singleElement()
                .satisfies(f -> assertThat(f.message()).contains("5000 unknown", "and 4997 more"));
        try (MockCluster cluster = RecordingDispatcher.start()) {
            var meters = new SimpleMeterRegistry();
            var registry = FindingsRegistries.writingOnPublish(new EventRecorder(cluster.client(), meters), meters);
            registry.publish("workloads", Set.of(DEPLOY.toString()), findings);
            assertThat(RecordingDispatcher.of(cluster).writes("/events")).hasSize(1);
        }
    }

    @Test
    void theUnknownKeyFindingNamesTheFirstKeysWhateverTheOrderAndOnlyCountsTheRest() {
        List<Finding> findings =
                AnnotationParser.parse(unknownKeys(100_000), TIERS).findings();
        assertThat(findings).singleElement().satisfies(f -> {
            assertThat(f.key()).isEmpty();
            assertThat(f.message())
                    .startsWith("Deployment/flood/vllm: 100000 unknown topobridge.io/ annotations are ignored: "
                            + "topobridge.io/k00000=\"x\" (metadata), topobridge.io/k00001=\"x\" (metadata),"
                            + " topobridge.io/k00002=\"x\" (metadata) and 99997 more; known keys: ");
        });
        // the same keys in another order (a HashMap's, reversed) are the same finding, message included
        Map<String, String> reversed = new java.util.LinkedHashMap<>();
        List<String> keys =
                new ArrayList<>(unknownKeys(100_000).get(0).annotations().keySet());
        java.util.Collections.reverse(keys);
        keys.forEach(k -> reversed.put(k, k.equals("topobridge.io/highest-tier") ? "1" : "x"));
        assertThat(AnnotationParser.parse(List.of(AnnotationSource.of(DEPLOY, "metadata", reversed)), TIERS)
                        .findings())
                .isEqualTo(findings);
    }

    @Test
    void aSourceKeepsAtMostTheLimitOnOneObjectAndCountsTheRestTruthfully() {
        try (MockCluster cluster = RecordingDispatcher.start()) {
            var meters = new SimpleMeterRegistry();
            var registry = FindingsRegistries.writingOnPublish(new EventRecorder(cluster.client(), meters), meters);
            List<Finding> many = new ArrayList<>();
            for (int i = 0; i < 5000; i++) {
                many.add(Finding.warning(WorkloadReason.UNKNOWN_ANNOTATION, DEPLOY, "unknown " + i)
                        .withKey(String.format("k%04d", i)));
            }
            many.add(Finding.rejected(WorkloadReason.INVALID_ANNOTATION, DEPLOY, "bad tier")
                    .withKey("tier"));
            registry.publish("workloads", Set.of(DEPLOY.toString()), many);
            int max = FindingsRegistries.DEFAULTS.maxPerObject();
            List<Finding> kept = registry.of("workloads");
            assertThat(kept).hasSize(max);
            assertThat(kept)
                    .filteredOn(f -> f.reason() == WorkloadReason.INVALID_ANNOTATION)
                    .hasSize(1);
            assertThat(kept)
                    .filteredOn(f -> f.reason() == io.topobridge.core.finding.FindingReason.TOO_MANY_FINDINGS)
                    .singleElement()
                    .satisfies(f -> assertThat(f.message())
                            .endsWith(": " + (5001 - (max - 1))
                                    + " more findings on this object are not listed (at most " + max
                                    + " are kept per object): " + (5001 - (max - 1)) + " UnknownAnnotation"));
            assertThat(gauge(meters, "UnknownAnnotation")).isEqualTo(max - 2);
            assertThat(gauge(meters, "TooManyFindings")).isEqualTo(1);
            assertThat(meters.find("topobridge.findings.not.listed").gauge().value())
                    .isEqualTo(5001 - (max - 1));
            // their Events: as many as one object's burst allows now, the others later at its rate
            assertThat(RecordingDispatcher.of(cluster).writes("/events"))
                    .hasSize(Math.min(max, FindingsRegistries.DEFAULTS.perObjectBurst()));

            // the same findings in another order: nothing changes, nothing is written
            RecordingDispatcher.of(cluster).clearLog();
            List<Finding> reversed = new ArrayList<>(many);
            java.util.Collections.reverse(reversed);
            registry.publish("workloads", Set.of(DEPLOY.toString()), reversed);
            assertThat(RecordingDispatcher.of(cluster).writes("/events")).isEmpty();
            assertThat(registry.of("workloads")).isEqualTo(kept);

            // all gone: the gauges say so
            registry.publish("workloads", Set.of(DEPLOY.toString()), List.of());
            assertThat(gauge(meters, "UnknownAnnotation")).isZero();
            assertThat(gauge(meters, "TooManyFindings")).isZero();
            assertThat(meters.find("topobridge.findings.not.listed").gauge().value())
                    .isZero();
        }
    }

    private static double gauge(SimpleMeterRegistry meters, String reason) {
        var gauge = meters.find("topobridge.findings")
                .tags("source", "workloads", "reason", reason)
                .gauge();
        return gauge == null ? 0 : gauge.value();
    }

    @Test
    void findingsOfThousandsOfObjectsLogABoundedNumberOfLines() {
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        var capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getLevel().intValue() >= java.util.logging.Level.INFO.intValue()) {
                    lines.add(
                            record instanceof org.jboss.logmanager.ExtLogRecord ext
                                    ? ext.getFormattedMessage()
                                    : record.getMessage());
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        var logger = java.util.logging.Logger.getLogger(FindingsRegistry.class.getName());
        logger.addHandler(capture);
        try (MockCluster cluster = RecordingDispatcher.start()) {
            var meters = new SimpleMeterRegistry();
            // Events are not the point here: a queue that is never drained
            var queue = new EventQueue(
                    new EventRecorder(cluster.client(), meters), FindingsRegistries.DEFAULTS, meters, () -> 0L);
            var registry = new FindingsRegistry(queue, FindingsRegistries.DEFAULTS, meters);
            List<Finding> many = new ArrayList<>();
            for (int i = 0; i < 5000; i++) {
                many.add(Finding.warning(
                        WorkloadReason.UNKNOWN_ANNOTATION,
                        new ObjectRef("apps/v1", "Deployment", "flood", "w" + i, "u" + i),
                        "unknown"));
            }
            registry.publish("workloads", many);
            registry.publish("workloads", List.of());
            // a burst, then one a second; the first line after a gap counts what was left out
            assertThat(lines.size()).isBetween(FindingsRegistry.LOG_BURST, FindingsRegistry.LOG_BURST + 60);
            assertThat(registry.of("workloads")).isEmpty();
            registry.publish("workloads", many.subList(0, 1));
            assertThat(queue.queued()).as("one Event per finding, latest first").isEqualTo(1);
        } finally {
            logger.removeHandler(capture);
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
            var queue = new EventQueue(new EventRecorder(client, meters), FindingsRegistries.DEFAULTS, meters);
            queue.start();
            var registry = new FindingsRegistry(queue, FindingsRegistries.DEFAULTS, meters);
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
            release.countDown();
            queue.close();
        } finally {
            release.countDown();
            server.stop(0);
        }
    }
}

package io.topobridge.controller.topology;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.topobridge.apply.Applier;
import io.topobridge.apply.RecentObjects;
import io.topobridge.cache.HyperNodeCache;
import io.topobridge.cache.KindRegistry;
import io.topobridge.cache.NodeCache;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.findings.EventRecorder;
import io.topobridge.findings.FindingsRegistries;
import io.topobridge.findings.FindingsRegistry;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.volcano.HyperNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The topology controller wired by hand (no CDI) against an in-process mock API server: the real applier,
 * findings registry, event recorder and kind registry, built through their constructors.
 */
public final class Harness implements AutoCloseable {

    public final MockCluster cluster;
    public final TopologyController controller;
    final Tiers tiers = new Tiers();
    final FindingsRegistry findings;
    final KindRegistry kinds;
    final NodeCache nodes;

    private Harness(MockCluster cluster, TopologyController.Options options) {
        this.cluster = cluster;
        KubernetesClient client = cluster.client();
        var meters = new SimpleMeterRegistry();
        this.findings = FindingsRegistries.writingOnPublish(new EventRecorder(client, meters), meters);
        this.kinds = new KindRegistry(client);
        this.nodes = new NodeCache(client);
        this.controller = new TopologyController();
        controller.client = client;
        controller.nodeCache = nodes;
        controller.recent = new RecentObjects();
        controller.applier = new Applier(client, meters, controller.recent);
        controller.findings = findings;
        controller.kinds = kinds;
        controller.hyperNodes = new HyperNodeCache(client, kinds);
        controller.tiers = tiers;
        controller.options = options;
    }

    static TopologyController.Options options(TopologySettings topology) {
        return options(true, topology);
    }

    /** The test timing and Volcano's default scheduler configuration, the controller on or off. */
    static TopologyController.Options options(boolean enabled, TopologySettings topology) {
        return new TopologyController.Options(
                enabled,
                topology,
                Duration.ofMillis(50),
                Duration.ofMillis(500),
                "volcano-system",
                "volcano-scheduler-configmap",
                "volcano-scheduler.conf",
                Accelerators.DEFAULT);
    }

    /** Wires a controller with the given settings and timing (for benchmarks outside this package). */
    public static Harness wire(MockCluster cluster, TopologySettings topology, Duration debounce, Duration maxDelay) {
        return wire(
                cluster,
                new TopologyController.Options(
                        true,
                        topology,
                        debounce,
                        maxDelay,
                        "volcano-system",
                        "volcano-scheduler-configmap",
                        "volcano-scheduler.conf",
                        Accelerators.DEFAULT));
    }

    /** Wires a controller to {@code cluster} without starting it. */
    static Harness wire(MockCluster cluster, TopologyController.Options options) {
        Harness h = new Harness(cluster, options);
        h.kinds.seed();
        return h;
    }

    public Harness start() {
        return start(Duration.ofSeconds(20));
    }

    public Harness start(Duration timeout) {
        controller.start();
        await().atMost(timeout).until(controller::ready);
        return this;
    }

    public long passes() {
        Object passes = controller.details().get("passes");
        return passes == null ? 0 : ((Number) passes).longValue();
    }

    /** Queues a pass with nothing changed, as a node event would. */
    void resync() {
        controller.debouncer.submit("nodes");
    }

    /** Waits until no pass has run for a while (every event handled, every follow-up pass done). */
    public void settle() {
        long[] last = {-1};
        long[] since = {System.nanoTime()};
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    long now = passes();
                    if (now != last[0]) {
                        last[0] = now;
                        since[0] = System.nanoTime();
                        return false;
                    }
                    return System.nanoTime() - since[0] > Duration.ofMillis(400).toNanos();
                });
    }

    /** HyperNodes in the API server, by name. */
    Map<String, HyperNode> hyperNodes() {
        Map<String, HyperNode> out = new TreeMap<>();
        List<HyperNode> list =
                cluster.client().resources(HyperNode.class).list().getItems();
        list.forEach(h -> out.put(h.getMetadata().getName(), h));
        return out;
    }

    int hyperNodeWrites() {
        return RecordingDispatcher.of(cluster)
                .writes("/apis/" + VolcanoApi.TOPOLOGY_GROUP + "/")
                .size();
    }

    @Override
    public void close() {
        controller.stop();
        nodes.stop();
        cluster.close();
    }
}

package io.topobridge.perf;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.topobridge.controller.topology.Harness;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.model.MemberSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * End-to-end relabel latency (not a test): a cluster of N nodes in the mock API server, the topology controller
 * with its production timing (100 ms quiet period), then one node at a time moved to a new NVLink domain. Each
 * latency runs from the label edit to the watch event of the last HyperNode write that reflects it (the leaf
 * listing the new domain). Prints every sample and the median.
 *
 * <p>Run: {@code java -cp <test classpath> io.topobridge.perf.TopologyRelabelLatency [nodes] [relabels]}.
 */
public final class TopologyRelabelLatency {

    /** Held so the level sticks: java.util.logging forgets settings of loggers nobody references. */
    private static final java.util.logging.Logger MOCK_LOG =
            java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    private TopologyRelabelLatency() {}

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int relabels = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
        MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds();
        long t = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        IntStream.range(0, count)
                .forEach(i -> pool.submit(() -> cluster.client()
                        .nodes()
                        .resource(new NodeBuilder()
                                .withNewMetadata()
                                .withName(TopologyClusters.name(i))
                                .withLabels(TopologyClusters.labels(i, false))
                                .endMetadata()
                                .build())
                        .create()));
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.MINUTES);
        System.out.printf("created %d nodes in %d ms%n", count, (System.nanoTime() - t) / 1_000_000);

        t = System.nanoTime();
        Harness harness = Harness.wire(
                        cluster,
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        Duration.ofMillis(100),
                        Duration.ofSeconds(1))
                .start(Duration.ofMinutes(10));
        harness.settle();
        System.out.printf(
                "first sync: %d HyperNodes in %d ms (incl. 400 ms settle); details %s%n",
                cluster.client().resources(HyperNode.class).list().getItems().size(),
                (System.nanoTime() - t) / 1_000_000,
                harness.controller.details());

        record Seen(long at, Watcher.Action action, HyperNode hyperNode) {}
        ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
        Watch watch = cluster.client().resources(HyperNode.class).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, HyperNode hn) {
                seen.add(new Seen(System.nanoTime(), action, hn));
            }

            @Override
            public void onClose(WatcherException cause) {}
        });

        Random random = new Random(7);
        List<Long> samples = new ArrayList<>();
        for (int r = 0; r < relabels; r++) {
            String node = TopologyClusters.name(random.nextInt(count));
            String clique = String.format("feed%04x-0000-4000-8000-%012x.1", r, r);
            String domain = clique.substring(0, clique.lastIndexOf('.'));
            seen.clear();
            long start = System.nanoTime();
            cluster.client()
                    .nodes()
                    .withName(node)
                    .edit(n -> new NodeBuilder(n)
                            .editMetadata()
                            .addToLabels("nvidia.com/gpu.clique", clique)
                            .endMetadata()
                            .build());
            long deadline = start + TimeUnit.SECONDS.toNanos(30);
            Long done = null;
            while (done == null && System.nanoTime() < deadline) {
                String created = null;
                for (Seen s : seen) {
                    if (s.action() == Watcher.Action.ADDED
                            && s.hyperNode().getMetadata().getName().contains(domain)
                            && members(s.hyperNode()).contains(node)) {
                        created = s.hyperNode().getMetadata().getName();
                    }
                }
                if (created != null) {
                    for (Seen s : seen) {
                        if (s.action() == Watcher.Action.MODIFIED
                                && members(s.hyperNode()).contains(created)) {
                            done = s.at();
                        }
                    }
                }
                Thread.sleep(1);
            }
            if (done == null) {
                throw new IllegalStateException("relabel of " + node + " not reflected within 30 s");
            }
            long ms = (done - start) / 1_000_000;
            samples.add(ms);
            System.out.printf("relabel %2d: %s -> new NVLink domain reflected in %d ms%n", r + 1, node, ms);
            harness.settle();
        }
        watch.close();
        Collections.sort(samples);
        System.out.printf(
                "nodes=%d relabels=%d median=%d ms min=%d ms max=%d ms; last pass %s ms%n",
                count,
                relabels,
                samples.get(samples.size() / 2),
                samples.get(0),
                samples.get(samples.size() - 1),
                harness.controller.details().get("lastPassMillis"));
        harness.close();
        System.exit(0);
    }

    private static List<String> members(HyperNode hn) {
        if (hn.getSpec() == null || hn.getSpec().getMembers() == null) {
            return List.of();
        }
        return hn.getSpec().getMembers().stream()
                .map(MemberSpec::getSelector)
                .map(s -> s.getExactMatch() == null ? "" : s.getExactMatch().getName())
                .toList();
    }
}

package io.topobridge.perf.placement;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.e2e.Nodes;
import io.topobridge.e2e.Nvl72Pool;
import io.topobridge.e2e.Placement;
import io.topobridge.e2e.RealCluster;
import io.topobridge.perf.placement.Gangs.Arrival;
import io.topobridge.perf.placement.Gangs.Role;
import io.topobridge.perf.placement.Gangs.Shape;
import io.topobridge.perf.placement.PlacementSystem.Context;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Wide expert parallelism across GB200 NVL72 racks: a pool of four racks of 18 compute trays (4 GPUs each, one NVLink
 * domain per rack) under one leaf switch, and one gang of 24 trays, larger than any NVLink domain, that asks to stay
 * within the leaf. Its all-to-all crosses racks whatever happens; what each system is judged by is how many racks the
 * gang spans against the fewest its size allows (2 on the empty pool: 18 + 6; 2 when 5 trays of every rack are taken:
 * 13 + 11), and the share of its pod pairs that cross a rack.
 */
final class WideEp {

    static final Shape SHAPE = new Shape("ep", 0, List.of(new Role("engine", 24, 4)), "leaf", "hard", null);
    static final Nvl72Pool POOL = new Nvl72Pool("bench-ep");
    private static final int[] TAKEN = {2, 5, 9, 13, 17};
    private static final Duration PLACED = Duration.ofSeconds(180);

    /** Where one wide-EP gang landed in one situation; {@code perRack} empty when it was not placed in time. */
    record Outcome(Situation situation, Map<String, Long> perRack, int fewest, long waitMillis) {

        boolean placed() {
            return !perRack.isEmpty();
        }

        int racks() {
            return perRack.size();
        }

        /** The share of the gang's pod pairs whose pods are on different racks. */
        double crossPairs() {
            long pods = perRack.values().stream().mapToLong(Long::longValue).sum();
            long pairs = pods * (pods - 1) / 2;
            long inside =
                    perRack.values().stream().mapToLong(n -> n * (n - 1) / 2).sum();
            return pairs == 0 ? 0 : (double) (pairs - inside) / pairs;
        }
    }

    private final RealCluster cluster;

    WideEp(RealCluster cluster) {
        this.cluster = cluster;
    }

    /** The fewest racks that hold {@code trays} trays, given the free trays of each rack. */
    static int fewestRacks(Map<String, Integer> free, int trays) {
        int racks = 0;
        int left = trays;
        for (int n : free.values().stream().sorted(Comparator.reverseOrder()).toList()) {
            if (left <= 0) {
                break;
            }
            left -= n;
            racks++;
        }
        return left > 0 ? Integer.MAX_VALUE : racks;
    }

    /** Makes the pool's nodes and waits until the bridge has made each rack an NVLink HyperNode under one leaf. */
    void createPool() {
        List<Node> nodes = new ArrayList<>();
        for (int r = 1; r <= Nvl72Pool.RACKS; r++) {
            for (int t = 1; t <= Nvl72Pool.TRAYS; t++) {
                nodes.add(Nodes.node(POOL.node(r, t))
                        .label("nvidia.com/gpu.present", "true")
                        .label("nvidia.com/gpu.product", "NVIDIA-GB200")
                        .label("nvidia.com/gpu.count", "4")
                        .label("nvidia.com/gpu.clique", "3e8d5a10-6f2b-4c7d-9e1a-benchep0rk%02d.1".formatted(r))
                        .label("fabric.topograph.run/tier-0", "S-bench-ep-leaf")
                        .label("fabric.topograph.run/tier-1", "S-bench-ep-spine")
                        .cpu("140")
                        .memory("940Gi")
                        .gpus(4)
                        .build());
            }
        }
        Nodes.create(cluster.client(), nodes);
        cluster.waitFor("the wide-EP pool's racks as NVLink HyperNodes under one leaf", PLACED, () -> {
            Placement tree = Placement.of(cluster.client());
            return tree.lowestCommon(POOL.nodes())
                            .map(d -> d.tierName().equals("leaf"))
                            .orElse(false)
                    && POOL.nodes().stream().allMatch(n -> tree.ancestors(n).size() >= 4);
        });
    }

    void deletePool() {
        POOL.nodes().forEach(cluster.kubelet()::deleteNode);
    }

    /**
     * The trays taken by other work in each situation, by rack: none; 5 of every rack (spread over the rack, so that no
     * order of the nodes favours the free ones); and unevenly, most from the racks that sort first (10, 10, 5, 0), so
     * that filling the racks in name order spans 3 where 2 would do (18 + 13 free on the last two).
     */
    static final List<Situation> SITUATIONS = List.of(
            new Situation("empty pool", "", new int[][] {{}, {}, {}, {}}),
            new Situation("5 of 18 trays of every rack taken", "_busy", new int[][] {TAKEN, TAKEN, TAKEN, TAKEN}),
            new Situation("10, 10, 5 and 0 trays of the racks taken", "_uneven", new int[][] {
                {1, 2, 4, 5, 7, 9, 11, 13, 15, 17}, {2, 3, 5, 6, 8, 10, 12, 14, 16, 18}, TAKEN, {}
            }));

    /** One situation of the pool: its name, its figures' suffix, and the trays taken in each rack. */
    record Situation(String name, String suffix, int[][] taken) {

        Set<String> takenNodes() {
            Set<String> out = new TreeSet<>();
            for (int r = 0; r < taken.length; r++) {
                for (int t : taken[r]) {
                    out.add(POOL.node(r + 1, t));
                }
            }
            return out;
        }
    }

    /** The wide-EP gang in every situation, on one system. */
    List<Outcome> measure(PlacementSystem system, Context base, String ns) {
        Context context = new Context(base.cluster(), POOL.nodes());
        KubernetesClient client = system.client(context);
        List<Outcome> out = new ArrayList<>();
        int index = 1000;
        for (Situation situation : SITUATIONS) {
            Set<String> taken = situation.takenNodes();
            taken.forEach(n -> client.resource(filler(ns, n)).create());
            try {
                out.add(place(system, context, ns, situation, taken, index++));
            } finally {
                client.pods()
                        .inNamespace(ns)
                        .withLabel("bench.topobridge.io/filler")
                        .withGracePeriod(0)
                        .delete();
                awaitGone(client, ns, "bench.topobridge.io/filler", "true");
            }
        }
        return out;
    }

    private Outcome place(
            PlacementSystem system, Context context, String ns, Situation situation, Set<String> taken, int index) {
        KubernetesClient client = system.client(context);
        Map<String, Integer> free = new TreeMap<>();
        for (String n : POOL.nodes()) {
            if (!taken.contains(n)) {
                free.merge(Nvl72Pool.rackOf(n), 1, Integer::sum);
            }
        }
        int fewest = fewestRacks(free, SHAPE.pods());
        Arrival gang = new Arrival(index, SHAPE, 1);
        long start = System.nanoTime();
        system.arrive(context, ns, gang);
        Map<String, Long> perRack = Map.of();
        long waited = PLACED.toMillis();
        try {
            long deadline = System.nanoTime() + PLACED.toNanos();
            while (System.nanoTime() < deadline) {
                List<Pod> pods = gangPods(client, ns, gang);
                if (pods.size() == SHAPE.pods() && Placement.allBound(pods)) {
                    perRack = pods.stream()
                            .collect(Collectors.groupingBy(
                                    p -> Nvl72Pool.rackOf(p.getSpec().getNodeName()),
                                    TreeMap::new,
                                    Collectors.counting()));
                    waited = Duration.ofNanos(System.nanoTime() - start).toMillis();
                    break;
                }
                RealCluster.sleep(Duration.ofMillis(250));
            }
        } finally {
            system.depart(context, ns, gang);
        }
        awaitGone(client, ns, PlacementBenchmark.GANG_LABEL, gang.gang());
        Outcome outcome = new Outcome(situation, perRack, fewest, waited);
        PlacementBenchmark.say(
                "%s wide-EP, %s: %s",
                system.label(),
                situation.name(),
                outcome.placed()
                        ? "%d trays on %d racks %s (fewest %d), cross-rack pairs %.3f, %d ms"
                                .formatted(
                                        SHAPE.pods(),
                                        outcome.racks(),
                                        perRack.values(),
                                        fewest,
                                        outcome.crossPairs(),
                                        waited)
                        : "not placed within " + PLACED.toSeconds() + " s");
        return outcome;
    }

    private static List<Pod> gangPods(KubernetesClient client, String ns, Arrival gang) {
        return client
                .pods()
                .inNamespace(ns)
                .withLabel(PlacementBenchmark.GANG_LABEL, gang.gang())
                .list()
                .getItems()
                .stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    private void awaitGone(KubernetesClient client, String ns, String label, String value) {
        cluster.waitFor(
                "pods " + label + "=" + value + " in " + ns + " gone",
                Duration.ofSeconds(120),
                () -> client.pods()
                        .inNamespace(ns)
                        .withLabel(label, value)
                        .list()
                        .getItems()
                        .isEmpty());
    }

    /** A pod bound by hand to a tray, taking its four GPUs: another tenant's work. */
    private static Pod filler(String ns, String node) {
        return new PodBuilder(Nvl72Pool.takenTray(node))
                .editMetadata()
                .withNamespace(ns)
                .addToLabels("bench.topobridge.io/filler", "true")
                .endMetadata()
                .editSpec()
                .withTerminationGracePeriodSeconds(0L)
                .endSpec()
                .build();
    }
}

package io.topobridge.perf.placement;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.e2e.Examples;
import io.topobridge.e2e.Placement;
import io.topobridge.e2e.RealCluster;
import io.topobridge.perf.BenchResults;
import io.topobridge.perf.placement.Gangs.Arrival;
import io.topobridge.perf.placement.Gangs.Shape;
import io.topobridge.perf.placement.PlacementSystem.Context;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * Gangs placed under load by each system of {@link Systems}, the same seeded arrivals offered to every one: the
 * bridge with the tiers the examples choose by hand, with {@code highest-tier: auto} and its variants, and Volcano
 * without topology (see each system's class).
 *
 * <p>The arrivals are a seeded sequence of the examples' gang shapes ({@link Gangs}) on the example GPU cluster (50
 * GB200 trays, 200 GPUs): a tensor-parallel group of 4 trays (the LeaderWorkerSet example), one of 9 trays (the
 * NVLink-partition example), and three prefill/decode pairs (the llm-d Deployments, the DisaggregatedSet slice and
 * the StormService). One gang arrives per step and leaves after its lifetime (10 to 30 steps in the full run), which
 * offers about 1.1 times the cluster's GPUs; a step lasts until the new gang is bound (and at least the step's minimum,
 * 1 s in the full run) or {@link #STEP_MAX} passed.
 * A gang counts as placed when all its pods were bound before it left; where it was placed is read then, against
 * the bridge's HyperNodes (the same tree for every run). After the arrivals, each system places the {@link WideEp}
 * gang on a pool of NVL72 racks of its own.
 */
public final class PlacementBenchmark {

    static final String GANG_LABEL = "bench.topobridge.io/gang";
    static final String ROLE_LABEL = "bench.topobridge.io/role";
    private static final Duration STEP_MAX = Duration.ofMillis(4000);

    private final RealCluster cluster;
    private final BenchResults results;
    private final List<Arrival> arrivals;
    private final List<String> gpuNodes;
    private final long seed;
    /** The least a step lasts, the new gang bound or not: the time base of the lifetimes. */
    private final Duration stepMin;

    private final List<PlacementSystem> systems;
    private final WideEp wideEp;

    /**
     * {@code seed}: the arrival sequence's (13 in the README's runs); {@code stepMin}: the least a step lasts;
     * {@code systems}: the runs to make, in {@link Systems}' order (a run left out has no figures, and the ratios to
     * it are left out).
     */
    PlacementBenchmark(
            RealCluster cluster,
            BenchResults results,
            int arrivals,
            int minLifetime,
            int maxLifetime,
            long seed,
            Duration stepMin,
            List<PlacementSystem> systems,
            boolean wideEp) {
        if (systems.isEmpty()) {
            throw new IllegalArgumentException("no placement run chosen");
        }
        this.cluster = cluster;
        this.results = results;
        this.seed = seed;
        this.stepMin = stepMin;
        this.systems = List.copyOf(systems);
        this.wideEp = wideEp ? new WideEp(cluster) : null;
        this.arrivals = Gangs.arrivals(arrivals, minLifetime, maxLifetime, new Random(seed));
        this.gpuNodes = Examples.ensureNodes(cluster.client()).stream()
                .filter(n -> n.getStatus().getAllocatable().containsKey("nvidia.com/gpu"))
                .map(n -> n.getMetadata().getName())
                .sorted()
                .toList();
    }

    static void say(String format, Object... args) {
        System.out.println("[placement] " + String.format(format, args));
    }

    /** The runs, by label, then their figures. */
    Map<String, Run> run() {
        Map<String, Run> runs = new LinkedHashMap<>();
        Context context = new Context(cluster, gpuNodes);
        try {
            // the bridge's HyperNodes are the tree every run is judged by; runs without the bridge keep them
            cluster.bridge();
            awaitTree();
            if (wideEp != null) {
                wideEp.createPool();
            }
            for (PlacementSystem system : systems) {
                try (system) {
                    system.open(context);
                    runs.put(system.label(), run(system, context));
                }
            }
        } finally {
            cluster.stopBridge();
            if (wideEp != null) {
                wideEp.deletePool();
            }
        }
        new PlacementFigures(results, arrivals, seed, gpuNodes.size()).record(runs);
        return runs;
    }

    private void awaitTree() {
        cluster.waitFor("the bridge's HyperNodes over every example GPU node", Duration.ofSeconds(120), () -> {
            Placement tree = Placement.of(cluster.client());
            return gpuNodes.stream().allMatch(n -> tree.ancestors(n).size() >= 4);
        });
    }

    /** One run of the arrivals on one system. */
    private Run run(PlacementSystem system, Context context) {
        KubernetesClient client = system.client(context);
        String ns = "bench-place-" + system.label();
        client.resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(ns)
                        .withLabels(system.namespaceLabels())
                        .endMetadata()
                        .build())
                .create();
        cluster.waitFor(
                "the default ServiceAccount in " + ns,
                Duration.ofSeconds(60),
                () -> client.serviceAccounts()
                                .inNamespace(ns)
                                .withName("default")
                                .get()
                        != null);
        system.prepare(context, ns);
        // the tree is the main cluster's: every run is judged by the same HyperNodes
        Placement tree = Placement.of(cluster.client());
        int top = gpuNodes.stream()
                        .flatMap(n -> tree.ancestors(n).stream())
                        .mapToInt(Placement.Domain::tier)
                        .max()
                        .orElse(0)
                + 1;
        Judge judge = new Judge(system, context, ns, tree, top);

        long start = System.nanoTime();
        Map<Integer, Long> arrivedAt = new HashMap<>();
        Map<Integer, Run.Placed> placed = new LinkedHashMap<>();
        List<Arrival> live = new ArrayList<>();
        int step = 0;
        try {
            while (step < arrivals.size() || !live.isEmpty()) {
                int now = step;
                for (Arrival gone : live.stream()
                        .filter(a -> a.index() + a.lifetime() <= now)
                        .toList()) {
                    system.depart(context, ns, gone);
                    live.remove(gone);
                }
                Arrival arriving = step < arrivals.size() ? arrivals.get(step) : null;
                if (arriving != null) {
                    system.arrive(context, ns, arriving);
                    arrivedAt.put(arriving.index(), System.nanoTime());
                    live.add(arriving);
                }
                long stepStart = System.nanoTime();
                while (true) {
                    observe(client, ns, live, arrivedAt, placed, judge);
                    long elapsed = System.nanoTime() - stepStart;
                    boolean settled = arriving == null || placed.containsKey(arriving.index());
                    if (elapsed >= STEP_MAX.toNanos() || (settled && elapsed >= stepMin.toNanos())) {
                        break;
                    }
                    RealCluster.sleep(Duration.ofMillis(200));
                }
                if (step % 20 == 0) {
                    say("%s step %d: %d live, %d placed so far", system.label(), step, live.size(), placed.size());
                }
                step++;
            }
            long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
            Run run = new Run(
                    system,
                    arrivals.size(),
                    List.copyOf(placed.values()),
                    millis,
                    wideEp == null ? List.of() : wideEp.measure(system, context, ns));
            report(run);
            return run;
        } finally {
            client.namespaces().withName(ns).delete();
            cluster.waitFor(
                    "namespace " + ns + " gone",
                    Duration.ofSeconds(180),
                    () -> client.namespaces().withName(ns).get() == null);
        }
    }

    private static void report(Run run) {
        String label = run.system().label();
        say(
                "%s: placed %d of %d (%s), mean tier %.2f, P/D tier %.2f, TP tier %.2f, within hard tiers %.3f of %d"
                        + " checks, median wait %.0f ms, %d s",
                label,
                run.placed().size(),
                run.arrivals(),
                Gangs.SHAPES.stream()
                        .map(s -> s.name() + " " + run.placedOf(s.name()))
                        .collect(Collectors.joining(", ")),
                run.meanTier(),
                run.pdTier(),
                run.tensorParallelTier(),
                run.withinTier(),
                run.hardChecks(),
                run.medianWaitMillis(),
                run.millis() / 1000);
        say(
                "%s: P/D tier by shape: %s",
                label,
                Gangs.SHAPES.stream()
                        .filter(Shape::prefillDecode)
                        .map(s -> String.format("%s %.2f", s.name(), run.pdTierOf(s.name())))
                        .collect(Collectors.joining(", ")));
        say(
                "%s: tensor-parallel gangs placed above one NVLink partition: %s",
                label,
                run.placed().stream()
                        .filter(p -> !p.arrival().shape().prefillDecode() && p.tier() > 1)
                        .map(p -> p.arrival().gang() + " tier " + p.tier() + " after " + p.waitMillis() + " ms")
                        .collect(Collectors.joining(", ")));
    }

    /** One list of the namespace's pods: every live gang whose pods are all bound is placed now. */
    private static void observe(
            KubernetesClient client,
            String ns,
            List<Arrival> live,
            Map<Integer, Long> arrivedAt,
            Map<Integer, Run.Placed> placed,
            Judge judge) {
        List<Arrival> waiting =
                live.stream().filter(a -> !placed.containsKey(a.index())).toList();
        if (waiting.isEmpty()) {
            return;
        }
        Map<String, List<Pod>> byGang = client.pods().inNamespace(ns).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .filter(p -> p.getMetadata().getLabels() != null
                        && p.getMetadata().getLabels().containsKey(GANG_LABEL))
                .collect(Collectors.groupingBy(p -> p.getMetadata().getLabels().get(GANG_LABEL)));
        for (Arrival a : waiting) {
            List<Pod> pods = byGang.getOrDefault(a.gang(), List.of());
            if (pods.size() != a.shape().pods() || !Placement.allBound(pods)) {
                continue;
            }
            long wait = Duration.ofNanos(System.nanoTime() - arrivedAt.get(a.index()))
                    .toMillis();
            placed.put(a.index(), judge.placed(a, pods, wait));
        }
    }

    /** Where a placed gang landed, read against the tree every run is judged by. */
    private record Judge(PlacementSystem system, Context context, String ns, Placement tree, int top) {

        private int tierOf(List<String> nodes) {
            if (nodes.stream().distinct().count() == 1) {
                return 0;
            }
            return tree.lowestCommon(nodes).map(Placement.Domain::tier).orElse(top);
        }

        Run.Placed placed(Arrival a, List<Pod> pods, long wait) {
            List<String> all = pods.stream().map(p -> p.getSpec().getNodeName()).toList();
            Map<String, List<String>> byRole =
                    Placement.nodesBy(pods, p -> p.getMetadata().getLabels().get(ROLE_LABEL));
            int tier = tierOf(all);
            double pdTier = Double.NaN;
            if (a.shape().prefillDecode()) {
                // each prefill pod with the nearest decode pod of its gang
                List<String> decodes = byRole.getOrDefault("decode", List.of());
                pdTier = byRole.getOrDefault("prefill", List.of()).stream()
                        .mapToInt(p -> decodes.stream()
                                .mapToInt(d -> tierOf(List.of(p, d)))
                                .min()
                                .orElse(top))
                        .average()
                        .orElse(Double.NaN);
            }
            int checks = 0;
            int kept = 0;
            for (Map.Entry<String, Integer> e : system.hardTiers(context, ns, a).entrySet()) {
                List<String> nodes = e.getKey().isEmpty() ? all : byRole.getOrDefault(e.getKey(), List.of());
                checks++;
                if (tierOf(nodes) <= e.getValue()) {
                    kept++;
                } else {
                    say(
                            "%s %s: %s at tier %d above its hard tier %d (nodes %s)",
                            system.label(),
                            a.gang(),
                            e.getKey().isEmpty() ? "gang" : e.getKey(),
                            tierOf(nodes),
                            e.getValue(),
                            nodes);
                }
            }
            return new Run.Placed(a, wait, tier, pdTier, checks, kept);
        }
    }
}

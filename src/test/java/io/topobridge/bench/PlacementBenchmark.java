package io.topobridge.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.bench.BenchResults.Figure;
import io.topobridge.e2e.Bridge;
import io.topobridge.e2e.Examples;
import io.topobridge.e2e.Placement;
import io.topobridge.e2e.RealCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * Gangs placed by the real Volcano scheduler under load, the same arrivals five times: with the tiers the examples
 * choose by hand, with {@code highest-tier: auto} (the bridge's defaults), with {@code auto} and the modes the
 * hand-chosen run writes, with {@code auto} and another wait for room
 * ({@code topobridge.workloads.auto-wait-for-room}, e.g. 0 s: soft at once), and as topology-unaware gangs (the bridge stopped; each gang a
 * PodGroup with its size and resources only, as Volcano users write them without the bridge).
 *
 * <p>The arrivals are a seeded sequence of the examples' gang shapes as Deployments on the example GPU cluster (50
 * GB200 trays, 200 GPUs): a tensor-parallel group of 4 trays (the LeaderWorkerSet example), one of 9 trays (the
 * NVLink-partition example), and three prefill/decode pairs (the llm-d Deployments, the DisaggregatedSet slice and
 * the StormService). One gang arrives per step and leaves after its lifetime (10 to 30 steps in the full run), which
 * offers about 1.1 times the cluster's GPUs; a step lasts until the new gang is bound or {@link #STEP_MAX} passed.
 * A gang counts as placed when all its pods were bound before it left; where it was placed is read then, against
 * the bridge's HyperNodes (the same tree for every run).
 */
final class PlacementBenchmark {

    static final String GANG_LABEL = "bench.topobridge.io/gang";
    static final String ROLE_LABEL = "bench.topobridge.io/role";
    private static final Duration STEP_MIN = Duration.ofMillis(1000);
    private static final Duration STEP_MAX = Duration.ofMillis(4000);
    private static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";

    /** One role of a gang shape: its Deployment's replicas and the GPUs of each pod. */
    record Role(String name, int replicas, int gpus) {}

    /**
     * A gang shape of the examples, with the tiers the examples choose for it by hand: the gang's tier name and
     * mode, and the tier name of each role (null: none).
     */
    record Shape(String name, int weight, List<Role> roles, String tier, String mode, String roleTier) {

        boolean prefillDecode() {
            return roles.size() > 1;
        }

        int pods() {
            return roles.stream().mapToInt(Role::replicas).sum();
        }

        int gpus() {
            return roles.stream().mapToInt(r -> r.replicas() * r.gpus()).sum();
        }
    }

    static final List<Shape> SHAPES = List.of(
            new Shape("tp", 3, List.of(new Role("engine", 4, 4)), "nvlink", "hard", null),
            new Shape("tp9", 1, List.of(new Role("engine", 9, 4)), "nvlink", "hard", null),
            new Shape(
                    "llmd", 3, List.of(new Role("prefill", 2, 1), new Role("decode", 1, 2)), "leaf", "hard", "nvlink"),
            new Shape("ds", 2, List.of(new Role("prefill", 2, 1), new Role("decode", 2, 4)), "leaf", "soft", "nvlink"),
            new Shape(
                    "storm",
                    2,
                    List.of(new Role("prefill", 1, 1), new Role("decode", 1, 1)),
                    "leaf",
                    "hard",
                    "nvlink"));

    /** Tier numbers of the example tree's tier names (the bridge's default preset on the example labels). */
    private static final Map<String, Integer> TIERS = Map.of("nvlink", 1, "nvlink-domain", 2, "leaf", 3, "spine", 4);

    enum Variant {
        HAND,
        AUTO,
        /**
         * {@code auto} tiers with the modes the hand-chosen run writes: the tier choice judged on its own, the mode
         * being the user's to override.
         */
        AUTO_MODE,
        /** {@code auto} run by a bridge with another {@code topobridge.workloads.auto-wait-for-room}. */
        AUTO_WAIT,
        UNAWARE;

        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        String prefix() {
            return this == HAND ? "placement_" : "placement_" + name().toLowerCase(Locale.ROOT) + "_";
        }

        boolean auto() {
            return this == AUTO || this == AUTO_MODE || this == AUTO_WAIT;
        }

        /** Runs named by their labels, comma-separated ({@code hand,auto-mode}); an unknown name is refused. */
        static java.util.Set<Variant> parse(String names) {
            java.util.Set<Variant> out = java.util.EnumSet.noneOf(Variant.class);
            for (String name : names.split(",")) {
                String n = name.trim();
                if (n.isEmpty()) {
                    continue;
                }
                out.add(Arrays.stream(values())
                        .filter(v -> v.label().equals(n))
                        .findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("bench.placementRuns: unknown run '"
                                + (n.length() > 40 ? n.substring(0, 40) + "…" : n) + "', known: "
                                + Arrays.stream(values()).map(Variant::label).collect(Collectors.joining(",")))));
            }
            return out;
        }
    }

    /** Gang {@code index} arrives at step {@code index} and leaves at step {@code index + lifetime}. */
    record Arrival(int index, Shape shape, int lifetime) {

        String gang() {
            return shape.name() + "-" + index;
        }
    }

    /** Where one gang was placed: its tiers, and whether it kept within the hard tiers it asked for. */
    record Placed(Arrival arrival, long waitMillis, int tier, double pdTier, int hardChecks, int hardKept) {}

    /** The outcome of one run. */
    record Run(Variant variant, int arrivals, List<Placed> placed, long millis) {

        double placedFraction() {
            return arrivals == 0 ? 0 : (double) placed.size() / arrivals;
        }

        double meanTier() {
            return placed.stream().mapToInt(Placed::tier).average().orElse(Double.NaN);
        }

        double tensorParallelTier() {
            return placed.stream()
                    .filter(p -> !p.arrival().shape().prefillDecode())
                    .mapToInt(Placed::tier)
                    .average()
                    .orElse(Double.NaN);
        }

        double pdTier() {
            return placed.stream()
                    .filter(p -> p.arrival().shape().prefillDecode())
                    .mapToDouble(Placed::pdTier)
                    .average()
                    .orElse(Double.NaN);
        }

        double withinTier() {
            int checks = placed.stream().mapToInt(Placed::hardChecks).sum();
            int kept = placed.stream().mapToInt(Placed::hardKept).sum();
            return checks == 0 ? Double.NaN : (double) kept / checks;
        }

        int hardChecks() {
            return placed.stream().mapToInt(Placed::hardChecks).sum();
        }

        double medianWaitMillis() {
            double[] waits =
                    placed.stream().mapToDouble(Placed::waitMillis).sorted().toArray();
            return waits.length == 0 ? Double.NaN : waits[waits.length / 2];
        }

        /** The mean tier over the placed gangs that {@code other} placed too, of the kind asked for. */
        double tierOnGangsAlsoPlacedBy(Run other, boolean prefillDecode) {
            return sameGangs(other, prefillDecode)
                    .mapToDouble(p -> prefillDecode ? p.pdTier() : p.tier())
                    .average()
                    .orElse(Double.NaN);
        }

        int gangsAlsoPlacedBy(Run other, boolean prefillDecode) {
            return (int) sameGangs(other, prefillDecode).count();
        }

        private java.util.stream.Stream<Placed> sameGangs(Run other, boolean prefillDecode) {
            java.util.Set<Integer> theirs =
                    other.placed().stream().map(p -> p.arrival().index()).collect(Collectors.toSet());
            return placed.stream()
                    .filter(p -> p.arrival().shape().prefillDecode() == prefillDecode)
                    .filter(p -> theirs.contains(p.arrival().index()));
        }

        long placedOf(String shape) {
            return placed.stream()
                    .filter(p -> p.arrival().shape().name().equals(shape))
                    .count();
        }

        /** The P/D tier over the placed gangs of one prefill/decode shape. */
        double pdTierOf(String shape) {
            return placed.stream()
                    .filter(p -> p.arrival().shape().name().equals(shape))
                    .mapToDouble(Placed::pdTier)
                    .average()
                    .orElse(Double.NaN);
        }
    }

    private final RealCluster cluster;
    private final BenchResults results;
    private final List<Arrival> arrivals;
    private final List<String> gpuNodes;

    private final Duration autoWait;
    private final long seed;
    private final java.util.Set<Variant> variants;

    /**
     * {@code seed}: the arrival sequence's (13 in the README's runs); {@code variants}: the runs to make, in their
     * declared order (a run left out has no figures, and the ratios to it are left out).
     */
    PlacementBenchmark(
            RealCluster cluster,
            BenchResults results,
            int arrivals,
            int minLifetime,
            int maxLifetime,
            Duration autoWait,
            long seed,
            java.util.Set<Variant> variants) {
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("no placement run chosen");
        }
        this.cluster = cluster;
        this.autoWait = autoWait;
        this.results = results;
        this.seed = seed;
        this.variants = java.util.EnumSet.copyOf(variants);
        this.arrivals = arrivals(arrivals, minLifetime, maxLifetime, new Random(seed));
        this.gpuNodes = Examples.ensureNodes(cluster.client()).stream()
                .filter(n -> n.getStatus().getAllocatable().containsKey("nvidia.com/gpu"))
                .map(n -> n.getMetadata().getName())
                .sorted()
                .toList();
    }

    /** The seeded arrival sequence, the same for every run. */
    static List<Arrival> arrivals(int count, int minLifetime, int maxLifetime, Random random) {
        int total = SHAPES.stream().mapToInt(Shape::weight).sum();
        List<Arrival> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int pick = random.nextInt(total);
            Shape shape = null;
            for (Shape s : SHAPES) {
                pick -= s.weight();
                if (pick < 0) {
                    shape = s;
                    break;
                }
            }
            out.add(new Arrival(i, shape, minLifetime + random.nextInt(maxLifetime - minLifetime + 1)));
        }
        return out;
    }

    List<Arrival> arrivals() {
        return arrivals;
    }

    private KubernetesClient client() {
        return cluster.client();
    }

    private static void say(String format, Object... args) {
        System.out.println("[placement] " + String.format(format, args));
    }

    /** The runs, then their figures. */
    Map<Variant, Run> run() {
        Map<Variant, Run> runs = new LinkedHashMap<>();
        try {
            // the bridge's HyperNodes are the tree every run is judged by; the unaware run keeps them (stopped)
            cluster.bridge();
            awaitTree();
            for (Variant v : variants) {
                runs.put(v, run(v));
            }
        } finally {
            cluster.stopBridge();
        }
        record(runs);
        return runs;
    }

    private void awaitTree() {
        cluster.waitFor("the bridge's HyperNodes over every example GPU node", Duration.ofSeconds(120), () -> {
            Placement tree = Placement.of(client());
            return gpuNodes.stream().allMatch(n -> tree.ancestors(n).size() >= 4);
        });
    }

    private String namespace(Variant v) {
        return "bench-place-" + v.label();
    }

    private Run run(Variant variant) {
        if (variant != Variant.AUTO_WAIT) {
            return run(variant, variant == Variant.UNAWARE ? null : cluster.bridge());
        }
        cluster.stopBridge();
        try (Bridge waiting = Bridge.on(cluster, "topobridge-auto-wait")
                .set("topobridge.workloads.auto-wait-for-room", autoWait.toMillis() + "ms")
                .start()
                .awaitReady(Duration.ofSeconds(120))) {
            return run(variant, waiting);
        }
    }

    /** One run; {@code bridge}: the bridge that serves it, null for the unaware run (the default one is stopped). */
    private Run run(Variant variant, Bridge bridge) {
        if (bridge == null) {
            cluster.stopBridge();
        }
        String ns = namespace(variant);
        NamespaceBuilder namespace =
                new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata();
        if (variant != Variant.UNAWARE) {
            namespace
                    .editMetadata()
                    .addToLabels("topobridge.io/enabled", "true")
                    .endMetadata();
        }
        client().resource(namespace.build()).create();
        cluster.waitFor(
                "the default ServiceAccount in " + ns,
                Duration.ofSeconds(60),
                () -> client().serviceAccounts()
                                .inNamespace(ns)
                                .withName("default")
                                .get()
                        != null);
        Placement tree = Placement.of(client());
        int top = gpuNodes.stream()
                        .flatMap(n -> tree.ancestors(n).stream())
                        .mapToInt(Placement.Domain::tier)
                        .max()
                        .orElse(0)
                + 1;

        long start = System.nanoTime();
        Map<Integer, Long> arrivedAt = new HashMap<>();
        Map<Integer, Placed> placed = new LinkedHashMap<>();
        List<Arrival> live = new ArrayList<>();
        int step = 0;
        try {
            while (step < arrivals.size() || !live.isEmpty()) {
                int now = step;
                for (Arrival gone : live.stream()
                        .filter(a -> a.index() + a.lifetime() <= now)
                        .toList()) {
                    depart(variant, ns, gone);
                    live.remove(gone);
                }
                Arrival arriving = step < arrivals.size() ? arrivals.get(step) : null;
                if (arriving != null) {
                    arrive(variant, ns, arriving);
                    arrivedAt.put(arriving.index(), System.nanoTime());
                    live.add(arriving);
                }
                long stepStart = System.nanoTime();
                while (true) {
                    observe(variant, ns, live, arrivedAt, placed, top);
                    long elapsed = System.nanoTime() - stepStart;
                    boolean settled = arriving == null || placed.containsKey(arriving.index());
                    if (elapsed >= STEP_MAX.toNanos() || (settled && elapsed >= STEP_MIN.toNanos())) {
                        break;
                    }
                    RealCluster.sleep(Duration.ofMillis(200));
                }
                if (step % 20 == 0) {
                    say("%s step %d: %d live, %d placed so far", variant.label(), step, live.size(), placed.size());
                }
                step++;
            }
        } finally {
            client().namespaces().withName(ns).delete();
            cluster.waitFor(
                    "namespace " + ns + " gone",
                    Duration.ofSeconds(180),
                    () -> client().namespaces().withName(ns).get() == null);
        }
        Run run = new Run(
                variant,
                arrivals.size(),
                List.copyOf(placed.values()),
                Duration.ofNanos(System.nanoTime() - start).toMillis());
        say(
                "%s: placed %d of %d (%s), mean tier %.2f, P/D tier %.2f, TP tier %.2f, within hard tiers %.3f of %d"
                        + " checks, median wait %.0f ms, %d s",
                variant.label(),
                run.placed().size(),
                run.arrivals(),
                SHAPES.stream()
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
                variant.label(),
                SHAPES.stream()
                        .filter(Shape::prefillDecode)
                        .map(s -> String.format("%s %.2f", s.name(), run.pdTierOf(s.name())))
                        .collect(Collectors.joining(", ")));
        say(
                "%s: tensor-parallel gangs placed above one NVLink partition: %s",
                variant.label(),
                run.placed().stream()
                        .filter(p -> !p.arrival().shape().prefillDecode() && p.tier() > 1)
                        .map(p -> p.arrival().gang() + " tier " + p.tier() + " after " + p.waitMillis() + " ms")
                        .collect(Collectors.joining(", ")));
        return run;
    }

    // ------------------------------------------------------------------ arrivals and departures

    private static String podGroupName(Variant variant, Arrival a) {
        if (variant == Variant.UNAWARE) {
            return "pg-" + a.gang();
        }
        return (a.shape().prefillDecode() ? "tb-group-" : "tb-deploy-") + a.gang();
    }

    private static String deploymentName(Arrival a, Role role) {
        return a.shape().prefillDecode() ? a.gang() + "-" + role.name() : a.gang();
    }

    private void arrive(Variant variant, String ns, Arrival a) {
        if (variant == Variant.UNAWARE) {
            client().resource(unawarePodGroup(ns, a)).create();
        }
        boolean first = true;
        for (Role role : a.shape().roles()) {
            client().resource(deployment(variant, ns, a, role, first)).create();
            first = false;
        }
    }

    private void depart(Variant variant, String ns, Arrival a) {
        client().apps()
                .deployments()
                .inNamespace(ns)
                .withLabel(GANG_LABEL, a.gang())
                .delete();
        if (variant == Variant.UNAWARE) {
            client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                    .inNamespace(ns)
                    .withName(podGroupName(variant, a))
                    .delete();
        }
    }

    /** What a Volcano user writes for a gang without the bridge: its size and resources, no topology. */
    private static GenericKubernetesResource unawarePodGroup(String ns, Arrival a) {
        Shape s = a.shape();
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withName(podGroupName(Variant.UNAWARE, a))
                .withNamespace(ns)
                .endMetadata()
                .addToAdditionalProperties(
                        "spec",
                        Map.of(
                                "minMember",
                                s.pods(),
                                "queue",
                                "default",
                                "minResources",
                                Map.of(
                                        "cpu",
                                        String.valueOf(4 * s.pods()),
                                        "memory",
                                        (16 * s.pods()) + "Gi",
                                        "nvidia.com/gpu",
                                        String.valueOf(s.gpus()))))
                .build();
    }

    private Map<String, String> annotations(Variant variant, Arrival a, boolean first) {
        Map<String, String> out = new LinkedHashMap<>();
        if (variant == Variant.UNAWARE) {
            return out;
        }
        Shape s = a.shape();
        if (s.prefillDecode()) {
            out.put("topobridge.io/group", a.gang());
        }
        if (!first) {
            return out;
        }
        if (variant.auto()) {
            out.put("topobridge.io/highest-tier", "auto");
            if (variant == Variant.AUTO_MODE) {
                out.put("topobridge.io/mode", s.mode());
            }
            if (s.roleTier() != null) {
                out.put("topobridge.io/subgroup-highest-tier", "auto");
            }
        } else {
            out.put("topobridge.io/highest-tier", s.tier());
            out.put("topobridge.io/mode", s.mode());
            if (s.roleTier() != null) {
                out.put("topobridge.io/subgroup-highest-tier", s.roleTier());
            }
        }
        return out;
    }

    private Deployment deployment(Variant variant, String ns, Arrival a, Role role, boolean first) {
        String name = deploymentName(a, role);
        Map<String, String> podAnnotations = variant == Variant.UNAWARE
                ? Map.of("scheduling.k8s.io/group-name", podGroupName(variant, a))
                : Map.of();
        DeploymentBuilder d = new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .addToLabels(GANG_LABEL, a.gang())
                .withAnnotations(annotations(variant, a, first))
                .endMetadata()
                .withNewSpec()
                .withReplicas(role.replicas())
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", name)
                .addToLabels(GANG_LABEL, a.gang())
                .addToLabels(ROLE_LABEL, role.name())
                .withAnnotations(podAnnotations)
                .endMetadata()
                .withNewSpec()
                .withTerminationGracePeriodSeconds(0L)
                .withNewAffinity()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("kubernetes.io/hostname")
                .withOperator("In")
                .withValues(gpuNodes)
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .endAffinity()
                .addNewContainer()
                .withName("engine")
                .withImage("registry.k8s.io/pause:3.10")
                .withNewResources()
                .withLimits(Map.of(
                        "cpu",
                        new Quantity("4"),
                        "memory",
                        new Quantity("16Gi"),
                        "nvidia.com/gpu",
                        new Quantity(String.valueOf(role.gpus()))))
                .endResources()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec();
        if (variant == Variant.UNAWARE) {
            d.editSpec()
                    .editTemplate()
                    .editSpec()
                    .withSchedulerName("volcano")
                    .endSpec()
                    .endTemplate()
                    .endSpec();
        }
        return d.build();
    }

    // ------------------------------------------------------------------ observation

    /** One list of the namespace's pods: every live gang whose pods are all bound is placed now. */
    private void observe(
            Variant variant,
            String ns,
            List<Arrival> live,
            Map<Integer, Long> arrivedAt,
            Map<Integer, Placed> placed,
            int top) {
        List<Arrival> waiting =
                live.stream().filter(a -> !placed.containsKey(a.index())).toList();
        if (waiting.isEmpty()) {
            return;
        }
        Map<String, List<Pod>> byGang = client().pods().inNamespace(ns).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .filter(p -> p.getMetadata().getLabels() != null
                        && p.getMetadata().getLabels().containsKey(GANG_LABEL))
                .collect(Collectors.groupingBy(p -> p.getMetadata().getLabels().get(GANG_LABEL)));
        Placement tree = null;
        for (Arrival a : waiting) {
            List<Pod> pods = byGang.getOrDefault(a.gang(), List.of());
            if (pods.size() != a.shape().pods() || !Placement.allBound(pods)) {
                continue;
            }
            if (tree == null) {
                tree = Placement.of(client());
            }
            long wait = Duration.ofNanos(System.nanoTime() - arrivedAt.get(a.index()))
                    .toMillis();
            placed.put(a.index(), placed(variant, ns, a, pods, tree, top, wait));
        }
    }

    private static int tierOf(Placement tree, List<String> nodes, int top) {
        if (nodes.stream().distinct().count() == 1) {
            return 0;
        }
        return tree.lowestCommon(nodes).map(Placement.Domain::tier).orElse(top);
    }

    private Placed placed(Variant variant, String ns, Arrival a, List<Pod> pods, Placement tree, int top, long wait) {
        List<String> all = pods.stream().map(p -> p.getSpec().getNodeName()).toList();
        Map<String, List<String>> byRole =
                Placement.nodesBy(pods, p -> p.getMetadata().getLabels().get(ROLE_LABEL));
        int tier = tierOf(tree, all, top);
        double pdTier = Double.NaN;
        if (a.shape().prefillDecode()) {
            // each prefill pod with the nearest decode pod of its gang
            List<String> decodes = byRole.getOrDefault("decode", List.of());
            pdTier = byRole.getOrDefault("prefill", List.of()).stream()
                    .mapToInt(p -> decodes.stream()
                            .mapToInt(d -> tierOf(tree, List.of(p, d), top))
                            .min()
                            .orElse(top))
                    .average()
                    .orElse(Double.NaN);
        }
        // the hard tiers the gang asked for: the PodGroup's own for the bridge's runs, the examples' hand-chosen
        // ones for the unaware run (would it have kept them by chance?)
        Map<String, Integer> hardTiers = new LinkedHashMap<>();
        if (variant == Variant.UNAWARE) {
            Shape s = a.shape();
            if ("hard".equals(s.mode())) {
                hardTiers.put("", TIERS.get(s.tier()));
            }
            if (s.roleTier() != null) {
                s.roles().forEach(r -> hardTiers.put(r.name(), TIERS.get(s.roleTier())));
            }
        } else {
            hardTiers.putAll(hardTiersOf(ns, podGroupName(variant, a), a));
        }
        int checks = 0;
        int kept = 0;
        for (Map.Entry<String, Integer> e : hardTiers.entrySet()) {
            List<String> nodes = e.getKey().isEmpty() ? all : byRole.getOrDefault(e.getKey(), List.of());
            checks++;
            if (tierOf(tree, nodes, top) <= e.getValue()) {
                kept++;
            } else {
                say(
                        "%s %s: %s at tier %d above its hard tier %d (nodes %s)",
                        variant.label(),
                        a.gang(),
                        e.getKey().isEmpty() ? "gang" : e.getKey(),
                        tierOf(tree, nodes, top),
                        e.getValue(),
                        nodes);
            }
        }
        return new Placed(a, wait, tier, pdTier, checks, kept);
    }

    /** The hard tiers of a bridge PodGroup: "" for the gang, the role for each subgroup. */
    @SuppressWarnings("unchecked")
    private Map<String, Integer> hardTiersOf(String ns, String name, Arrival a) {
        GenericKubernetesResource pg = client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(ns)
                .withName(name)
                .get();
        Map<String, Integer> out = new LinkedHashMap<>();
        if (pg == null) {
            return out;
        }
        Map<String, Object> spec =
                (Map<String, Object>) pg.getAdditionalProperties().get("spec");
        Map<String, Object> topology = (Map<String, Object>) spec.get("networkTopology");
        if (topology != null && "hard".equals(topology.get("mode"))) {
            out.put("", ((Number) topology.get("highestTierAllowed")).intValue());
        }
        for (Map<String, Object> sub : (List<Map<String, Object>>) spec.getOrDefault("subGroupPolicy", List.of())) {
            Map<String, Object> t = (Map<String, Object>) sub.get("networkTopology");
            if (t == null || !"hard".equals(t.get("mode"))) {
                continue;
            }
            String subgroup = String.valueOf(sub.get("name"));
            for (Role role : a.shape().roles()) {
                if (subgroup.equals("deploy-" + deploymentName(a, role))) {
                    out.put(role.name(), ((Number) t.get("highestTierAllowed")).intValue());
                }
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ figures

    private void record(Map<Variant, Run> runs) {
        Run hand = runs.get(Variant.HAND);
        Run unaware = runs.get(Variant.UNAWARE);
        String load = String.format(
                Locale.ROOT,
                "%d gang arrivals of seed %d (%s; lifetimes %d to %d steps) on the example cluster's %d GPU nodes,"
                        + " Volcano %s",
                arrivals.size(),
                seed,
                Arrays.stream(SHAPES.toArray(Shape[]::new))
                        .map(s -> s.name() + " x"
                                + arrivals.stream().filter(a -> a.shape() == s).count())
                        .collect(Collectors.joining(", ")),
                arrivals.stream().mapToInt(Arrival::lifetime).min().orElse(0),
                arrivals.stream().mapToInt(Arrival::lifetime).max().orElse(0),
                gpuNodes.size(),
                RealCluster.schedulerConf().contains("hypernode.binpack.resources: nvidia.com/gpu")
                        ? "bin-packing GPUs across HyperNodes and nodes"
                        : "bin-packing CPU and memory only (its defaults)");
        for (Run run : runs.values()) {
            String prefix = run.variant().prefix();
            // the run compared with: absent when it was not chosen, and then no ratio
            Run baseline = run.variant().auto() ? hand : run.variant() == Variant.HAND ? unaware : null;
            String than = run.variant().auto() ? "the hand-chosen run" : "the topology-unaware run";
            String what = switch (run.variant()) {
                case HAND -> "tiers chosen by hand as in the examples";
                case AUTO -> "topobridge.io/highest-tier: auto (the bridge's defaults)";
                case AUTO_MODE -> "topobridge.io/highest-tier: auto with the hand-chosen run's topobridge.io/mode";
                case AUTO_WAIT -> "topobridge.io/highest-tier: auto, auto-wait-for-room " + autoWait.toSeconds() + " s";
                case UNAWARE -> "topology-unaware gangs (bridge stopped)";
            };
            put(
                    prefix + "placed",
                    run.placedFraction(),
                    "fraction",
                    run.arrivals(),
                    baseline == null ? null : ratio(run.placedFraction(), baseline.placedFraction()),
                    than,
                    what + ": gangs wholly bound before they left, of " + load + "; placed per shape: "
                            + SHAPES.stream()
                                    .map(s -> s.name() + " " + run.placedOf(s.name()))
                                    .collect(Collectors.joining(", ")));
            put(
                    prefix + "mean_tier",
                    run.meanTier(),
                    "tier",
                    run.placed().size(),
                    baseline == null ? null : ratio(run.meanTier(), baseline.meanTier()),
                    than,
                    what + ": tier of the lowest HyperNode holding each placed gang (0 = one node, 5 = across"
                            + " spines)");
            put(
                    prefix + "pd_tier",
                    run.pdTier(),
                    "tier",
                    (int) run.placed().stream()
                            .filter(p -> p.arrival().shape().prefillDecode())
                            .count(),
                    baseline == null ? null : ratio(run.pdTier(), baseline.pdTier()),
                    than,
                    what + ": per prefill pod, the tier of the lowest HyperNode it shares with the nearest decode"
                            + " pod of its gang (0 = same node), mean over placed prefill/decode gangs");
            put(
                    prefix + "tp_tier",
                    run.tensorParallelTier(),
                    "tier",
                    (int) run.placed().stream()
                            .filter(p -> !p.arrival().shape().prefillDecode())
                            .count(),
                    baseline == null ? null : ratio(run.tensorParallelTier(), baseline.tensorParallelTier()),
                    than,
                    what + ": tier of the lowest HyperNode holding each placed tensor-parallel gang (4 and 9 trays)");
            if (run.variant().auto() && hand != null) {
                // the same gangs: a gang the hand-chosen run never started has no tier there to compare with
                for (boolean pd : new boolean[] {false, true}) {
                    put(
                            prefix + (pd ? "pd" : "tp") + "_tier_same_gangs",
                            run.tierOnGangsAlsoPlacedBy(hand, pd),
                            "tier",
                            run.gangsAlsoPlacedBy(hand, pd),
                            ratio(run.tierOnGangsAlsoPlacedBy(hand, pd), hand.tierOnGangsAlsoPlacedBy(run, pd)),
                            "the hand-chosen run on the same gangs",
                            what + ": as " + prefix + (pd ? "pd" : "tp") + "_tier, over the "
                                    + (pd ? "prefill/decode" : "tensor-parallel")
                                    + " gangs the hand-chosen run placed too; the hand-chosen run's on the same"
                                    + String.format(
                                            Locale.ROOT, " gangs: %.2f", hand.tierOnGangsAlsoPlacedBy(run, pd)));
                }
            }
            put(
                    prefix + "within_tier",
                    run.withinTier(),
                    "fraction",
                    run.hardChecks(),
                    null,
                    null,
                    what
                            + (run == unaware
                                    ? ": hard tiers the examples choose by hand that the placement kept by chance"
                                    : ": hard tiers (gang and subgroups) of the PodGroups kept by the placement"));
            put(
                    prefix + "wait_ms",
                    run.medianWaitMillis(),
                    "ms",
                    run.placed().size(),
                    baseline == null ? null : ratio(run.medianWaitMillis(), baseline.medianWaitMillis()),
                    than,
                    what + ": from the gang's creation to its last pod bound (median over placed gangs)");
        }
    }

    private static Double ratio(double value, double of) {
        return Double.isNaN(value) || Double.isNaN(of) || of == 0 ? null : value / of;
    }

    private void put(String name, double value, String unit, int samples, Double ratio, String of, String note) {
        if (Double.isNaN(value)) {
            say("%s: nothing to measure (no gang of that kind placed)", name);
            return;
        }
        Figure f = Figure.of(name, value, null, unit, samples, note);
        if (ratio != null) {
            f = f.withRatio(ratio, of);
        }
        results.put(f);
    }
}

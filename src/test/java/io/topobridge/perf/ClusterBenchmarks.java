package io.topobridge.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.e2e.AuditLog.Write;
import io.topobridge.e2e.Bridge;
import io.topobridge.e2e.Nodes;
import io.topobridge.e2e.Placement;
import io.topobridge.e2e.RealCluster;
import io.topobridge.perf.BenchResults.Figure;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The figures only a real cluster gives, measured side by side in one run: a node relabelled in an N-node cluster
 * until the HyperNodes reflect it (time and API writes, from the audit log), for the bridge and for Volcano's own
 * label discovery configured for the same labels; the writes of a restart with nothing changed; how many HyperNodes
 * or nodes end up with several parents when a rack name repeats under two spines; and the cost the pod webhook adds
 * to a pod creation through the API server.
 */
final class ClusterBenchmarks {

    /** Marks the benchmark's nodes, so they go in one request afterwards. */
    static final String NODE_LABEL = "bench.topobridge.io/node";

    static final String OURS = "topobridge";
    static final String VOLCANO = "label";
    private static final String VOLCANO_USER = "volcano";
    private static final Duration QUIET = Duration.ofSeconds(2);
    private static final Duration LONG = Duration.ofMinutes(15);
    private static final String WORKLOADS_NS = "bench-workloads";
    private static final String ADMISSION_ON = "bench-admission-on";
    private static final String ADMISSION_OFF = "bench-admission-off";
    private static final AtomicInteger RELABELS = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How big the run is. */
    record Sizes(
            String mode,
            int nodes,
            int warmups,
            int relabels,
            int volcanoRelabels,
            int restarts,
            int workloads,
            int admissions,
            int heapWorkloads) {

        /** From {@code bench.*} system properties; the defaults are the smoke run's minimal sizes. */
        static Sizes fromSystemProperties() {
            return new Sizes(
                    System.getProperty("bench.mode", "smoke"),
                    Integer.getInteger("bench.nodes", 60),
                    Integer.getInteger("bench.warmups", 1),
                    Integer.getInteger("bench.relabels", 2),
                    Integer.getInteger("bench.volcanoRelabels", 1),
                    Integer.getInteger("bench.restarts", 1),
                    Integer.getInteger("bench.workloads", 2),
                    Integer.getInteger("bench.admissions", 10),
                    Integer.getInteger("bench.heapWorkloads", 10));
        }
    }

    private final RealCluster cluster;
    private final Sizes sizes;
    private final BenchResults results;
    private final Random random = new Random(7);
    private final List<String> log = new ArrayList<>();

    ClusterBenchmarks(RealCluster cluster, Sizes sizes, BenchResults results) {
        this.cluster = cluster;
        this.sizes = sizes;
        this.results = results;
    }

    private KubernetesClient client() {
        return cluster.client();
    }

    private static Predicate<Write> hyperNodeWritesBy(String user) {
        return w -> w.user().equals(user) && w.resource().equals("hypernodes");
    }

    private void say(String format, Object... args) {
        String line = String.format(format, args);
        log.add(line);
        System.out.println("[bench] " + line);
    }

    /** Runs every measurement, then removes what it created. */
    void run() {
        cluster.stopVolcanoHyperNodeController();
        try (HyperNodeWatch watch = new HyperNodeWatch(client())) {
            createNodes();
            Relabels ours = ours(watch);
            Heap nodesOnly = nodesOnlyHeap();
            resyncs();
            admissionOverhead();
            heapWithWorkloads(nodesOnly);
            volcano(watch, ours);
        } finally {
            cleanUp();
        }
    }

    // ------------------------------------------------------------------ nodes

    /** The benchmark's GB200 cluster plus two racks with one name under two spines, created in parallel. */
    private void createNodes() {
        long start = System.nanoTime();
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < sizes.nodes(); i++) {
            nodes.add(gpuNode(TopologyClusters.name(i), TopologyClusters.labels(i, false)));
        }
        // "rack-1" under spine-a and under spine-b: one name, two places in the fabric
        for (String spine : List.of("a", "b")) {
            for (int t = 0; t < 2; t++) {
                nodes.add(gpuNode(
                        "bench-dup-" + spine + "-" + t,
                        Map.of(
                                "kubernetes.io/hostname",
                                "bench-dup-" + spine + "-" + t,
                                "fabric.topograph.run/tier-0",
                                "rack-1",
                                "fabric.topograph.run/tier-1",
                                "spine-" + spine,
                                "fabric.topograph.run/tier-2",
                                "core-dup",
                                "nvidia.com/gpu.clique",
                                "dup-" + spine + ".1")));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (Node node : nodes) {
                done.add(pool.submit(() -> {
                    try {
                        client().nodes().resource(node).create();
                    } catch (KubernetesClientException e) {
                        if (e.getCode() != 409) {
                            throw e;
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("creating the benchmark's nodes", e);
        } finally {
            pool.shutdown();
        }
        say(
                "created %d nodes through the API in %d ms (16 in parallel)",
                nodes.size(), (System.nanoTime() - start) / 1_000_000);
    }

    private static Node gpuNode(String name, Map<String, String> labels) {
        Nodes.Spec spec = Nodes.node(name).cpu("144").memory("960Gi").gpus(4).label(NODE_LABEL, "true");
        labels.forEach(spec::label);
        return spec.build();
    }

    // ------------------------------------------------------------------ relabels

    /** Per measured relabel: milliseconds to convergence, writes, HyperNodes whose spec changed. */
    record Relabels(double[] millis, double[] writes, double[] changed) {}

    private Relabels relabels(HyperNodeWatch watch, String source, Predicate<Write> writes, String writer, int count) {
        int total = sizes.warmups() + count;
        double[] millis = new double[count];
        double[] writeCounts = new double[count];
        double[] changed = new double[count];
        for (int r = 0; r < total; r++) {
            String node = TopologyClusters.name(random.nextInt(sizes.nodes()));
            int n = RELABELS.incrementAndGet();
            String clique =
                    String.format("%08x-0000-4000-8000-%012x.1", 0xfeed0000L + n, System.nanoTime() & 0xffffffffffffL);
            HyperNodeWatch.Forest before = watch.forest(source);
            int top = before.topTier(node);
            Map<String, String> specsBefore = before.specs();
            long mark = cluster.audit().mark();
            long start = System.nanoTime();
            client().nodes().withName(node).edit(x -> {
                x.getMetadata().getLabels().put("nvidia.com/gpu.clique", clique);
                return x;
            });
            long reflected = watch.await(source, HyperNodeWatch.reflectsMove(node, specsBefore.keySet(), top), LONG);
            cluster.awaitQuiet(writer, writes, QUIET, LONG);
            Map<String, String> specsAfter = watch.forest(source).specs();
            int diff = 0;
            for (String name : union(specsBefore.keySet(), specsAfter.keySet())) {
                if (!java.util.Objects.equals(specsBefore.get(name), specsAfter.get(name))) {
                    diff++;
                }
            }
            List<Write> made = cluster.audit().writesSince(mark, writes);
            double ms = (reflected - start) / 1e6;
            say(
                    "%s relabel %d%s: %s to a new NVLink domain, reflected in %.0f ms; %d writes (%s) for %d HyperNodes whose spec changed",
                    source, r + 1, r < sizes.warmups() ? " (warm-up)" : "", node, ms, made.size(), verbs(made), diff);
            if (r >= sizes.warmups()) {
                millis[r - sizes.warmups()] = ms;
                writeCounts[r - sizes.warmups()] = made.size();
                changed[r - sizes.warmups()] = diff;
            }
        }
        return new Relabels(millis, writeCounts, changed);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new java.util.TreeSet<>(a);
        out.addAll(b);
        return out;
    }

    /** {@code 3 patch, 1 update status} */
    private static String verbs(List<Write> writes) {
        Map<String, Long> counts = new java.util.TreeMap<>();
        for (Write w : writes) {
            counts.merge(w.verb() + (w.subresource().isEmpty() ? "" : " " + w.subresource()), 1L, Long::sum);
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((k, v) -> parts.add(v + " " + k));
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    // ------------------------------------------------------------------ the bridge

    private Relabels ours(HyperNodeWatch watch) {
        cluster.stopBridge();
        long mark = cluster.audit().mark();
        long start = System.nanoTime();
        Bridge bridge = cluster.bridge();
        awaitFullPass(bridge);
        long synced = watch.await(OURS, forest -> allBenchNodesPlaced(forest), LONG);
        cluster.awaitQuiet(RealCluster.BRIDGE, hyperNodeWritesBy(RealCluster.BRIDGE), QUIET, LONG);
        HyperNodeWatch.Forest forest = watch.forest(OURS);
        int firstWrites = cluster.audit()
                .writesSince(mark, hyperNodeWritesBy(RealCluster.BRIDGE))
                .size();
        say(
                "bridge: first sync of %d HyperNodes: %d writes, all nodes placed %d ms after the process started",
                forest.byName().size(), firstWrites, (synced - start) / 1_000_000);
        results.put(Figure.of(
                        "topology_first_sync_writes",
                        firstWrites,
                        null,
                        "writes",
                        1,
                        forest.byName().size() + " HyperNodes in the cluster after the first sync (" + sizes.nodes()
                                + " benchmark nodes and any others)")
                .withRatio((double) firstWrites / forest.byName().size(), "writes / HyperNodes"));
        results.put(Figure.of(
                "topology_several_parents",
                forest.membersWithSeveralParents(),
                null,
                "members",
                1,
                "members listed by more than one of the bridge's HyperNodes, with rack-1 under two spines: "
                        + forest.severalParentsExamples(5)));

        Relabels r = relabels(watch, OURS, hyperNodeWritesBy(RealCluster.BRIDGE), RealCluster.BRIDGE, sizes.relabels());
        results.put(Figure.of(
                "topology_relabel_converge_ms_10k",
                r.millis(),
                "ms",
                sizes.nodes()
                        + " nodes on the real API server; label edit to the watch event that completes the new domain"
                        + " up to the top tier; " + sizes.warmups() + " warm-up relabel(s) not counted"));
        results.put(Figure.of(
                        "topology_relabel_writes",
                        r.writes(),
                        "writes",
                        "bridge's HyperNode writes per relabel (audit log); HyperNodes whose spec changed: median "
                                + BenchResults.median(r.changed()))
                .withRatio(sum(r.writes()) / sum(r.changed()), "writes / HyperNodes whose spec changed"));
        return r;
    }

    private boolean allBenchNodesPlaced(HyperNodeWatch.Forest forest) {
        for (int i = 0; i < sizes.nodes(); i++) {
            if (forest.parentsOf(TopologyClusters.name(i)).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Until the bridge's topology controller has made a pass over every node and its workload controller a full pass. */
    private void awaitFullPass(Bridge bridge) {
        cluster.waitFor("a full pass of the bridge", LONG, () -> {
            try {
                JsonNode parts = JSON.readTree(bridge.get("/api/status").body()).path("parts");
                JsonNode topology = parts.path("topology");
                JsonNode workloads = parts.path("workloads");
                return topology.path("passes").asInt() >= 1
                        && topology.path("nodes").asInt() >= sizes.nodes()
                        && workloads.path("fullPasses").asInt() >= 1;
            } catch (java.io.IOException e) {
                return false;
            }
        });
    }

    /** Restarts of the bridge with nothing changed: HyperNode and PodGroup writes from the audit log. */
    private void resyncs() {
        client().namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(WORKLOADS_NS)
                        .addToLabels("topobridge.io/enabled", "true")
                        .endMetadata()
                        .build())
                .create();
        for (int i = 0; i < sizes.workloads(); i++) {
            client().apps()
                    .deployments()
                    .inNamespace(WORKLOADS_NS)
                    .resource(deployment("gang-" + i, 2))
                    .create();
        }
        var podGroups = client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(WORKLOADS_NS);
        cluster.waitFor(
                "the workloads' PodGroups",
                LONG,
                () -> podGroups
                                .withLabel("app.kubernetes.io/managed-by", "topobridge")
                                .list()
                                .getItems()
                                .size()
                        >= sizes.workloads());
        // a gang Volcano places later gets its achieved tier recorded: a real change, so wait until all are placed
        cluster.waitFor("the workloads' pods bound", LONG, () -> {
            var pods = client().pods().inNamespace(WORKLOADS_NS).list().getItems();
            return pods.size() >= 2 * sizes.workloads() && Placement.allBound(pods);
        });
        cluster.awaitQuiet(RealCluster.BRIDGE, QUIET, LONG);
        double[] hyperNodes = new double[sizes.restarts()];
        double[] groups = new double[sizes.restarts()];
        for (int r = 0; r < sizes.restarts(); r++) {
            cluster.stopBridge();
            long mark = cluster.audit().mark();
            Bridge bridge = cluster.bridge();
            awaitFullPass(bridge);
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), LONG);
            hyperNodes[r] = cluster.audit()
                    .writesSince(mark, hyperNodeWritesBy(RealCluster.BRIDGE))
                    .size();
            groups[r] = cluster.audit()
                    .writesSince(
                            mark,
                            w -> w.user().equals(RealCluster.BRIDGE)
                                    && w.resource().equals("podgroups"))
                    .size();
            say(
                    "bridge restart %d with nothing changed: %.0f HyperNode writes, %.0f PodGroup writes",
                    r + 1, hyperNodes[r], groups[r]);
        }
        results.put(Figure.of(
                "topology_resync_writes",
                BenchResults.median(hyperNodes),
                null,
                "writes",
                hyperNodes.length,
                "bridge restarted, a full pass over " + sizes.nodes() + " nodes with nothing changed (audit log)"));
        results.put(Figure.of(
                "podgroup_resync_writes",
                BenchResults.median(groups),
                null,
                "writes",
                groups.length,
                "bridge restarted, a full pass over " + sizes.workloads()
                        + " annotated Deployments with nothing changed (audit log)"));
    }

    /** A GPU gang within a leaf switch: {@code replicas} pods of 1 CPU and 4 GPUs. */
    private static io.fabric8.kubernetes.api.model.apps.Deployment deployment(String name, int replicas) {
        return DeploymentWrapper.make(name, null)
                .replicas(replicas)
                .highestTier("leaf")
                .cpu("1")
                .limit("nvidia.com/gpu", "4")
                .obj();
    }

    // ------------------------------------------------------------------ admission

    /**
     * Pods of a managed Deployment's ReplicaSet created one at a time through the API server, alternating between a
     * namespace opted in to the pod webhook and one that is not: the difference is what the webhook adds.
     */
    private void admissionOverhead() {
        cluster.bridge();
        Map<String, ReplicaSet> owners = new java.util.LinkedHashMap<>();
        for (String ns : List.of(ADMISSION_ON, ADMISSION_OFF)) {
            var namespace =
                    new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata();
            if (ns.equals(ADMISSION_ON)) {
                namespace
                        .editMetadata()
                        .addToLabels("topobridge.io/enabled", "true")
                        .endMetadata();
            }
            client().namespaces().resource(namespace.build()).create();
            client().apps()
                    .deployments()
                    .inNamespace(ns)
                    .resource(deployment("served", 0))
                    .create();
            cluster.waitFor(
                    "the ReplicaSet in " + ns,
                    LONG,
                    () -> !client().apps()
                            .replicaSets()
                            .inNamespace(ns)
                            .list()
                            .getItems()
                            .isEmpty());
            owners.put(
                    ns,
                    client().apps()
                            .replicaSets()
                            .inNamespace(ns)
                            .list()
                            .getItems()
                            .get(0));
        }
        int warmup = Math.max(5, sizes.admissions() / 10);
        double[] on = new double[sizes.admissions()];
        double[] off = new double[sizes.admissions()];
        for (int i = 0; i < warmup + sizes.admissions(); i++) {
            for (String ns : List.of(ADMISSION_ON, ADMISSION_OFF)) {
                Pod pod = ownedPod(owners.get(ns), i);
                long t = System.nanoTime();
                Pod created = client().pods().inNamespace(ns).resource(pod).create();
                double ms = (System.nanoTime() - t) / 1e6;
                if (i == 0
                        && ns.equals(ADMISSION_ON)
                        && (created.getMetadata().getAnnotations() == null
                                || !created.getMetadata()
                                        .getAnnotations()
                                        .containsKey("scheduling.k8s.io/group-name"))) {
                    throw new IllegalStateException(
                            "the pod webhook did not tie the pod to its gang: " + created.getMetadata());
                }
                if (i >= warmup) {
                    (ns.equals(ADMISSION_ON) ? on : off)[i - warmup] = ms;
                }
            }
        }
        double p99 = BenchResults.percentile(on, 0.99) - BenchResults.percentile(off, 0.99);
        double median = BenchResults.median(on) - BenchResults.median(off);
        say(
                "pod creation through the API server: with the webhook median %.2f ms p99 %.2f ms; without median %.2f ms p99 %.2f ms",
                BenchResults.median(on),
                BenchResults.percentile(on, 0.99),
                BenchResults.median(off),
                BenchResults.percentile(off, 0.99));
        results.put(Figure.of(
                        "admission_overhead_p99_ms",
                        median,
                        p99,
                        "ms",
                        on.length,
                        String.format(
                                "pod creation with the pod webhook minus without; the figure is the p99: %.2f ms minus %.2f ms;"
                                        + " medians %.2f vs %.2f ms;"
                                        + " alternating, one client",
                                BenchResults.percentile(on, 0.99),
                                BenchResults.percentile(off, 0.99),
                                BenchResults.median(on),
                                BenchResults.median(off)))
                .withRatio(
                        BenchResults.percentile(on, 0.99) / BenchResults.percentile(off, 0.99),
                        "p99 with / p99 without"));
        say("admission median overhead %.2f ms", median);
    }

    private static Pod ownedPod(ReplicaSet owner, int i) {
        Map<String, String> labels =
                new java.util.HashMap<>(owner.getSpec().getSelector().getMatchLabels());
        return new PodBuilder()
                .withNewMetadata()
                .withName(owner.getMetadata().getName() + "-" + i)
                .withLabels(labels)
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("apps/v1")
                        .withKind("ReplicaSet")
                        .withName(owner.getMetadata().getName())
                        .withUid(owner.getMetadata().getUid())
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build())
                .endMetadata()
                .withSpec(owner.getSpec().getTemplate().getSpec())
                .build();
    }

    // ------------------------------------------------------------------ heap

    private static final String HEAP_NAMESPACE = "bench-heap-";
    private static final String HEAP_QUEUE = "bench-heap";
    /** Below the bridge's default {@code max-podgroups-per-namespace} (500). */
    private static final int HEAP_WORKLOADS_PER_NAMESPACE = 400;

    private static final int HEAP_PODS_PER_WORKLOAD = 2;
    private static final int HEAP_SAMPLES = 3;

    /**
     * Heap used after a full GC in the bridge's JVM, one sample per GC; what the bridge's caches held (its
     * {@code /api/status}); its heap settings.
     */
    record Heap(double[] mb, String caches, String settings) {
        double median() {
            return BenchResults.median(mb);
        }

        String samples() {
            List<String> out = new ArrayList<>();
            for (double m : mb) {
                out.add(String.format("%.1f", m));
            }
            return String.join(", ", out);
        }
    }

    private static final AtomicInteger GC_LOGS = new AtomicInteger();

    /**
     * {@value #HEAP_SAMPLES} full GCs forced in the bridge's JVM ({@code jcmd <pid> GC.run}), each one's heap after
     * it as the GC itself reports it: GC logging ({@code gc+heap=debug}) is switched on in the running JVM for those
     * GCs only, into a file of the run's logs. A later snapshot ({@code GC.heap_info}) would also count what the
     * bridge allocated in between: on a loaded machine the seconds between two commands.
     */
    private Heap heap(Bridge bridge) {
        long pid = bridge.process().pid();
        java.nio.file.Path gcLog = cluster.runDir()
                .resolve("logs")
                .resolve("topobridge-heap-" + GC_LOGS.incrementAndGet() + ".gc.log")
                .toAbsolutePath();
        double[] mb = heapAfterForcedGcsMb(pid, gcLog, HEAP_SAMPLES);
        List<String> options = new ArrayList<>();
        for (String arg : bridge.process().command()) {
            if (arg.startsWith("-X")) {
                options.add(arg);
            }
        }
        java.util.regex.Matcher gc =
                java.util.regex.Pattern.compile("-XX:\\+Use(\\w+)GC\\b").matcher(jcmd(pid, "VM.flags"));
        String settings = (options.isEmpty() ? "no -X options" : String.join(" ", options))
                + (gc.find() ? ", " + gc.group(1) + " GC" : "")
                + ", " + Runtime.getRuntime().availableProcessors() + " cores";
        String caches;
        try {
            JsonNode parts = JSON.readTree(bridge.get("/api/status").body()).path("parts");
            caches = String.format(
                    "%d nodes, %d HyperNodes, %d pods",
                    parts.path("topology").path("nodes").asInt(),
                    parts.path("cluster-view").path("hyperNodes").asInt(),
                    parts.path("cluster-view").path("pods").asInt());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("reading the bridge's /api/status", e);
        }
        return new Heap(mb, caches, settings);
    }

    /**
     * Forces {@code samples} full GCs in the running JVM {@code pid} with GC logging switched on for them alone, into
     * {@code gcLog}, and returns each one's heap used after it in MB.
     */
    static double[] heapAfterForcedGcsMb(long pid, java.nio.file.Path gcLog, int samples) {
        String output = "output=file=" + gcLog;
        jcmd(pid, "VM.log", output, "what=gc=info,gc+heap=debug", "decorators=uptime");
        try {
            for (int i = 0; i < samples; i++) {
                jcmd(pid, "GC.run");
            }
        } finally {
            jcmd(pid, "VM.log", output, "what=all=off");
        }
        double[] mb;
        try {
            mb = heapAfterFullGcsMb(java.nio.file.Files.readString(gcLog));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        if (mb.length != samples) {
            throw new IllegalStateException("expected " + samples + " full GCs in " + gcLog + ", found " + mb.length);
        }
        return mb;
    }

    /**
     * From a JVM's {@code gc+heap=debug} log: for each full GC forced by {@code jcmd GC.run} ("Pause Full
     * (Diagnostic Command)"), the heap used after it (the sum of the {@code used} figures of its "Heap after GC"
     * block: one space for G1, two for the generational collectors), in MB, in the order of the GCs.
     */
    static double[] heapAfterFullGcsMb(String log) {
        java.util.regex.Pattern id = java.util.regex.Pattern.compile("GC\\((\\d+)\\)");
        java.util.regex.Pattern used = java.util.regex.Pattern.compile("total \\d+K, used (\\d+)K");
        Map<String, Long> afterKb = new java.util.HashMap<>();
        java.util.Set<String> inAfterBlock = new java.util.HashSet<>();
        List<Double> out = new ArrayList<>();
        for (String line : log.split("\\R")) {
            java.util.regex.Matcher gc = id.matcher(line);
            if (!gc.find()) {
                continue;
            }
            String n = gc.group(1);
            if (line.contains("Heap after GC")) {
                inAfterBlock.add(n);
                afterKb.put(n, 0L);
            } else if (line.contains("Heap before GC")) {
                inAfterBlock.remove(n);
            } else if (line.contains("Pause Full (Diagnostic Command)")) {
                inAfterBlock.remove(n);
                Long kb = afterKb.get(n);
                if (kb == null) {
                    throw new IllegalStateException("no heap after GC(" + n + ") in the GC log:\n" + log);
                }
                out.add(kb / 1024.0);
            } else if (inAfterBlock.contains(n)) {
                java.util.regex.Matcher u = used.matcher(line);
                if (u.find()) {
                    afterKb.merge(n, Long.parseLong(u.group(1)), Long::sum);
                }
            }
        }
        double[] mb = new double[out.size()];
        for (int i = 0; i < mb.length; i++) {
            mb[i] = out.get(i);
        }
        return mb;
    }

    static String jcmd(long pid, String... command) {
        List<String> line = new ArrayList<>();
        line.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "jcmd")
                .toString());
        line.add(Long.toString(pid));
        line.addAll(List.of(command));
        try {
            Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!p.waitFor(2, java.util.concurrent.TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", line) + " failed:\n" + out);
            }
            return out;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The bridge's heap with the nodes only: after its first sync and the relabels, before any workload exists. */
    private Heap nodesOnlyHeap() {
        Bridge bridge = cluster.bridge();
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), LONG);
        Heap heap = heap(bridge);
        say(
                "bridge heap after GC with the nodes only: %s MB (caches: %s; %s)",
                heap.samples(), heap.caches(), heap.settings());
        results.put(Figure.of(
                "heap_mb_10k_nodes",
                heap.median(),
                null,
                "MB",
                heap.mb().length,
                "heap used after a full GC forced with jcmd GC.run, as the GC logged it (gc+heap=debug; median of "
                        + heap.mb().length
                        + ": " + heap.samples() + " MB) in the bridge's process with " + sizes.nodes()
                        + " benchmark nodes and before the benchmark created any workload; its caches: "
                        + heap.caches() + "; bridge JVM: " + heap.settings()));
        return heap;
    }

    /**
     * {@code bench.heapWorkloads} annotated workloads, Deployments and StatefulSets alternately, of
     * {@value #HEAP_PODS_PER_WORKLOAD} pods each made by kube-controller-manager, in namespaces of at most
     * {@value #HEAP_WORKLOADS_PER_NAMESPACE}; their gangs wait in a queue with room for one (8 GPUs), as a backlog
     * does, so the scheduler does not have to place thousands of gangs first. Once the bridge has a PodGroup for every
     * one, caches every pod and has been quiet for 5 s: its heap after a full GC.
     */
    private void heapWithWorkloads(Heap nodesOnly) {
        Bridge bridge = cluster.bridge();
        int workloads = sizes.heapWorkloads();
        int pods = workloads * HEAP_PODS_PER_WORKLOAD;
        List<String> namespaces = new ArrayList<>();
        for (int i = 0; i < workloads; i += HEAP_WORKLOADS_PER_NAMESPACE) {
            namespaces.add(HEAP_NAMESPACE + namespaces.size());
        }
        // kube-controller-manager writes at its default 20 requests/s: a few per workload and pod
        Duration wait = LONG.plus(Duration.ofSeconds(workloads));
        try {
            heapQueue();
            for (String ns : namespaces) {
                client().namespaces()
                        .resource(new NamespaceBuilder()
                                .withNewMetadata()
                                .withName(ns)
                                .addToLabels("topobridge.io/enabled", "true")
                                .addToAnnotations("scheduling.volcano.sh/queue-name", HEAP_QUEUE)
                                .endMetadata()
                                .build())
                        .create();
            }
            long start = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int i = 0; i < workloads; i++) {
                    String ns = namespaces.get(i / HEAP_WORKLOADS_PER_NAMESPACE);
                    String name = "heap-" + i;
                    boolean statefulSet = i % 2 == 1;
                    done.add(pool.submit(() -> {
                        if (statefulSet) {
                            client().apps()
                                    .statefulSets()
                                    .inNamespace(ns)
                                    .resource(statefulSet(name, HEAP_PODS_PER_WORKLOAD))
                                    .create();
                        } else {
                            client().apps()
                                    .deployments()
                                    .inNamespace(ns)
                                    .resource(deployment(name, HEAP_PODS_PER_WORKLOAD))
                                    .create();
                        }
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } catch (Exception e) {
                throw new IllegalStateException("creating the heap benchmark's workloads", e);
            } finally {
                pool.shutdown();
            }
            long created = System.nanoTime();
            cluster.waitFor("the heap benchmark's " + pods + " pods", wait, () -> {
                RealCluster.sleep(Duration.ofSeconds(2));
                return count(
                                namespaces,
                                ns -> client().pods()
                                        .inNamespace(ns)
                                        .list(new ListOptionsBuilder()
                                                .withLimit(1L)
                                                .build()))
                        >= pods;
            });
            long podsDone = System.nanoTime();
            var podGroups = client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup");
            cluster.waitFor("the bridge's PodGroups for the heap benchmark's " + workloads + " workloads", wait, () -> {
                RealCluster.sleep(Duration.ofSeconds(2));
                int n = 0;
                for (String ns : namespaces) {
                    n += podGroups
                            .inNamespace(ns)
                            .withLabel("app.kubernetes.io/managed-by", "topobridge")
                            .list()
                            .getItems()
                            .size();
                }
                return n >= workloads;
            });
            long groupsDone = System.nanoTime();
            cluster.waitFor("the bridge caching the heap benchmark's pods", wait, () -> {
                RealCluster.sleep(Duration.ofSeconds(1));
                try {
                    return JSON.readTree(bridge.get("/api/status").body())
                                    .path("parts")
                                    .path("cluster-view")
                                    .path("pods")
                                    .asInt()
                            >= pods;
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), wait);
            long quiet = System.nanoTime();
            int groups = count(
                    namespaces,
                    ns -> podGroups
                            .inNamespace(ns)
                            .withLabel("app.kubernetes.io/managed-by", "topobridge")
                            .list());
            int allGroups = client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                    .inAnyNamespace()
                    .list()
                    .getItems()
                    .size();
            say(
                    "heap benchmark: %d workloads created in %d ms (8 in parallel); their %d pods made by"
                            + " kube-controller-manager %d ms later; the bridge's %d PodGroups %d ms later; the bridge"
                            + " quiet %d ms later",
                    workloads,
                    (created - start) / 1_000_000,
                    pods,
                    (podsDone - created) / 1_000_000,
                    groups,
                    (groupsDone - podsDone) / 1_000_000,
                    (quiet - groupsDone) / 1_000_000);
            Heap heap = heap(bridge);
            say(
                    "bridge heap after GC with %d workloads: %s MB (caches: %s; %s)",
                    workloads, heap.samples(), heap.caches(), heap.settings());
            results.put(Figure.of(
                            "heap_mb_10k_nodes_2k_workloads",
                            heap.median(),
                            null,
                            "MB",
                            heap.mb().length,
                            "heap used after a full GC forced with jcmd GC.run, as the GC logged it (gc+heap=debug; median of "
                                    + heap.mb().length + ": " + heap.samples() + " MB) in the bridge's process with "
                                    + sizes.nodes() + " benchmark nodes and " + workloads + " annotated workloads ("
                                    + (workloads + 1) / 2 + " Deployments, " + workloads / 2 + " StatefulSets, "
                                    + HEAP_PODS_PER_WORKLOAD + " pods each, " + pods + " pods, in "
                                    + namespaces.size() + " namespace(s); " + groups
                                    + " PodGroups of the bridge for them, " + allGroups
                                    + " PodGroups in the cluster), their gangs pending in a queue with room for one;"
                                    + " its caches: " + heap.caches() + "; once it had a PodGroup for every workload,"
                                    + " cached every pod and made no write for 5 s; bridge JVM: " + heap.settings()
                                    + String.format(
                                            "; kube-controller-manager made the pods in %.0f s",
                                            (podsDone - created) / 1e9))
                    .withRatio(
                            heap.median() / nodesOnly.median(),
                            "with the workloads / with the nodes only (heap_mb_10k_nodes)"));
        } finally {
            long start = System.nanoTime();
            for (String ns : namespaces) {
                client().namespaces().withName(ns).delete();
            }
            cluster.waitFor(
                    "the heap benchmark's namespaces gone",
                    wait,
                    () -> namespaces.stream()
                            .allMatch(ns -> client().namespaces().withName(ns).get() == null));
            client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "Queue")
                    .withName(HEAP_QUEUE)
                    .delete();
            say("heap benchmark: its namespaces deleted in %d ms", (System.nanoTime() - start) / 1_000_000);
        }
    }

    /** A queue with room for one gang of the heap benchmark: the others wait, pending, as a backlog does. */
    private void heapQueue() {
        var queues = client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "Queue");
        queues.resource(new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                        .withApiVersion("scheduling.volcano.sh/v1beta1")
                        .withKind("Queue")
                        .withNewMetadata()
                        .withName(HEAP_QUEUE)
                        .endMetadata()
                        .addToAdditionalProperties(
                                "spec",
                                Map.of(
                                        "weight",
                                        1,
                                        "reclaimable",
                                        false,
                                        "capability",
                                        Map.of("nvidia.com/gpu", String.valueOf(4 * HEAP_PODS_PER_WORKLOAD))))
                        .build())
                .createOr(q -> q.update());
        cluster.waitFor("queue " + HEAP_QUEUE + " open", LONG, () -> {
            var q = queues.withName(HEAP_QUEUE).get();
            return q != null
                    && "Open"
                            .equals(((Map<?, ?>) q.getAdditionalProperties().getOrDefault("status", Map.of()))
                                    .get("state"));
        });
    }

    /** Objects in {@code namespaces}, each list asked for one item (the server counts the rest). */
    private static int count(
            List<String> namespaces,
            java.util.function.Function<String, io.fabric8.kubernetes.api.model.KubernetesResourceList<?>> list) {
        int n = 0;
        for (String ns : namespaces) {
            var page = list.apply(ns);
            Long remaining = page.getMetadata().getRemainingItemCount();
            n += page.getItems().size() + (remaining == null ? 0 : remaining.intValue());
        }
        return n;
    }

    private static io.fabric8.kubernetes.api.model.apps.StatefulSet statefulSet(String name, int replicas) {
        return new io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder()
                .withNewMetadata()
                .withName(name)
                .addToAnnotations("topobridge.io/highest-tier", "leaf")
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withServiceName(name)
                // all pods at once: with the default OrderedReady a pending pod holds back the next
                .withPodManagementPolicy("Parallel")
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withTemplate(deployment(name, replicas).getSpec().getTemplate())
                .endSpec()
                .build();
    }

    // ------------------------------------------------------------------ Volcano's discovery

    private void volcano(HyperNodeWatch watch, Relabels ours) {
        cluster.stopBridge();
        var hyperNodes = client().genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode");
        hyperNodes.withLabel(HyperNodeWatch.SOURCE_LABEL, OURS).delete();
        cluster.waitFor(
                "the bridge's HyperNodes gone",
                LONG,
                () -> watch.forest(OURS).byName().isEmpty());
        client().configMaps()
                .inNamespace(RealCluster.VOLCANO_NAMESPACE)
                .resource(RealCluster.labelDiscovery(
                        "gb200",
                        "fabric.topograph.run/tier-2",
                        "fabric.topograph.run/tier-1",
                        "fabric.topograph.run/tier-0",
                        "nvidia.com/gpu.clique",
                        "kubernetes.io/hostname"))
                .serverSideApply();
        Predicate<Write> volcanoWrites = hyperNodeWritesBy(VOLCANO_USER);
        long mark = cluster.audit().mark();
        long start = System.nanoTime();
        cluster.startVolcanoHyperNodeController();
        long synced = watch.await(VOLCANO, this::allBenchNodesPlaced, LONG);
        cluster.awaitQuiet(VOLCANO_USER, volcanoWrites, Duration.ofSeconds(5), LONG);
        HyperNodeWatch.Forest forest = watch.forest(VOLCANO);
        List<Write> first = cluster.audit().writesSince(mark, volcanoWrites);
        say(
                "Volcano discovery: first sync of %d HyperNodes: %d writes (%s), all nodes placed %d ms after the process started",
                forest.byName().size(), first.size(), verbs(first), (synced - start) / 1_000_000);
        results.put(Figure.of(
                        "volcano_discovery_first_sync_writes",
                        first.size(),
                        null,
                        "writes",
                        1,
                        forest.byName().size() + " HyperNodes; " + verbs(first))
                .withRatio((double) first.size() / forest.byName().size(), "writes / HyperNodes"));
        results.put(Figure.of(
                "volcano_discovery_several_parents",
                forest.membersWithSeveralParents(),
                null,
                "members",
                1,
                "members listed by more than one of Volcano's HyperNodes, with rack-1 under two spines: "
                        + forest.severalParentsExamples(5)));

        Relabels r = relabels(watch, VOLCANO, volcanoWrites, VOLCANO_USER, sizes.volcanoRelabels());
        results.put(Figure.of(
                        "volcano_discovery_relabel_converge_ms",
                        r.millis(),
                        "ms",
                        "the same relabel handled by vc-controller-manager's HyperNode label discovery (Volcano's defaults), same cluster")
                .withRatio(
                        BenchResults.median(r.millis()) / BenchResults.median(ours.millis()),
                        "Volcano median / bridge median"));
        results.put(Figure.of(
                        "volcano_discovery_relabel_writes",
                        r.writes(),
                        "writes",
                        "Volcano's HyperNode writes per relabel (audit log, spec and status); HyperNodes whose spec changed: median "
                                + BenchResults.median(r.changed()))
                .withRatio(
                        BenchResults.median(r.writes()) / BenchResults.median(ours.writes()),
                        "Volcano median / bridge median"));

        mark = cluster.audit().mark();
        cluster.startVolcanoHyperNodeController();
        long restartMark = mark;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        // its discovery runs once at start; a minute without a single write means it wrote nothing
        while (cluster.audit().writesSince(restartMark, volcanoWrites).isEmpty() && System.nanoTime() < deadline) {
            RealCluster.sleep(Duration.ofMillis(250));
        }
        cluster.awaitQuiet(VOLCANO_USER, volcanoWrites, Duration.ofSeconds(5), LONG);
        List<Write> resync = cluster.audit().writesSince(mark, volcanoWrites);
        say("Volcano discovery restarted with nothing changed: %d writes (%s)", resync.size(), verbs(resync));
        results.put(Figure.of(
                "volcano_discovery_resync_writes",
                resync.size(),
                null,
                "writes",
                1,
                "vc-controller-manager's HyperNode controller restarted with nothing changed (audit log): "
                        + verbs(resync)));
    }

    private static double sum(double[] values) {
        double s = 0;
        for (double v : values) {
            s += v;
        }
        return s;
    }

    // ------------------------------------------------------------------ clean-up

    private void cleanUp() {
        cluster.stopVolcanoHyperNodeController();
        client().configMaps()
                .inNamespace(RealCluster.VOLCANO_NAMESPACE)
                .withName("volcano-controller-configmap")
                .delete();
        client().genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode")
                .withLabel(HyperNodeWatch.SOURCE_LABEL, VOLCANO)
                .delete();
        for (String ns : List.of(WORKLOADS_NS, ADMISSION_ON, ADMISSION_OFF)) {
            client().namespaces().withName(ns).delete();
        }
        deleteNodes();
        // the bridge's HyperNodes follow the remaining nodes again when a test next asks for it
        cluster.stopBridge();
    }

    /** One request per node, in parallel: a delete-collection of 10,000 nodes outlasts a client's request timeout. */
    private void deleteNodes() {
        List<Node> nodes = client().nodes().withLabel(NODE_LABEL, "true").list().getItems();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (Node node : nodes) {
                done.add(pool.submit(() ->
                        client().nodes().withName(node.getMetadata().getName()).delete()));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("deleting the benchmark's nodes", e);
        } finally {
            pool.shutdown();
        }
    }

    List<String> log() {
        return log;
    }
}

package io.topobridge.perf;

import io.topobridge.perf.BenchResults.Figure;
import java.nio.file.Path;
import java.util.Collection;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * The benchmarks that need no cluster, run one after the other into the results file: the HyperNode build and
 * the workload translation (JMH, sample time), one pod admission over HTTPS, and the heap per cached node and pod.
 * {@code BenchSuite [full|smoke] [results file]}; {@code smoke} runs each with tiny sizes and no fork, so the
 * default build proves every benchmark still runs (its figures mean nothing).
 */
public final class BenchSuite {

    /** How big and how long each benchmark runs. */
    public record Sizes(
            String mode,
            int buildNodes,
            int workloads,
            int admissionWarmup,
            int admissions,
            int cachedObjects,
            int lwsGroups,
            int forks,
            int warmupIterations,
            TimeValue warmupTime,
            int iterations,
            TimeValue iterationTime) {

        /** The sizes of the figures' names: 50,000 nodes, 5,000 workloads, 10,000 admissions, 20,000 objects. */
        public static Sizes full() {
            return new Sizes(
                    "full",
                    50_000,
                    5_000,
                    5_000,
                    10_000,
                    20_000,
                    100_000,
                    1,
                    3,
                    TimeValue.seconds(5),
                    5,
                    TimeValue.seconds(5));
        }

        /**
         * Minimal sizes, in process: seconds in all. The caches still hold 20,000 objects: their heap (megabytes) must
         * stand out of what other threads of the test JVM allocate meanwhile, or the difference is noise (with 3,000,
         * a loaded machine once measured a slim pod at -1,023 bytes).
         */
        public static Sizes smoke() {
            return new Sizes(
                    "smoke",
                    500,
                    50,
                    20,
                    50,
                    20_000,
                    1_000,
                    0,
                    1,
                    TimeValue.milliseconds(100),
                    1,
                    TimeValue.milliseconds(200));
        }
    }

    private BenchSuite() {}

    public static void main(String[] args) throws Exception {
        Sizes sizes = args.length > 0 && args[0].equals("smoke") ? Sizes.smoke() : Sizes.full();
        Path file = Path.of(args.length > 1 ? args[1] : "target/bench/results.json");
        BenchResults results = run(sizes, BenchResults.fresh(file, sizes.mode()));
        System.out.print(results.table());
    }

    /** Runs every benchmark of this suite at {@code sizes}, adding each figure to {@code results} as it comes. */
    public static BenchResults run(Sizes sizes, BenchResults results) throws Exception {
        Statistics build = jmh(
                sizes,
                "TopologyBuildBenchmark",
                "nodes",
                sizes.buildNodes(),
                "-Xms2g",
                "-Xmx2g",
                "-XX:ActiveProcessorCount=1");
        results.put(millis(
                "topology_build_ms_50k",
                build,
                "HyperNode tree of " + sizes.buildNodes() + " nodes (3 fabric tiers + NVLink), preset auto,"
                        + (sizes.forks() > 0 ? " one core (-XX:ActiveProcessorCount=1)" : " in process")
                        + ", JMH sample time"));

        Statistics translate = jmh(sizes, "WorkloadTranslateBenchmark", "workloads", sizes.workloads());
        results.put(
                millis("translate_ms_5k", translate, sizes.workloads() + " workloads of every kind, JMH sample time"));

        var admissions = AdmissionHttpBench.sequentialMillis(sizes.admissionWarmup(), sizes.admissions());
        results.put(Figure.of(
                "admission_p99_ms",
                admissions.millis(),
                "ms",
                "one pod admission over HTTPS, one keep-alive client, after " + admissions.warmedUp()
                        + " warm-up requests (at least " + sizes.admissionWarmup() + ", then until a block of "
                        + AdmissionHttpBench.block(sizes.admissionWarmup()) + " spent under "
                        + Math.round(AdmissionHttpBench.SETTLED * 100)
                        + " % of its time in the JIT compilers); the figure is the p99"));

        // admitting a pod of an LWS of 100,000 groups against one of 2 groups, in the same run
        double[] small = AdmissionHttpBench.lwsMillis(2, sizes.admissionWarmup(), sizes.admissions());
        double[] huge = AdmissionHttpBench.lwsMillis(sizes.lwsGroups(), sizes.admissionWarmup(), sizes.admissions());
        results.put(Figure.of(
                        "admission_lws_100k_p99_ms",
                        huge,
                        "ms",
                        "one worker pod of an LWS of " + sizes.lwsGroups() + " groups admitted over HTTPS (bound on"
                                + " gangs per workload raised to let it in); the figure is the p99")
                .withRatio(
                        BenchResults.percentile(huge, 0.99) / BenchResults.percentile(small, 0.99),
                        "p99 / p99 of a 2-group LWS in the same run (target at most 2)"));

        CacheFootprint.Footprint footprint = CacheFootprint.measure(sizes.cachedObjects());
        results.put(Figure.of(
                        "bytes_per_cached_node",
                        footprint.slimNode(),
                        null,
                        "bytes",
                        footprint.objects(),
                        "retained heap per node in the node cache, GB200 tray; full Node " + footprint.fullNode()
                                + " bytes")
                .withRatio((double) footprint.fullNode() / footprint.slimNode(), "full Node / cached node"));
        results.put(Figure.of(
                        "bytes_per_cached_pod",
                        footprint.slimPod(),
                        null,
                        "bytes",
                        footprint.objects(),
                        "retained heap per pod in SlimPodStore; full Pod " + footprint.fullPod() + " bytes")
                .withRatio((double) footprint.fullPod() / footprint.slimPod(), "full Pod / cached pod"));
        return results;
    }

    /** A figure of the median and p99 of JMH sample times in milliseconds. */
    private static Figure millis(String name, Statistics samples, String note) {
        return Figure.of(name, samples.getPercentile(50), samples.getPercentile(99), "ms", (int) samples.getN(), note);
    }

    /** One JMH benchmark class at one size; its sample-time statistics in milliseconds. */
    private static Statistics jmh(Sizes sizes, String benchmark, String param, int size, String... jvmArgs)
            throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("\\." + benchmark + "\\.")
                .param(param, String.valueOf(size))
                .forks(sizes.forks())
                .warmupIterations(sizes.warmupIterations())
                .warmupTime(sizes.warmupTime())
                .measurementIterations(sizes.iterations())
                .measurementTime(sizes.iterationTime())
                .shouldFailOnError(true);
        if (benchmark.equals("TopologyBuildBenchmark")) {
            options.param("config", "auto");
        }
        if (jvmArgs.length > 0) {
            options.jvmArgs(jvmArgs);
        }
        Collection<RunResult> runs = new Runner(options.build()).run();
        if (runs.size() != 1) {
            throw new IllegalStateException(benchmark + ": expected one run, got " + runs.size());
        }
        RunResult run = runs.iterator().next();
        BenchmarkParams params = run.getParams();
        if (!params.getTimeUnit().equals(java.util.concurrent.TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(benchmark + " reports in " + params.getTimeUnit());
        }
        return run.getPrimaryResult().getStatistics();
    }
}

package io.topobridge.perf;

import io.topobridge.perf.BenchResults.Figure;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How long the CLI takes from {@code java} to exit, whole process, and the CPU it spends (user + system, read from
 * this process's waited-for children in {@code /proc/self/stat}): {@code version} and {@code render} of one small file
 * under each way of starting the JVM, median of {@code runs}. The class-data archives and AOT caches it compares are
 * made by this benchmark from one training run each ({@code render} of the same file). {@code cleanup --help} boots
 * Quarkus, as every command did before the offline entry point: it is the reference.
 *
 * <p>{@code CliStartupBenchmark APP_DIR RESULTS_FILE [RUNS] [JDK_HOME...]}: {@code APP_DIR} is
 * {@code target/quarkus-app}; each extra JDK home (e.g. a JDK 25 for its AOT cache) is measured too.
 */
public final class CliStartupBenchmark {

    static final String[] RENDER = {
        "render", "examples/workloads/00-namespace-and-queue.yaml", "examples/gpu-cluster/nodes.yaml"
    };
    static final String[] VERSION = {"version"};
    static final String[] QUARKUS_BOOT = {"cleanup", "--help"};

    private static final List<String> LEAN = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    /** Clock ticks per second of {@code /proc} times, asked once (asking spawns a child, whose CPU would count). */
    private static final long CLOCK_TICKS = clockTicks();

    /** One way to start the CLI: the java binary, its options and what is run (jar or main class). */
    record Variant(String name, String java, List<String> options, List<String> launch, String what) {
        List<String> command(String... args) {
            List<String> out = new ArrayList<>();
            out.add(java);
            out.addAll(options);
            out.addAll(launch);
            out.addAll(List.of(args));
            return out;
        }

        Variant with(String suffix, List<String> more, String also) {
            List<String> options = new ArrayList<>(this.options);
            options.addAll(more);
            return new Variant(name + "_" + suffix, java, options, launch, what + ", " + also);
        }
    }

    /** Medians of one variant and command. */
    record Timing(double wallMs, double cpuMs, int runs) {}

    private CliStartupBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path app = Path.of(args[0]).toAbsolutePath();
        BenchResults results = BenchResults.open(Path.of(args[1]), "full");
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        List<String> jdks = new ArrayList<>(List.of(System.getProperty("java.home")));
        Arrays.asList(args).subList(Math.min(3, args.length), args.length).stream()
                .filter(home -> !home.isBlank())
                .forEach(jdks::add);
        Path work = Files.createTempDirectory("cli-startup");
        for (String jdk : jdks) {
            for (Variant variant : variants(app, jdk, work)) {
                measure(results, variant, runs);
            }
        }
        System.out.print(results.table());
    }

    /** The variants on one JDK: plain, lean options, and each with the JDK's class archive or AOT cache. */
    static List<Variant> variants(Path app, String jdk, Path work) throws Exception {
        String java = Path.of(jdk, "bin", "java").toString();
        int feature = feature(java);
        String tag = "jdk" + feature;
        String classpath = String.join(
                File.pathSeparator,
                app.resolve("lib/boot/*").toString(),
                app.resolve("lib/main/*").toString(),
                app.resolve("app/*").toString(),
                app.resolve("quarkus/generated-bytecode.jar").toString());
        Variant jar = new Variant(
                tag + "_jar",
                java,
                List.of(),
                List.of("-jar", app.resolve("quarkus-run.jar").toString()),
                "java -jar");
        Variant main = new Variant(
                tag + "_classpath",
                java,
                List.of(),
                List.of("-cp", classpath, "io.topobridge.cli.OfflineMain"),
                "java -cp (the offline main on the application class path)");
        String lean = String.join(" ", LEAN);
        List<Variant> out = new ArrayList<>(List.of(jar));
        for (Variant base : List.of(jar.with("lean", LEAN, lean), main.with("lean", LEAN, lean))) {
            out.add(base);
            out.add(archived(base, work, feature));
        }
        Path quarkusCds = app.resolve("app-cds.jsa");
        if (feature == 17 && Files.isRegularFile(quarkusCds)) {
            out.add(jar.with(
                    "quarkus_appcds",
                    List.of("-XX:SharedArchiveFile=" + quarkusCds),
                    "Quarkus' AppCDS archive (quarkus.package.jar.appcds.enabled)"));
        }
        return out;
    }

    /** The variant with a class archive (JDK 17-23) or AOT cache (24 on) made by one training run of render. */
    private static Variant archived(Variant base, Path work, int feature) throws Exception {
        Path file = work.resolve(base.name() + (feature >= 25 ? ".aot" : ".jsa"));
        List<String> record = new ArrayList<>(base.options());
        record.add(feature >= 25 ? "-XX:AOTCacheOutput=" + file : "-XX:ArchiveClassesAtExit=" + file);
        Variant training = new Variant(base.name(), base.java(), record, base.launch(), base.what());
        run(training.command(RENDER));
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("the training run made no " + file);
        }
        return feature >= 25
                ? base.with("aot", List.of("-XX:AOTCache=" + file), "the JDK's AOT cache of one render run")
                : base.with("appcds", List.of("-XX:SharedArchiveFile=" + file), "a class archive of one render run");
    }

    private static void measure(BenchResults results, Variant variant, int runs) throws Exception {
        for (String[] args : List.of(VERSION, RENDER, QUARKUS_BOOT)) {
            String command = args == RENDER ? "render" : args == VERSION ? "version" : "quarkus_boot";
            if (args == QUARKUS_BOOT && !variant.launch().contains("-jar")) {
                continue;
            }
            Timing t = time(variant.command(args), runs);
            String name = "cli_" + command + "_" + variant.name();
            String what = String.join(" ", args) + "; " + variant.what();
            results.put(Figure.of(name + "_wall_ms", t.wallMs(), null, "ms", t.runs(), "whole process, " + what));
            results.put(Figure.of(name + "_cpu_ms", t.cpuMs(), null, "ms", t.runs(), "user + system CPU, " + what));
        }
    }

    /** Median wall and CPU time of {@code runs} runs after one unmeasured run (the page cache warmed). */
    static Timing time(List<String> command, int runs) throws Exception {
        run(command);
        double[] wall = new double[runs];
        double[] cpu = new double[runs];
        for (int i = 0; i < runs; i++) {
            long cpuBefore = childrenCpuMillis();
            long start = System.nanoTime();
            run(command);
            wall[i] = (System.nanoTime() - start) / 1e6;
            cpu[i] = childrenCpuMillis() - cpuBefore;
        }
        return new Timing(BenchResults.median(wall), BenchResults.median(cpu), runs);
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("timed out: " + command);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("exit " + process.exitValue() + ": " + command);
        }
    }

    /** CPU time of this process's children that were waited for (fields 16 and 17 of /proc/self/stat), in ms. */
    static long childrenCpuMillis() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        // the command name (field 2) may hold spaces: count from the parenthesis that closes it
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
        return ticks * 1000 / CLOCK_TICKS;
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            p.waitFor();
            return Long.parseLong(out);
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }

    private static int feature(String java) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(java, "-XshowSettings:properties", "-version")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        for (String line : out.split("\n")) {
            String l = line.strip();
            if (l.startsWith("java.specification.version = ")) {
                return Integer.parseInt(l.substring("java.specification.version = ".length()));
            }
        }
        throw new IllegalStateException("cannot tell the version of " + java);
    }
}

package io.topobridge.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;

/**
 * The benchmarks' results file ({@code target/bench/results.json}): the machine they ran on and, per figure, its
 * median (and p99 where there is a distribution), unit, sample count and, where two things were measured side by
 * side in the same run, their ratio. Every benchmark step adds its figures to the same file; {@link #main} prints
 * it as a table.
 */
public final class BenchResults {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;
    private final ObjectNode root;
    /** Whether a write keeps the figures another process wrote to the file meanwhile (not for a fresh file's first). */
    private boolean merge;

    private BenchResults(Path file, ObjectNode root, boolean merge) {
        this.file = file;
        this.root = root;
        this.merge = merge;
    }

    /** A new results file (whatever was there is replaced) describing this machine. */
    public static BenchResults fresh(Path file, String mode) {
        ObjectNode root = JSON.createObjectNode();
        root.set("machine", describeMachine());
        root.putObject("run").put("mode", mode).put("started", Instant.now().toString());
        root.putObject("figures");
        return new BenchResults(file, root, false);
    }

    /** The results file as it is, or a fresh one when there is none yet. */
    public static BenchResults open(Path file, String mode) {
        if (!Files.isRegularFile(file)) {
            return fresh(file, mode);
        }
        try {
            return new BenchResults(file, (ObjectNode) JSON.readTree(file.toFile()), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    public Path file() {
        return file;
    }

    /** One figure; {@link #put} writes it. */
    public record Figure(
            String name,
            double median,
            Double p99,
            String unit,
            int samples,
            Double ratio,
            String ratioOf,
            String note) {

        /** A figure with a median (and an optional p99) over {@code samples} measurements. */
        public static Figure of(String name, double median, Double p99, String unit, int samples, String note) {
            return new Figure(name, median, p99, unit, samples, null, null, note);
        }

        /** A figure of the median and p99 of {@code samples}. */
        public static Figure of(String name, double[] samples, String unit, String note) {
            return of(name, BenchResults.median(samples), percentile(samples, 0.99), unit, samples.length, note);
        }

        /** The same figure with the ratio {@code value} of the comparison {@code of}, measured in the same run. */
        public Figure withRatio(double value, String of) {
            return new Figure(name, median, p99, unit, samples, value, of, note);
        }
    }

    /** Adds or replaces one figure and writes the file. */
    public synchronized BenchResults put(Figure figure) {
        ObjectNode node = ((ObjectNode) root.get("figures")).putObject(figure.name());
        node.put("median", round(figure.median()));
        if (figure.p99() != null) {
            node.put("p99", round(figure.p99()));
        }
        node.put("unit", figure.unit());
        node.put("samples", figure.samples());
        if (figure.ratio() != null) {
            node.put("ratio", round(figure.ratio()));
            node.put("ratio_of", figure.ratioOf());
        }
        if (figure.note() != null) {
            node.put("note", figure.note());
        }
        // on a shared machine the neighbours' load is part of what a figure means
        node.put(
                "load_average_1m",
                round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        write();
        return this;
    }

    /** The figures written so far, by name. */
    public JsonNode figures() {
        return root.get("figures");
    }

    public JsonNode machine() {
        return root.get("machine");
    }

    /**
     * Writes the file under a lock on its sibling {@code .lock}: the end-to-end tier runs its classes in several JVMs
     * at once, and two of them add figures to the same file; each keeps the other's figures.
     */
    private void write() {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock ignored = channel.lock()) {
                if (merge && Files.isRegularFile(file)) {
                    JsonNode theirs = JSON.readTree(file.toFile()).path("figures");
                    ObjectNode ours = (ObjectNode) root.get("figures");
                    theirs.fieldNames().forEachRemaining(name -> {
                        if (!ours.has(name)) {
                            ours.set(name, theirs.get(name));
                        }
                    });
                }
                merge = true;
                ((ObjectNode) root.get("run")).put("updated", Instant.now().toString());
                Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                JSON.writeValue(tmp.toFile(), root);
                Files.move(
                        tmp,
                        file,
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The figures as a table, one line each, with the machine above it. */
    public String table() {
        StringBuilder out = new StringBuilder();
        JsonNode m = machine();
        out.append(String.format(
                "machine: %s, %d cores, %d MB; %s%n",
                m.path("cpu").asText(),
                m.path("cores").asInt(),
                m.path("memory_mb").asLong(),
                m.path("jvm").asText()));
        out.append(String.format(
                "%-42s %12s %12s %-6s %8s %10s  %s%n",
                "figure", "median", "p99", "unit", "samples", "ratio", "ratio of"));
        for (Iterator<Map.Entry<String, JsonNode>> it = figures().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode f = e.getValue();
            out.append(String.format(
                    "%-42s %12s %12s %-6s %8d %10s  %s%n",
                    e.getKey(),
                    f.path("median").asText(),
                    f.has("p99") ? f.path("p99").asText() : "",
                    f.path("unit").asText(),
                    f.path("samples").asInt(),
                    f.has("ratio") ? f.path("ratio").asText() : "",
                    f.path("ratio_of").asText("")));
        }
        return out.toString();
    }

    /** Median of {@code values} (the upper one of an even count). */
    public static double median(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** The nearest-rank percentile {@code p} (0..1) of {@code values}. */
    public static double percentile(double[] values, double p) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static double round(double value) {
        return Math.abs(value) >= 100 ? Math.round(value * 10) / 10.0 : Math.round(value * 1000) / 1000.0;
    }

    private static ObjectNode describeMachine() {
        ObjectNode m = JSON.createObjectNode();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("cpu", cpuModel());
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        m.put("memory_mb", os.getTotalMemorySize() / (1024 * 1024));
        m.put(
                "os",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"));
        m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        return m;
    }

    private static String cpuModel() {
        try {
            Path cpuinfo = Path.of("/proc/cpuinfo");
            if (Files.isReadable(cpuinfo)) {
                for (String line : Files.readAllLines(cpuinfo)) {
                    if (line.startsWith("model name")) {
                        return line.substring(line.indexOf(':') + 1).trim();
                    }
                }
            }
        } catch (IOException e) {
            // fall through to the architecture
        }
        return System.getProperty("os.arch");
    }

    /** Prints the table of a results file: {@code BenchResults [file]}. */
    public static void main(String[] args) {
        Path file = Path.of(args.length > 0 ? args[0] : "target/bench/results.json");
        System.out.println("benchmark results (" + file + "):");
        System.out.print(open(file, "report").table());
    }
}

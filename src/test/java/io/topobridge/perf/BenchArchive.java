package io.topobridge.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Keeps a benchmark run's {@code results.json} as an artifact of the manual: a copy under {@code docs/benchmarks/}
 * named {@code <date>-<commit>[-<mode>].json} (the date the run started, UTC; the mode unless {@code full}), with an
 * {@code archive} block naming the commit the run's code was, whether the tree had changes next to it, the command
 * that ran, and a free description of the machine's circumstances (shared, load) next to the {@code machine} block
 * the benchmarks wrote themselves. {@code docs/benchmarks.md} quotes figures from these files only.
 *
 * <p>{@code ./mvnw -B -q test -Dtest=BenchArchiveTest -Dbench.archive=target/bench/results.json
 * "-Dbench.archiveCommand=./mvnw -B -Pbench verify" "-Dbench.archiveMachine=alone on the machine"}, or
 * {@code BenchArchive RESULTS COMMAND [MACHINE NOTE]} on the test classpath.
 */
public final class BenchArchive {

    /** Where the archived results live, relative to the project directory. */
    public static final Path DIR = Path.of("docs", "benchmarks");

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BenchArchive() {}

    /** What to record with a results file: its commit, whether the tree differed from it, the command, the machine. */
    public record Provenance(String commit, boolean uncommittedChanges, String command, String machineNote) {}

    /**
     * Copies {@code results} into {@code dir} with its provenance; returns the file written. A file of that name that
     * holds other results is never overwritten.
     */
    public static Path archive(Path results, Path dir, Provenance provenance) {
        ObjectNode root;
        try {
            root = (ObjectNode) JSON.readTree(results.toFile());
        } catch (IOException | ClassCastException e) {
            throw new IllegalArgumentException(results + " is not a benchmark results file: " + e.getMessage());
        }
        for (String field : List.of("machine", "run", "figures")) {
            if (!root.path(field).isObject()) {
                throw new IllegalArgumentException(results + " lacks its \"" + field + "\" object: not a results file");
            }
        }
        if (provenance.commit() == null || !provenance.commit().matches("[0-9a-f]{7,40}")) {
            throw new IllegalArgumentException("commit must be a hex commit id, not " + provenance.commit());
        }
        if (provenance.command() == null || provenance.command().isBlank()) {
            throw new IllegalArgumentException("the command that produced " + results + " must be named");
        }
        String started = root.path("run").path("started").asText("");
        String date;
        try {
            date = Instant.parse(started).atOffset(ZoneOffset.UTC).toLocalDate().toString();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(results + " has no valid run.started (" + started + ")");
        }
        String mode = root.path("run").path("mode").asText("full");
        String name = date + "-"
                + provenance
                        .commit()
                        .substring(0, Math.min(10, provenance.commit().length()))
                + (mode.equals("full") ? "" : "-" + mode.replaceAll("[^a-z0-9-]", "-")) + ".json";
        ObjectNode archive = JSON.createObjectNode();
        archive.put("commit", provenance.commit());
        archive.put("uncommitted_changes", provenance.uncommittedChanges());
        archive.put("command", provenance.command());
        if (provenance.machineNote() != null && !provenance.machineNote().isBlank()) {
            archive.put("machine_note", provenance.machineNote());
        }
        ObjectNode out = JSON.createObjectNode();
        out.set("archive", archive);
        root.fields().forEachRemaining(e -> {
            if (!e.getKey().equals("archive")) {
                out.set(e.getKey(), e.getValue());
            }
        });
        Path file = dir.resolve(name);
        try {
            String text = JSON.writeValueAsString(out) + "\n";
            if (Files.exists(file) && !Files.readString(file).equals(text)) {
                throw new IllegalStateException(file + " exists and holds other results; move it away first");
            }
            Files.createDirectories(dir);
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    /** The required fields of an archived file, or what is wrong with it. */
    public static List<String> problems(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            return List.of("not JSON: " + e.getMessage());
        }
        List<String> out = new java.util.ArrayList<>();
        JsonNode archive = root.path("archive");
        if (!archive.path("commit").asText("").matches("[0-9a-f]{7,40}")) {
            out.add("archive.commit is no commit id");
        }
        if (archive.path("command").asText("").isBlank()) {
            out.add("archive.command is missing");
        }
        if (!archive.path("uncommitted_changes").isBoolean()) {
            out.add("archive.uncommitted_changes is missing");
        }
        for (String field : List.of("cores", "cpu", "memory_mb", "os", "jvm")) {
            if (root.path("machine").path(field).isMissingNode()) {
                out.add("machine." + field + " is missing");
            }
        }
        if (!root.path("figures").isObject() || root.path("figures").isEmpty()) {
            out.add("no figures");
        }
        return out;
    }

    /** The current commit of the checkout and whether tracked files differ from it. */
    public static Provenance fromGit(Path projectDir, String command, String machineNote) {
        String commit = git(projectDir, "rev-parse", "HEAD").strip();
        boolean dirty = !git(projectDir, "status", "--porcelain", "--untracked-files=no")
                .isBlank();
        return new Provenance(commit, dirty, command, machineNote);
    }

    private static String git(Path dir, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out.strip());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run git", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** {@code BenchArchive RESULTS COMMAND [MACHINE NOTE]}: archives into docs/benchmarks/ and prints the file. */
    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: BenchArchive RESULTS COMMAND [MACHINE NOTE]");
            System.exit(2);
        }
        Provenance provenance = fromGit(Path.of("."), args[1], args.length > 2 ? args[2] : null);
        System.out.println(archive(Path.of(args[0]), DIR, provenance));
    }
}

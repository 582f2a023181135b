package io.topobridge.e2e;

import io.topobridge.testing.PackagedApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An earlier version of this repository, built for an upgrade test: its application (the {@code quarkus-app} folder
 * the image holds) and its Helm chart, taken from one commit with {@code git archive} and built with its own
 * {@code ./mvnw package}, tests skipped. A commit never changes, so the result is kept in a cache folder under the
 * commit's id and built once per machine.
 *
 * @param commit the full commit id
 * @param chart the chart's folder at that commit
 * @param jar the application's {@code quarkus-run.jar} at that commit
 * @param chartVersion {@code version} of the chart at that commit
 * @param built how long the build took now ({@link Duration#ZERO} when it came from the cache)
 */
record PreviousRelease(String commit, Path chart, Path jar, String chartVersion, Duration built) {

    /**
     * The version an upgrade starts from unless {@code -Dtopobridge.e2e.upgrade-from=<commit>} says otherwise: the
     * first commit whose stopping replicas drain their webhook calls, so both directions must lose no call and tie
     * every pod. An older one (c4c618c, before the drain) is measured in docs/install.md.
     */
    static final String DEFAULT_COMMIT = "c1f19d4381aeba8d50a3b044968189ef3fe9437c";

    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);

    /** The version {@code -Dtopobridge.e2e.upgrade-from} names (default {@link #DEFAULT_COMMIT}), built or cached. */
    static PreviousRelease get() {
        String wanted = System.getProperty("topobridge.e2e.upgrade-from", DEFAULT_COMMIT);
        String commit =
                git("rev-parse", "--verify", "--quiet", wanted + "^{commit}").strip();
        Path home = cacheRoot().resolve(commit);
        Duration built = Duration.ZERO;
        if (!Files.isRegularFile(home.resolve("quarkus-app/quarkus-run.jar"))) {
            built = build(commit, home);
        }
        Path chart = home.resolve("helm/topobridge");
        return new PreviousRelease(commit, chart, home.resolve("quarkus-app/quarkus-run.jar"), version(chart), built);
    }

    /** The first 12 characters of the commit id, for messages. */
    String shortCommit() {
        return commit.substring(0, 12);
    }

    /**
     * {@code $TOPOBRIDGE_E2E_PREVIOUS_CACHE}, else {@code topobridge-e2e-previous} in the user's cache folder: a folder
     * of its own, as the Go binaries' cache keeps only its newest build.
     */
    private static Path cacheRoot() {
        String root = System.getenv("TOPOBRIDGE_E2E_PREVIOUS_CACHE");
        if (root != null && !root.isBlank()) {
            return Path.of(root);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        return (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache"))
                .resolve("topobridge-e2e-previous");
    }

    /**
     * Extracts the commit next to {@code home}, builds it and moves its application and chart into {@code home} in one
     * rename, so a run that stops half-way leaves no cache entry that looks whole.
     */
    private static Duration build(String commit, Path home) {
        long start = System.nanoTime();
        Path work = home.resolveSibling(
                commit + ".building-" + ProcessHandle.current().pid());
        Path source = work.resolve("source");
        Path out = work.resolve("out");
        try {
            Files.createDirectories(source);
            Files.createDirectories(out);
            Path archive = work.resolve("source.tar");
            git("archive", "--format=tar", "-o", archive.toString(), commit);
            run(List.of("tar", "-xf", archive.toString(), "-C", source.toString()), work, work.resolve("tar.log"));
            Path log = work.resolve("build.log");
            run(List.of("./mvnw", "-B", "-q", "package", "-Dmaven.test.skip=true"), source, log);
            Files.move(source.resolve("target/quarkus-app"), out.resolve("quarkus-app"));
            Files.createDirectories(out.resolve("helm"));
            Files.move(source.resolve("helm/topobridge"), out.resolve("helm/topobridge"));
            try {
                Files.move(out, home, StandardCopyOption.ATOMIC_MOVE);
            } catch (java.nio.file.FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
                // another run built the same commit meanwhile: its copy serves
            }
            return Duration.ofNanos(System.nanoTime() - start);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build commit " + commit + " in " + work, e);
        } finally {
            delete(work);
        }
    }

    private static String git(String... args) {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        try {
            Path log = Files.createTempFile("topobridge-git", ".log");
            try {
                return run(command, Path.of("."), log);
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code command} in {@code dir} with its output in {@code log}; returns the output, fails naming its end. */
    private static String run(List<String> command, Path dir, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // the earlier version is built with the JDK this test runs on, within the memory the tier's rules give Maven
        builder.environment()
                .put(
                        "JAVA_HOME",
                        Path.of(PackagedApp.java()).getParent().getParent().toString());
        builder.environment().put("MAVEN_OPTS", "-Xmx1200m");
        Process process = builder.start();
        try {
            if (!process.waitFor(BUILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " took over " + BUILD_TIMEOUT.toMinutes()
                        + " min; its output: " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            String tail = output.length() > 2000 ? output.substring(output.length() - 2000) : output;
            String hint = command.get(0).equals("git")
                    ? "; an earlier commit needs this repository's history (a full clone, not a shallow one)"
                    : "";
            throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue() + ") in "
                    + dir.toAbsolutePath() + hint + ":\n" + tail);
        }
        return output;
    }

    private static String version(Path chart) {
        try {
            return Files.readAllLines(chart.resolve("Chart.yaml")).stream()
                    .filter(l -> l.startsWith("version:"))
                    .map(l -> l.substring("version:".length()).strip())
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no version in " + chart.resolve("Chart.yaml")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

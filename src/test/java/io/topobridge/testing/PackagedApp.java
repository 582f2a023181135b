package io.topobridge.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the packaged application ({@code target/quarkus-app/quarkus-run.jar}) as a separate process. */
public final class PackagedApp {

    /** Exit code and output of one run. */
    public record Run(int exitCode, String stdout, String stderr) {}

    private PackagedApp() {}

    public static Path jar() {
        Path jar = Path.of(System.getProperty("topobridge.app", "target/quarkus-app/quarkus-run.jar"));
        assertTrue(Files.isRegularFile(jar), "the packaged application is missing: " + jar + " (run ./mvnw verify)");
        return jar;
    }

    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Runs the jar with {@code args} (JVM options first, if any, as {@code -D...}) and waits for it; the JVM compiles
     * with C1 alone unless {@code jvmOptions} say otherwise.
     */
    public static Run run(List<String> jvmOptions, String... args) throws IOException, InterruptedException {
        return run(java.util.Map.of(), jvmOptions, args);
    }

    /**
     * As {@link #run(List, String...)}, with environment variables changed first: a null value removes one (the
     * environment is otherwise this process's).
     */
    public static Run run(java.util.Map<String, String> environment, List<String> jvmOptions, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java());
        if (jvmOptions.stream().noneMatch(o -> o.startsWith("-XX:TieredStopAtLevel"))) {
            // a run of seconds: C1's code is enough, C2's compiles would cost more CPU than they save
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar().toString());
        command.addAll(List.of(args));
        Path out = Files.createTempFile("topobridge-out", ".txt");
        Path err = Files.createTempFile("topobridge-err", ".txt");
        try {
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            environment.forEach((key, value) -> {
                if (value == null) {
                    builder.environment().remove(key);
                } else {
                    builder.environment().put(key, value);
                }
            });
            Process process = builder.start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("timed out: " + command);
            }
            return new Run(
                    process.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    public static Run run(String... args) throws IOException, InterruptedException {
        return run(List.of(), args);
    }
}

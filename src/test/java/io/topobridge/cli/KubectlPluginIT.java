package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.testing.PackagedApp;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kubectl plugin the build puts next to the CLI jar: run as kubectl runs a plugin ({@code kubectl-topobridge
 * version}, found on PATH, through a symbolic link too), it runs the jar beside it, or the one {@code TOPOBRIDGE_JAR}
 * names, and passes arguments, output and exit codes through.
 */
class KubectlPluginIT {

    @TempDir
    Path bin;

    private record Result(int exit, String out, String err) {}

    private static Path plugin() {
        Path plugin = PackagedApp.jar().resolveSibling("kubectl-topobridge");
        assertThat(plugin).as("packaged next to the jar").isExecutable();
        return plugin;
    }

    private Result run(Map<String, String> env, String... command) throws Exception {
        Path out = Files.createTempFile(bin, "out", ".txt");
        Path err = Files.createTempFile(bin, "err", ".txt");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("TOPOBRIDGE_JAR");
        builder.environment().putAll(env);
        Process process = builder.start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void versionThroughThePluginOnPath() throws Exception {
        Files.createSymbolicLink(bin.resolve("kubectl-topobridge"), plugin().toAbsolutePath());
        // as kubectl runs it: by its path on PATH, which is a link to the packaged plugin
        var run = run(Map.of(), bin.resolve("kubectl-topobridge").toString(), "version");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("topobridge " + System.getProperty("build.project.version") + "\njava ");
        // kubectl finds plugins on PATH by the kubectl- prefix; where it is installed, ask it too
        List<String> kubectl = new ArrayList<>();
        for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "kubectl"))) {
                kubectl.add(Path.of(dir, "kubectl").toString());
                break;
            }
        }
        for (String found : kubectl) {
            var viaKubectl = run(Map.of(), found, "topobridge", "version");
            assertThat(viaKubectl.exit()).as(viaKubectl.err()).isZero();
            assertThat(viaKubectl.out()).isEqualTo(run.out());
        }
    }

    @Test
    void exitCodesAndStandardInputPassThrough() throws Exception {
        Path copy = bin.resolve("kubectl-topobridge");
        Files.copy(plugin(), copy);
        copy.toFile().setExecutable(true);
        var missing = run(Map.of(), copy.toString(), "version");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("no topobridge jar at " + bin.resolve("quarkus-run.jar"));

        Map<String, String> env =
                Map.of("TOPOBRIDGE_JAR", PackagedApp.jar().toAbsolutePath().toString());
        Path values = bin.resolve("values.yaml");
        Files.writeString(values, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nkind: Node\n");
        var refused = run(env, copy.toString(), "render", values.toString());
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("is given twice in one mapping");
        var usage = run(env, copy.toString(), "render", "-o", "wide", values.toString());
        assertThat(usage.exit()).isEqualTo(2);
    }
}

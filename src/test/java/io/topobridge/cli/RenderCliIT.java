package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.testing.PackagedApp;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code render} command of the packaged jar: help, exit codes, findings on stderr, clean stdout. */
class RenderCliIT {

    @TempDir
    Path dir;

    @Test
    void helpDocumentsTheCommand() throws Exception {
        var run = PackagedApp.run("render", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout()).contains("Usage: topobridge render", "--preset", "--tiers", "Exit codes:");
    }

    @Test
    void usageErrorsExitWithTwo() throws Exception {
        assertThat(PackagedApp.run("render").exitCode()).isEqualTo(2);
        var missing = PackagedApp.run("render", dir.resolve("nope.yaml").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.stderr()).contains("no such file or folder");
        var duplicate = PackagedApp.run("render", "--tiers", "rack,rack", dir.toString());
        assertThat(duplicate.exitCode()).isEqualTo(2);
        assertThat(duplicate.stderr()).contains("label key 'rack' is listed twice");
    }

    @Test
    void rejectedDocumentsExitWithOneAndNameTheDocument() throws Exception {
        Files.writeString(dir.resolve("mixed.yaml"), """
                apiVersion: v1
                kind: Node
                metadata:
                  name: n1
                ---
                just: a map
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: p1
                  namespace: ns
                spec:
                  containers: [{name: c, image: busybox}]
                """);
        var run = PackagedApp.run("render", dir.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stderr()).contains("REJECTED File/" + dir.resolve("mixed.yaml") + "#2");
        // the valid pod is still printed, and stdout is nothing but YAML documents
        assertThat(run.stdout()).contains("kind: Pod").contains("name: p1");
        assertThat(run.stdout().strip()).startsWith("---");
    }

    @Test
    void hostileWorkloadsCostOnlyThemselvesAndPrintNoStackTrace() throws Exception {
        Files.writeString(dir.resolve("hostile.yaml"), io.topobridge.core.topology.RenderCliTest.HOSTILE);
        var run = PackagedApp.run("render", dir.toString());
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(1);
        assertThat(run.stdout()).contains("name: tb-deploy-good").doesNotContain("tb-deploy-quantity");
        assertThat(run.stderr().lines())
                .as(run.stderr())
                .isNotEmpty()
                .allMatch(l -> l.matches("(INFO|WARNING|REJECTED) \\S+ \\S+: .*|NOTE .*"))
                .noneMatch(l -> l.contains("Exception") || l.startsWith("\tat "));
        assertThat(run.stderr()).contains("REJECTED Deployment/ns/quantity UnreadableWorkload");
    }

    @Test
    void cleanInputExitsWithZeroAndNoLogNoise() throws Exception {
        Files.writeString(dir.resolve("pod.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata: {name: p1, namespace: ns}
                spec: {containers: [{name: c, image: busybox}]}
                """);
        var run = PackagedApp.run("render", dir.toString());
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stderr()).isEmpty();
    }
}

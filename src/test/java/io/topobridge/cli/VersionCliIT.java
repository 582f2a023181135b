package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.testing.PackagedApp;
import org.junit.jupiter.api.Test;

/** The {@code version} command of the packaged jar: the project version and the Java runtime, nothing else. */
class VersionCliIT {

    @Test
    void printsTheVersionAndTheRuntime() throws Exception {
        var run = PackagedApp.run("version");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stderr()).isEmpty();
        String[] lines = run.stdout().strip().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).isEqualTo("topobridge " + System.getProperty("build.project.version"));
        assertThat(lines[1]).startsWith("java " + System.getProperty("java.runtime.version") + " (");
        assertThat(PackagedApp.run("--version").stdout()).isEqualTo(run.stdout());
    }
}

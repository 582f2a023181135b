package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.testing.PackagedApp;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code doctor} and {@code explain} of the packaged jar where no cluster answers and with bad arguments (their
 * answers on a real cluster are checked by {@code DiagnosisE2E}).
 */
class DiagnosisCliIT {

    private static final List<String> NO_CLUSTER = List.of(
            "-Dquarkus.kubernetes-client.api-server-url=https://127.0.0.1:1",
            "-Dquarkus.kubernetes-client.request-timeout=2s",
            "-Dquarkus.kubernetes-client.connection-timeout=2s",
            "-Dquarkus.kubernetes-client.request-retry-backoff-limit=0");

    @Test
    void explainRefusesANameWithoutItsNamespace() throws Exception {
        var run = PackagedApp.run(NO_CLUSTER, "explain", "tp-one-partition");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("expected NAMESPACE/NAME, got \"tp-one-partition\"");
        var output = PackagedApp.run(NO_CLUSTER, "explain", "-o", "yaml", "inference/tp-one-partition");
        assertThat(output.exitCode()).isEqualTo(2);
        assertThat(output.stderr()).contains("--output must be text or json, got \"yaml\"");
    }

    @Test
    void anUnreachableApiServerIsAFailureSaidOnce() throws Exception {
        var doctor = PackagedApp.run(NO_CLUSTER, "doctor");
        assertThat(doctor.exitCode()).as(doctor.stdout() + doctor.stderr()).isEqualTo(2);
        assertThat(doctor.stderr()).contains("error: cannot ask the API server https://127.0.0.1:1");
        var explain = PackagedApp.run(NO_CLUSTER, "explain", "inference/tp-one-partition");
        assertThat(explain.exitCode()).as(explain.stdout() + explain.stderr()).isEqualTo(2);
        assertThat(explain.stderr()).contains("error: cannot ask the API server https://127.0.0.1:1");
    }

    @Test
    void helpListsTheExitCodes() throws Exception {
        var run = PackagedApp.run("doctor", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout()).contains("0   every check passed", "1   warnings", "2   failures");
        assertThat(PackagedApp.run("--help").stdout()).contains("doctor", "explain");
    }
}

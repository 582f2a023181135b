package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.testing.PackagedApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code doctor} and {@code explain} of the packaged jar where no cluster answers, where no kubeconfig is found and
 * with bad arguments (their answers on a real cluster are checked by {@code DiagnosisE2E}).
 */
class DiagnosisCliIT {

    @TempDir
    Path home;

    /** A kubeconfig whose only server refuses every connection. */
    private Path unreachable;

    /** The environment of a machine without any kubeconfig, outside a pod. */
    private Map<String, String> nothing() {
        Map<String, String> env = new HashMap<>();
        env.put("KUBECONFIG", null);
        env.put("KUBERNETES_SERVICE_HOST", null);
        env.put("HOME", home.toString());
        return env;
    }

    private List<String> inHome() {
        return List.of("-Duser.home=" + home);
    }

    @BeforeEach
    void kubeconfig() throws Exception {
        unreachable = home.resolve("unreachable.yaml");
        Files.writeString(unreachable, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
                contexts: [{name: there, context: {cluster: c, user: u, namespace: inference}}]
                current-context: there
                users: [{name: u, user: {token: t}}]
                """);
    }

    @Test
    void explainRefusesAMalformedNameAndAnUnknownFormat() throws Exception {
        var run = PackagedApp.run("explain", "--kubeconfig", unreachable.toString(), "a/b/c");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("expected NAME or NAMESPACE/NAME, got \"a/b/c\"");
        var output = PackagedApp.run(
                "explain", "--kubeconfig", unreachable.toString(), "-o", "yaml", "inference/tp-one-partition");
        assertThat(output.exitCode()).isEqualTo(2);
        assertThat(output.stderr()).contains("--output must be text or json, got \"yaml\"");
        var namespaces = PackagedApp.run("explain", "-n", "other", "inference/tp-one-partition");
        assertThat(namespaces.exitCode()).isEqualTo(2);
        assertThat(namespaces.stderr())
                .contains("namespace \"inference\" in \"inference/tp-one-partition\" differs from -n");
    }

    @Test
    void anUnreachableApiServerIsAFailureSaidOnceAndQuickly() throws Exception {
        var doctor = PackagedApp.run("doctor", "--kubeconfig", unreachable.toString());
        assertThat(doctor.exitCode()).as(doctor.stdout() + doctor.stderr()).isEqualTo(2);
        assertThat(doctor.stderr().lines())
                .singleElement()
                .asString()
                .startsWith("error: cannot ask the API server https://127.0.0.1:1");
        // KUBECONFIG is honoured as kubectl honours it, and a bare NAME is in the context's namespace
        var env = nothing();
        env.put("KUBECONFIG", unreachable.toString());
        var explain = PackagedApp.run(env, inHome(), "explain", "tp-one-partition");
        assertThat(explain.exitCode()).as(explain.stdout() + explain.stderr()).isEqualTo(2);
        assertThat(explain.stderr()).contains("error: cannot ask the API server https://127.0.0.1:1");
    }

    @Test
    void withoutAnyKubeconfigBothFailAtOnceSayingWhatTheyTried() throws Exception {
        for (List<String> args : List.of(List.of("doctor"), List.of("explain", "inference/tp-one-partition"))) {
            long start = System.nanoTime();
            var run = PackagedApp.run(nothing(), inHome(), args.toArray(String[]::new));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
            assertThat(run.stderr().strip())
                    .isEqualTo("error: no kubeconfig found (tried: --kubeconfig (not given), $KUBECONFIG (not set), "
                            + home.resolve(".kube/config") + " (no such file), the in-cluster service account"
                            + " ($KUBERNETES_SERVICE_HOST not set))");
            // the bound is 2 s on an idle machine; shared test machines get twice that
            assertThat(millis).as("fails fast: %s", args).isLessThan(4_000);
        }
        var missing = PackagedApp.run(
                nothing(),
                inHome(),
                "doctor",
                "--kubeconfig",
                home.resolve("nope").toString());
        assertThat(missing.stderr()).contains("no kubeconfig found (tried: --kubeconfig " + home.resolve("nope"));
        var context = PackagedApp.run("doctor", "--kubeconfig", unreachable.toString(), "--context", "elsewhere");
        assertThat(context.exitCode()).isEqualTo(2);
        assertThat(context.stderr()).contains("context \"elsewhere\" does not exist in the kubeconfig");
    }

    @Test
    void helpListsTheExitCodesAndTheKubectlFlags() throws Exception {
        var run = PackagedApp.run("doctor", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout())
                .contains("0   every check passed", "1   warnings", "2   failures")
                .contains("--kubeconfig=FILE", "--context=NAME", "-n, --namespace=NAMESPACE", "-o, --output=FORMAT")
                .contains("scheduler-actions", "node-room");
        assertThat(PackagedApp.run("--help").stdout()).contains("doctor", "explain");
    }
}

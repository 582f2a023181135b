package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Where the diagnosis commands find their cluster, as kubectl does: {@code --kubeconfig}, then {@code $KUBECONFIG},
 * then {@code ~/.kube/config}, then the pod's service account; {@code --context} picks a context that must exist; none
 * found is an error naming everything tried; every client gets the short connect timeout and no retries.
 */
class ClusterAccessTest {

    @TempDir
    Path dir;

    private static String kubeconfig(String server) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - {name: a, cluster: {server: "%s"}}
                - {name: b, cluster: {server: "https://b.example:6443"}}
                contexts:
                - {name: first, context: {cluster: a, user: u, namespace: team-a}}
                - {name: second, context: {cluster: b, user: u}}
                current-context: first
                users: [{name: u, user: {token: t}}]
                """.formatted(server);
    }

    private ClusterAccess flags(String... args) {
        ClusterAccess access = new ClusterAccess();
        new CommandLine(access).parseArgs(args);
        return access;
    }

    private ClusterAccess.Environment env(Map<String, String> variables) {
        return new ClusterAccess.Environment(variables, dir.resolve("home"), dir.resolve("token"));
    }

    @Test
    void theFlagsPickTheFileAndTheContext() throws Exception {
        Path file = dir.resolve("kc.yaml");
        Files.writeString(file, kubeconfig("https://a.example:6443"));
        var current = flags("--kubeconfig", file.toString()).config(env(Map.of()));
        assertThat(current.getMasterUrl()).isEqualTo("https://a.example:6443/");
        assertThat(current.getNamespace()).isEqualTo("team-a");
        assertThat(current.getConnectionTimeout()).isEqualTo(ClusterAccess.CONNECT_TIMEOUT_MS);
        assertThat(current.getRequestRetryBackoffLimit()).isZero();
        var second =
                flags("--kubeconfig", file.toString(), "--context", "second").config(env(Map.of()));
        assertThat(second.getMasterUrl()).isEqualTo("https://b.example:6443/");
        assertThatThrownBy(() -> flags("--kubeconfig", file.toString(), "--context", "third")
                        .config(env(Map.of())))
                .isInstanceOf(ClusterAccess.UnusableKubeconfigException.class)
                .hasMessage("context \"third\" does not exist in the kubeconfig");
    }

    @Test
    void kubeconfigVariableThenTheHomeFolder() throws Exception {
        Path fromVariable = dir.resolve("from-variable.yaml");
        Files.writeString(fromVariable, kubeconfig("https://variable.example:6443"));
        Files.createDirectories(dir.resolve("home/.kube"));
        Files.writeString(dir.resolve("home/.kube/config"), kubeconfig("https://home.example:6443"));
        Map<String, String> variables = new HashMap<>();
        variables.put("KUBECONFIG", dir.resolve("missing.yaml") + java.io.File.pathSeparator + fromVariable);
        assertThat(flags().config(env(variables)).getMasterUrl()).isEqualTo("https://variable.example:6443/");
        assertThat(flags().config(env(Map.of())).getMasterUrl()).isEqualTo("https://home.example:6443/");
    }

    @Test
    void nothingFoundNamesEverythingTried() {
        Map<String, String> variables =
                Map.of("KUBECONFIG", dir.resolve("gone.yaml").toString());
        assertThatThrownBy(() -> flags().config(env(variables)))
                .isInstanceOf(ClusterAccess.UnusableKubeconfigException.class)
                .hasMessage("no kubeconfig found (tried: --kubeconfig (not given), $KUBECONFIG="
                        + dir.resolve("gone.yaml") + " (no such file), " + dir.resolve("home/.kube/config")
                        + " (no such file), the in-cluster service account ($KUBERNETES_SERVICE_HOST not set))");
        assertThatThrownBy(() -> flags().config(env(Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"))))
                .hasMessageEndingWith("the in-cluster service account (no token))");
        assertThatThrownBy(() ->
                        flags("--kubeconfig", dir.resolve("nope").toString()).config(env(Map.of())))
                .hasMessage(
                        "no kubeconfig found (tried: --kubeconfig " + dir.resolve("nope") + ", which does not exist)");
    }
}

package io.topobridge.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.core.finding.UserText;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;
import picocli.CommandLine.Option;

/**
 * The kubectl flags of the commands that ask a cluster ({@code --kubeconfig}, {@code --context}, {@code -n}) and the
 * client they make. The kubeconfig is found as kubectl finds it: {@code --kubeconfig}, else the files of
 * {@code KUBECONFIG}, else {@code ~/.kube/config}, else the pod's service account; when none is there the command
 * fails at once, naming what it tried, instead of waiting for a default server that is not there. A server that does
 * not answer fails within {@link #CONNECT_TIMEOUT_MS} per request, without retries.
 */
public class ClusterAccess {

    /** How long a command waits to connect to the API server: it answers in milliseconds when it is there at all. */
    static final int CONNECT_TIMEOUT_MS = 5_000;

    static final int REQUEST_TIMEOUT_MS = 30_000;

    private static final String SERVICE_ACCOUNT_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

    /** No kubeconfig where the flags, the environment and the home folder point, not in a pod, or no such context. */
    public static final class UnusableKubeconfigException extends RuntimeException {
        UnusableKubeconfigException(String message) {
            super(message, null, false, false);
        }
    }

    /** Where the kubeconfig is looked for: the process's environment and home folder (tests give their own). */
    record Environment(Map<String, String> variables, Path home, Path serviceAccountToken) {
        static Environment current() {
            return new Environment(
                    System.getenv(), Path.of(System.getProperty("user.home")), Path.of(SERVICE_ACCOUNT_TOKEN));
        }
    }

    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "Path to the kubeconfig file (default: the files of $KUBECONFIG, else ~/.kube/config, else"
                    + " the pod's service account).")
    Path kubeconfig;

    @Option(
            names = "--context",
            paramLabel = "NAME",
            description = "The kubeconfig context to use (default: its current context).")
    String context;

    /** The client the flags name; throws {@link UnusableKubeconfigException} when there is none to use. */
    public KubernetesClient client() {
        return new KubernetesClientBuilder()
                .withConfig(config(Environment.current()))
                .build();
    }

    /** The fabric8 configuration the flags name, with the command line's short timeouts. */
    Config config(Environment env) {
        Config config = base(env);
        if (context != null
                && (config.getCurrentContext() == null
                        || !context.equals(config.getCurrentContext().getName()))) {
            throw new UnusableKubeconfigException("context \"" + context + "\" does not exist in the kubeconfig");
        }
        config.setConnectionTimeout(CONNECT_TIMEOUT_MS);
        config.setRequestTimeout(REQUEST_TIMEOUT_MS);
        config.setRequestRetryBackoffLimit(0);
        return config;
    }

    private Config base(Environment env) {
        List<String> tried = new ArrayList<>();
        if (kubeconfig != null) {
            if (!Files.isRegularFile(kubeconfig)) {
                throw new UnusableKubeconfigException(
                        "no kubeconfig found (tried: --kubeconfig " + kubeconfig + ", which does not exist)");
            }
            return Config.fromKubeconfig(context, kubeconfig.toFile());
        }
        tried.add("--kubeconfig (not given)");
        String variable = env.variables().get("KUBECONFIG");
        if (variable != null && !variable.isBlank()) {
            List<Path> files = java.util.Arrays.stream(variable.split(File.pathSeparator))
                    .filter(f -> !f.isBlank() && Files.isRegularFile(Path.of(f)))
                    .map(Path::of)
                    .toList();
            if (files.size() == 1) {
                return Config.fromKubeconfig(context, files.get(0).toFile());
            }
            if (files.size() > 1) {
                // fabric8 merges the files of $KUBECONFIG as kubectl does, the first to set a value winning
                return Config.autoConfigure(context);
            }
            tried.add("$KUBECONFIG=" + variable + " (no such file)");
        } else {
            tried.add("$KUBECONFIG (not set)");
        }
        Path home = env.home().resolve(".kube").resolve("config");
        if (Files.isRegularFile(home)) {
            return Config.fromKubeconfig(context, home.toFile());
        }
        tried.add(home + " (no such file)");
        String host = env.variables().get("KUBERNETES_SERVICE_HOST");
        if (host != null && !host.isBlank() && Files.isRegularFile(env.serviceAccountToken())) {
            return Config.autoConfigure(context);
        }
        tried.add("the in-cluster service account ("
                + (host == null || host.isBlank() ? "$KUBERNETES_SERVICE_HOST not set" : "no token")
                + ")");
        throw new UnusableKubeconfigException("no kubeconfig found (tried: " + String.join(", ", tried) + ")");
    }

    /**
     * Runs {@code work} (what a command does with the cluster, answering its exit code) with the client the flags
     * name and closes it; no kubeconfig, or a server that does not answer or refuses, is one line on stderr and exit
     * code 2.
     */
    int run(ToIntFunction<KubernetesClient> work) {
        KubernetesClient client;
        try {
            client = client();
        } catch (UnusableKubeconfigException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        try (client) {
            return work.applyAsInt(client);
        } catch (KubernetesClientException e) {
            System.err.println("error: cannot ask the API server " + client.getMasterUrl() + ": "
                    + (e.getCode() > 0 ? "HTTP " + e.getCode() + " " : "") + firstLine(e.getMessage())
                    + (e.getCause() == null || e.getCode() > 0
                            ? ""
                            : " (" + firstLine(e.getCause().toString()) + ")"));
            return 2;
        }
    }

    private static String firstLine(String text) {
        return text == null ? "" : UserText.excerpt(UserText.firstLine(text));
    }

    static String namespace(String flag, KubernetesClient client) {
        return flag != null ? flag : Objects.requireNonNullElse(client.getNamespace(), "default");
    }
}

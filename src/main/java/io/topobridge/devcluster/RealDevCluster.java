package io.topobridge.devcluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Dev mode on the real components ({@code topobridge.dev-cluster.kind=real}): the real-cluster test tier's cluster
 * (etcd, kube-apiserver, kube-controller-manager, Volcano, LWS, AIBrix, fake kubelets), started as a child process
 * from the test classes the build compiled, seeded like the demo, with the webhook Service pointing at this
 * process's webhook port. The child prints the kubeconfig it made for the bridge; it stops its cluster when its
 * standard input closes, i.e. when this process ends, however it ends.
 */
public final class RealDevCluster implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RealDevCluster.class);
    /** The test class the child runs (in the test sources, next to the cluster it starts). */
    static final String MAIN = "io.topobridge.e2e.DevRealCluster";
    /** The line the child prints once its cluster is up and seeded. */
    public static final String READY_PREFIX = "KUBECONFIG=";

    static final Path CLASSPATH = Path.of("target", "e2e", "test-classpath.txt");
    static final Path TEST_CLASSES = Path.of("target", "test-classes");
    static final Path MAIN_CLASSES = Path.of("target", "classes");
    static final String PREPARE = "./mvnw -B test-compile";
    /** The cluster's own folder: never the test tier's {@code target/e2e/run}, which a test run may be using. */
    static final Path RUN = Path.of("target", "e2e", "dev-run");

    private final Process process;
    private final Path kubeconfig;
    private final Path log;

    private RealDevCluster(Process process, Path kubeconfig, Path log) {
        this.process = process;
        this.kubeconfig = kubeconfig;
        this.log = log;
    }

    /** What the child needs to know about this process's webhook server. */
    public record Webhook(int port, String serviceName, String serviceNamespace) {}

    /**
     * Starts the cluster and waits until it is seeded (building the components' binaries first when they are not
     * built yet, which takes minutes the first time).
     *
     * @throws IllegalStateException when the test classes or their classpath are missing (saying how to make them),
     *     or the child fails or does not answer within {@code timeout} (naming its log)
     */
    public static RealDevCluster start(Path seed, Webhook webhook, Duration timeout) {
        for (Path needed : List.of(CLASSPATH, TEST_CLASSES.resolve(MAIN.replace('.', '/') + ".class"))) {
            if (!Files.exists(needed)) {
                throw new IllegalStateException(
                        "dev mode on the real cluster needs the compiled test classes and their " + "classpath ("
                                + needed + " is missing): run `" + PREPARE + "` once, with Go 1.26 or newer on PATH");
            }
        }
        String classpath;
        try {
            classpath = TEST_CLASSES.toAbsolutePath()
                    + java.io.File.pathSeparator
                    + MAIN_CLASSES.toAbsolutePath()
                    + java.io.File.pathSeparator
                    + Files.readString(CLASSPATH).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path log = Path.of("target", "e2e", "dev-cluster.log").toAbsolutePath();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m",
                "-Dtopobridge.e2e.run=" + RUN.toAbsolutePath(),
                "-cp",
                classpath,
                MAIN,
                seed.toAbsolutePath().toString(),
                String.valueOf(webhook.port()),
                webhook.serviceName(),
                webhook.serviceNamespace()));
        Process process;
        try {
            Files.createDirectories(log.getParent());
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the real dev cluster: " + e.getMessage(), e);
        }
        CompletableFuture<Path> ready = new CompletableFuture<>();
        Thread pump = new Thread(() -> pump(process, log, ready), "real-dev-cluster-output");
        pump.setDaemon(true);
        pump.start();
        try {
            Path kubeconfig = ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            LOG.infof("dev mode: real cluster up (kubeconfig %s, log %s)", kubeconfig, log);
            return new RealDevCluster(process, kubeconfig, log);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while starting the real dev cluster", e);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException(
                    "the real dev cluster did not start within " + timeout + " (see " + log + "): "
                            + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()),
                    e);
        }
    }

    /** Copies the child's output to its log, and completes {@code ready} with its kubeconfig (or its failure). */
    private static void pump(Process process, Path log, CompletableFuture<Path> ready) {
        try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.write('\n');
                out.flush();
                if (line.startsWith(READY_PREFIX)) {
                    ready.complete(Path.of(line.substring(READY_PREFIX.length())));
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IllegalStateException("the child process ended (exit "
                + (process.isAlive() ? "unknown" : process.exitValue()) + ") before its cluster was ready"));
    }

    /** A client with the bridge's identity on that cluster. */
    public KubernetesClient client() {
        try {
            return new KubernetesClientBuilder()
                    .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path kubeconfig() {
        return kubeconfig;
    }

    public Path log() {
        return log;
    }

    /** Stops the cluster: the child stops its components when its input closes; after 60 s, all are killed. */
    @Override
    public void close() {
        var components = process.descendants().toList();
        try {
            process.getOutputStream().close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        components.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}

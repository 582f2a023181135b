package io.topobridge.e2e;

import io.topobridge.testing.FreePort;
import io.topobridge.testing.Upstream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Volcano in a {@link RealCluster}: its scheduler and its queue and PodGroup controllers, and on demand its own
 * HyperNode controller, either the pinned Volcano or an older minor's build ({@code -Dtopobridge.e2e.volcano}).
 */
final class VolcanoComponent {

    private final RealCluster cluster;
    private final Path root;
    /** Volcano's binaries: the pinned ones, or an older minor's ({@link #minor()}). */
    private final Path bin;

    /** Where its binaries are (the pinned build's folder when it runs the pinned Volcano). */
    Path bin() {
        return bin;
    }

    VolcanoComponent(RealCluster cluster, Path root, Path pinnedBin) {
        this.cluster = cluster;
        this.root = root;
        this.bin = minor().equals(PINNED)
                ? pinnedBin
                : root.resolve("volcano-" + minor()).resolve("bin");
    }

    /** {@link #minor()} when the tier runs the Volcano that {@code src/test/go/build.sh} pins. */
    static final String PINNED = "pinned";

    /**
     * The Volcano minor this tier runs ({@code -Dtopobridge.e2e.volcano=1.14}: an older minor built by
     * {@code src/test/go/older-volcano.sh} from {@code src/test/go/volcano-1.14}; docs/compatibility.md), or
     * {@value #PINNED}.
     */
    static String minor() {
        String minor = System.getProperty("topobridge.e2e.volcano", PINNED).trim();
        return minor.isEmpty() ? PINNED : minor;
    }

    /** Volcano's module of this run: its CRDs and admission policies come from the Volcano that runs. */
    Path module() {
        if (minor().equals(PINNED)) {
            return Upstream.module("volcano");
        }
        Path module = root.resolve("volcano-" + minor()).resolve("module");
        if (!Files.isDirectory(module) || !Files.isRegularFile(bin.resolve("vc-scheduler"))) {
            throw new IllegalStateException("Volcano " + minor() + " is not built under " + module.getParent()
                    + ": ./mvnw builds it in pre-integration-test (src/test/go/older-volcano.sh)");
        }
        return module;
    }

    void start() {
        Path conf = cluster.runDir().resolve("volcano-scheduler.conf");
        try {
            Files.writeString(conf, RealCluster.schedulerConf());
            Files.createDirectories(cluster.runDir().resolve("volcano-sockets"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> env = Map.of(
                "DEBUG_SOCKET_DIR", cluster.runDir().resolve("volcano-sockets").toString());
        cluster.launch("vc-controller-manager", controllerManager("queue-controller,pg-controller"), env);
        int healthz = FreePort.find();
        metricsPort = FreePort.find();
        cluster.launch(
                "vc-scheduler",
                List.of(
                        bin.resolve("vc-scheduler").toString(),
                        "--kubeconfig=" + cluster.kubeconfig("volcano"),
                        "--leader-elect=false",
                        "--scheduler-conf=" + conf,
                        "--scheduler-name=volcano",
                        "--default-queue=default",
                        "--schedule-period=500ms",
                        "--cache-dumper=false",
                        "--enable-healthz=true",
                        "--healthz-address=127.0.0.1:" + healthz,
                        "--enable-metrics=true",
                        "--listen-address=127.0.0.1:" + metricsPort,
                        "-v=3"),
                env);
        cluster.waitFor(
                "vc-scheduler",
                Duration.ofSeconds(90),
                () -> cluster.httpOk("http://127.0.0.1:" + healthz + "/healthz", null));
    }

    /** The scheduler's metrics port ({@code --listen-address}). */
    private int metricsPort;

    /** The metric whose count is the number of scheduling sessions the scheduler has closed. */
    private static final String SESSIONS = "volcano_e2e_scheduling_latency_milliseconds_count";

    /**
     * How many scheduling sessions the scheduler has run to their end since it started, read from its metrics (a
     * histogram observed once as each session closes).
     */
    long sessions() {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                .timeout(Duration.ofSeconds(5))
                .build();
        try {
            String body =
                    http.send(request, HttpResponse.BodyHandlers.ofString()).body();
            return body.lines()
                    .filter(l -> l.startsWith(SESSIONS + " "))
                    .mapToLong(l -> (long) Double.parseDouble(
                            l.substring(SESSIONS.length() + 1).trim()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("vc-scheduler's metrics have no " + SESSIONS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static final String HYPERNODE_CONTROLLER = "vc-hypernode-controller";

    /**
     * Starts Volcano's own HyperNode controller (label discovery, configured by {@code volcano-controller-configmap}
     * in {@value RealCluster#VOLCANO_NAMESPACE}) as a second vc-controller-manager with Volcano's defaults, as identity
     * {@code volcano}; log {@code logs/vc-hypernode-controller.log}. A running one is restarted.
     */
    synchronized void startHyperNodeController() {
        stopHyperNodeController();
        cluster.launch(
                HYPERNODE_CONTROLLER,
                controllerManager("hyperNode-controller"),
                Map.of("KUBE_POD_NAMESPACE", RealCluster.VOLCANO_NAMESPACE));
    }

    /** The command line of a vc-controller-manager running {@code controllers}, as identity {@code volcano}. */
    private List<String> controllerManager(String controllers) {
        return List.of(
                bin.resolve("vc-controller-manager").toString(),
                "--kubeconfig=" + cluster.kubeconfig("volcano"),
                "--leader-elect=false",
                "--controllers=" + controllers,
                "--scheduler-name=volcano",
                "-v=2");
    }

    /** Stops Volcano's HyperNode controller, if running. */
    synchronized void stopHyperNodeController() {
        cluster.stop(HYPERNODE_CONTROLLER, Duration.ofSeconds(10));
    }
}

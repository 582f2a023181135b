package io.topobridge.e2e;

import io.topobridge.testing.FreePort;
import io.topobridge.testing.HelmChart.Rendered;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The chart's Deployment played on this machine: its replicas are controller processes run as the chart's
 * ServiceAccount with the chart's environment, behind one webhook Service ({@link WebhookBalancer}) whose endpoints
 * are the ready replicas. {@link #roll} replaces them one by one as the Deployment controller does with the chart's
 * rollout (no strategy: 25 % surge rounds up to one pod, 25 % unavailable down to none): a new replica starts, joins
 * the endpoints once ready, then an old one leaves the endpoints and gets SIGTERM.
 */
final class ChartReplicas implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(180);

    private final RealCluster cluster;
    private final Path kubeconfig;
    private final WebhookBalancer service = new WebhookBalancer(List.of());
    private final List<Bridge> running = new ArrayList<>();
    private final List<java.time.Instant> abruptStops = new ArrayList<>();
    private int started;

    /** Replicas that run with the credentials in {@code kubeconfig}; the webhook Service now points at their balancer. */
    ChartReplicas(RealCluster cluster, Path kubeconfig) {
        this.cluster = cluster;
        this.kubeconfig = kubeconfig;
        cluster.pointWebhookServiceAt(service.port());
    }

    /**
     * Starts one replica of {@code version} ({@code jar} null: this build's application) with {@code chart}'s
     * environment and waits until it is ready and among the endpoints.
     */
    Bridge start(String version, Path jar, Rendered chart) {
        int port = FreePort.find();
        Bridge.Builder builder = Bridge.on(cluster, "chart-" + version + "-" + (++started))
                .kubeconfig(kubeconfig)
                .exposeWebhook(false)
                .webhookPort(port)
                .servicePort(service.port())
                .jar(jar);
        Map<String, String> env = chart.controllerEnv();
        env.forEach(builder::env);
        Bridge replica = builder.start().awaitReady(READY);
        service.add(port);
        running.add(replica);
        return replica;
    }

    /**
     * Takes {@code replica} out of the endpoints, then stops it (SIGTERM, as the kubelet does); a version that closed
     * its webhook port without draining its calls (it logs no {@code webhook server drained}) is remembered.
     */
    void retire(Bridge replica) {
        service.remove(replica.webhookPort());
        running.remove(replica);
        java.time.Instant at = java.time.Instant.now();
        replica.stop();
        try {
            if (!java.nio.file.Files.readString(replica.process().log()).contains("webhook server drained")) {
                abruptStops.add(at);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** When replicas that did not drain their webhook calls were stopped, and forgets them. */
    List<java.time.Instant> takeAbruptStops() {
        List<java.time.Instant> out = List.copyOf(abruptStops);
        abruptStops.clear();
        return out;
    }

    /**
     * Replaces every running replica by one of {@code version}, surge one: start a new one, wait until ready, retire
     * an old one; {@code step} runs after each start and each retirement (what the test does at those moments).
     */
    void roll(String version, Path jar, Rendered chart, Runnable step) {
        for (Bridge old : List.copyOf(running)) {
            start(version, jar, chart);
            step.run();
            retire(old);
            step.run();
        }
    }

    /** The replicas running now, oldest first. */
    List<Bridge> running() {
        return List.copyOf(running);
    }

    /** Webhook connections the Service passed to a replica so far. */
    int connections() {
        return service.connections();
    }

    @Override
    public void close() {
        for (Bridge replica : List.copyOf(running)) {
            retire(replica);
        }
        service.close();
    }
}

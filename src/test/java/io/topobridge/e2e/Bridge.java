package io.topobridge.e2e;

import io.topobridge.testing.FreePort;
import io.topobridge.testing.PackagedApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The packaged topobridge controller (its jar, as the container runs it) against the real cluster: its own
 * certificate and webhook configurations, reached by the API server through an ExternalName Service
 * {@code topobridge-webhook} that points at this machine.
 */
public final class Bridge implements AutoCloseable {

    private final RealCluster cluster;
    private final String name;
    private final int httpPort = FreePort.find();
    private final int webhookPort;
    private final Map<String, String> properties;
    private final Map<String, String> environment;
    private final ClassArchive archive;
    /** The application jar: the build's own, or an earlier version's (which the run's class archive does not fit). */
    private final java.nio.file.Path jar;

    private Component process;

    /**
     * Whether bridges start with the class archive and C1 only ({@code -Dtopobridge.e2e.bridge-fast-start=false}: as
     * the container starts it, for the benchmark profile's figures).
     */
    private static final boolean FAST_START =
            Boolean.parseBoolean(System.getProperty("topobridge.e2e.bridge-fast-start", "true"));

    private Bridge(
            RealCluster cluster,
            String name,
            int webhookPort,
            Map<String, String> properties,
            Map<String, String> environment,
            java.nio.file.Path jar) {
        this.cluster = cluster;
        this.name = name;
        this.webhookPort = webhookPort;
        this.properties = properties;
        this.environment = environment;
        this.archive = jar == null ? ClassArchive.of(cluster.runDir()) : null;
        this.jar = jar;
    }

    /** A builder for a bridge named {@code name} (its log is {@code logs/<name>.log}). */
    public static Builder on(RealCluster cluster, String name) {
        return new Builder(cluster, name);
    }

    /** Settings of one bridge process. */
    public static final class Builder {
        private final RealCluster cluster;
        private final String name;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private int webhookPort = FreePort.find();
        private Integer servicePort;
        private boolean exposeWebhook = true;
        private java.nio.file.Path jar;

        private Builder(RealCluster cluster, String name) {
            this.cluster = cluster;
            this.name = name;
            properties.put("topobridge.admission.host", "127.0.0.1");
            properties.put("topobridge.admission.service-namespace", RealCluster.BRIDGE_NAMESPACE);
            properties.put("topobridge.volcano.scheduler-config-namespace", RealCluster.VOLCANO_NAMESPACE);
            environment.put("KUBECONFIG", cluster.kubeconfig(RealCluster.BRIDGE).toString());
            environment.put("POD_NAMESPACE", RealCluster.BRIDGE_NAMESPACE);
            environment.put("HOSTNAME", name);
        }

        /** A {@code topobridge.*} (or Quarkus) configuration property. */
        public Builder set(String key, String value) {
            properties.put(key, value);
            return this;
        }

        public Builder env(String key, String value) {
            environment.put(key, value);
            return this;
        }

        /** Runs with the credentials in {@code kubeconfig} instead of the built-in bridge identity. */
        public Builder kubeconfig(java.nio.file.Path kubeconfig) {
            environment.put("KUBECONFIG", kubeconfig.toString());
            return this;
        }

        /** The webhook port; the Service the API server calls points at the first bridge that exposes it. */
        public Builder webhookPort(int port) {
            this.webhookPort = port;
            return this;
        }

        /**
         * The port the webhook configurations name (default: this bridge's own webhook port). Replicas behind one
         * Service all name the same one.
         */
        public Builder servicePort(int port) {
            this.servicePort = port;
            return this;
        }

        /** Whether this bridge's webhook port is what the {@code topobridge-webhook} Service points at. */
        public Builder exposeWebhook(boolean expose) {
            this.exposeWebhook = expose;
            return this;
        }

        /** Runs the application in {@code jar} (an earlier version's) instead of the build's own. */
        public Builder jar(java.nio.file.Path jar) {
            this.jar = jar;
            return this;
        }

        public Bridge start() {
            properties.put("topobridge.admission.port", String.valueOf(webhookPort));
            properties.put(
                    "topobridge.admission.service-port",
                    String.valueOf(servicePort != null ? servicePort : webhookPort));
            if (exposeWebhook) {
                cluster.pointWebhookServiceAt(webhookPort);
            }
            Bridge bridge =
                    new Bridge(cluster, name, webhookPort, Map.copyOf(properties), Map.copyOf(environment), jar);
            bridge.launch();
            return bridge;
        }
    }

    private void launch() {
        process = component();
        process.start();
        if (archive != null) {
            archive.started(process);
        }
    }

    /** The process, its JVM options chosen now: a restart may map the class archive its first start had to write. */
    private Component component() {
        List<String> command = new ArrayList<>();
        command.add(PackagedApp.java());
        command.add("-Xmx512m");
        if (FAST_START) {
            if (archive != null) {
                command.addAll(archive.options());
            }
            // the bridges of this tier live for seconds to minutes: C1's code is enough, C2's compiles are not paid
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.add("-Dquarkus.http.port=" + httpPort);
        command.add("-Dquarkus.http.host=127.0.0.1");
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-jar");
        command.add((jar != null ? jar : PackagedApp.jar()).toString());
        return new Component(
                name, command, environment, cluster.runDir().resolve("logs").resolve(name + ".log"));
    }

    /** Starts the same process again (same ports and settings), after {@link #kill()} or {@link #stop()}. */
    public Bridge restart() {
        if (process.alive()) {
            process.stop(Duration.ofSeconds(20));
        }
        launch();
        return this;
    }

    /** Waits until {@code /q/health/ready} answers 200. */
    public Bridge awaitReady(Duration timeout) {
        cluster.waitFor(name + " ready", timeout, () -> {
            process.assertAlive();
            return get("/q/health/ready").statusCode() == 200;
        });
        return this;
    }

    /** A GET on the bridge's HTTP port (REST API, health, metrics). */
    public HttpResponse<String> get(String path) {
        try {
            return HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(name + ": GET " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public int webhookPort() {
        return webhookPort;
    }

    public int httpPort() {
        return httpPort;
    }

    public String name() {
        return name;
    }

    public Component process() {
        return process;
    }

    /** SIGKILL, as a crashed pod. */
    public void kill() {
        process.kill();
    }

    public void stop() {
        process.stop(Duration.ofSeconds(20));
    }

    /** SIGTERM, and SIGKILL if the process has not ended within {@code grace}; whether it ended before the kill. */
    public boolean stop(Duration grace) {
        process.stop(grace);
        return !Integer.valueOf(137).equals(process.exitValue());
    }

    @Override
    public void close() {
        stop();
    }
}

package io.topobridge.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.FreePort;
import io.topobridge.testing.PackagedApp;
import io.topobridge.testing.RecordingDispatcher;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar in controller mode (no sub-command) against an API server: it becomes ready, serves
 * health, metrics and the status API, and reports optional CRDs as absent without failing.
 */
class PackagedControllerIT {

    private MockCluster cluster;
    private Process process;
    private Path log;
    private int port;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        cluster = RecordingDispatcher.start().installVolcanoCrds();
        port = FreePort.find();
        log = Files.createTempFile("topobridge-controller", ".log");
        List<String> command = new ArrayList<>(List.of(
                PackagedApp.java(),
                "-Dkubernetes.master=" + cluster.url(),
                "-Dkubernetes.namespace=default",
                "-Dquarkus.http.port=" + port,
                "-Dtopobridge.admission.enabled=false",
                "-jar",
                PackagedApp.jar().toString()));
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    @AfterEach
    void stop() throws Exception {
        if (process != null) {
            process.destroy();
            process.waitFor();
        }
        cluster.close();
        Files.deleteIfExists(log);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void becomesReadyAndServesItsEndpoints() throws Exception {
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(get("/q/health/ready").statusCode())
                        .as(Files.readString(log))
                        .isEqualTo(200));
        assertThat(get("/q/health/live").statusCode()).isEqualTo(200);
        assertThat(get("/q/metrics").body()).contains("jvm_memory_used_bytes");
        String status = get("/api/status").body();
        assertThat(status)
                .contains("\"leaderworkersets.leaderworkerset.x-k8s.io\":false")
                .contains("\"podgroups.scheduling.volcano.sh\":true");
    }
}

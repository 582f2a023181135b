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
import org.junit.jupiter.api.Test;

/** Two packaged controllers with leader election: one runs the controllers, the other takes over when it stops. */
class LeaderElectionIT {

    private final MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds();
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    private int launch() throws Exception {
        int port = FreePort.find();
        Path log = Files.createTempFile("topobridge-le", ".log");
        logs.add(log);
        processes.add(new ProcessBuilder(
                        PackagedApp.java(),
                        "-Dkubernetes.master=" + cluster.url(),
                        "-Dkubernetes.namespace=default",
                        "-Dquarkus.http.port=" + port,
                        "-Dtopobridge.admission.enabled=false",
                        "-Dtopobridge.leader-election.enabled=true",
                        "-Dtopobridge.leader-election.lease-namespace=default",
                        "-Dtopobridge.leader-election.lease-duration=3s",
                        "-Dtopobridge.leader-election.renew-deadline=2s",
                        "-Dtopobridge.leader-election.retry-period=500ms",
                        "-jar",
                        PackagedApp.jar().toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start());
        return port;
    }

    private String status(int port) {
        try {
            return http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/status"))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (Exception e) {
            return "";
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor();
        }
        cluster.close();
        for (Path log : logs) {
            Files.deleteIfExists(log);
        }
    }

    @Test
    void exactlyOneLeadsAndTheOtherTakesOver() throws Exception {
        int first = launch();
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> status(first).contains("\"role\":\"leader\""));
        int second = launch();
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> status(second).contains("\"role\":\"follower\""));
        Thread.sleep(3000);
        assertThat(status(second)).contains("\"role\":\"follower\"");
        assertThat(cluster.client()
                        .leases()
                        .inNamespace("default")
                        .withName("topobridge-leader")
                        .get())
                .isNotNull();

        processes.get(0).destroy(); // graceful stop releases the lease
        processes.get(0).waitFor();
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> status(second).contains("\"role\":\"leader\""));
    }
}

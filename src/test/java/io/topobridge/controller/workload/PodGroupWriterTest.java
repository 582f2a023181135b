package io.topobridge.controller.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.topobridge.apply.Applier;
import io.topobridge.apply.RecentObjects;
import io.topobridge.cache.KindRegistry;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.reconcile.Outcome;
import io.topobridge.core.workload.translate.ScopeResult;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A restart the reconciler planned is carried out by the one writer: the gang's pods are deleted by uid, nothing
 * else is written, and a failure is told so that the restart is decided again.
 */
class PodGroupWriterTest {

    private static final GangScope SCOPE = new GangScope.Single(WorkloadKind.DEPLOYMENT, "llm", "decode");

    private MockCluster cluster;
    private final List<String> failed = new ArrayList<>();
    private PodGroupWriter writer;

    @BeforeEach
    void start() {
        cluster = RecordingDispatcher.start().installVolcanoCrds();
        var client = cluster.client();
        writer = new PodGroupWriter(
                new WorkloadCaches(client, new KindRegistry(client), new RecentObjects()),
                new Applier(client, new SimpleMeterRegistry(), new RecentObjects()),
                failed::add);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private Pod pod(String name) {
        return cluster.client()
                .pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace("llm")
                        .endMetadata()
                        .build())
                .create();
    }

    private static Outcome restarting(DomainLossRestarts.Victim... pods) {
        var restart = new DomainLossRestarts.Restart("llm", "tb-decode", List.of(pods), "restarting llm/decode");
        return new Outcome(
                ScopeResult.empty(SCOPE),
                List.of(new PodGroupChanges.RestartGang(restart)),
                List.of(),
                null,
                false,
                Map.of());
    }

    @Test
    void aPlannedRestartDeletesTheGangsPodsByUidAndWritesNothingElse() {
        Pod a = pod("decode-a");
        Pod b = pod("decode-b");
        Pod bystander = pod("decode-c");
        RecordingDispatcher.of(cluster).clearLog();

        assertThat(writer.carryOut(restarting(
                        new DomainLossRestarts.Victim(
                                "decode-a", a.getMetadata().getUid()),
                        new DomainLossRestarts.Victim(
                                "decode-b", b.getMetadata().getUid()))))
                .as("no refusal")
                .isEmpty();

        assertThat(cluster.client().pods().inNamespace("llm").list().getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactly(bystander.getMetadata().getName());
        assertThat(RecordingDispatcher.of(cluster).writes("/"))
                .as("two pod deletes, no other write")
                .hasSize(2)
                .allMatch(r -> r.path().contains("/pods/decode-"));
        assertThat(failed).isEmpty();
    }

    @Test
    void aPodAlreadyGoneIsNoFailure() {
        Pod a = pod("decode-a");
        assertThat(writer.carryOut(restarting(
                        new DomainLossRestarts.Victim(
                                "decode-a", a.getMetadata().getUid()),
                        new DomainLossRestarts.Victim("decode-gone", "uid-of-a-pod-deleted-meanwhile"))))
                .isEmpty();
        assertThat(cluster.client().pods().inNamespace("llm").list().getItems()).isEmpty();
        assertThat(failed).isEmpty();
    }

    @Test
    void aRestartThatCannotBeCarriedOutIsToldAndThrown() throws Exception {
        // an API server that fails every request (HTTP 500), asked once
        HttpServer failing = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        failing.createContext("/", exchange -> {
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        failing.start();
        try (KubernetesClient broken = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl(
                                "http://127.0.0.1:" + failing.getAddress().getPort())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build()) {
            var writer = new PodGroupWriter(
                    new WorkloadCaches(broken, new KindRegistry(broken), new RecentObjects()),
                    new Applier(broken, new SimpleMeterRegistry(), new RecentObjects()),
                    failed::add);

            assertThatThrownBy(() -> writer.carryOut(restarting(new DomainLossRestarts.Victim("decode-a", "uid-a"))))
                    .isInstanceOf(KubernetesClientException.class);
        } finally {
            failing.stop(0);
        }
        assertThat(failed).as("the gang whose restart failed").containsExactly("llm/tb-decode");
    }
}

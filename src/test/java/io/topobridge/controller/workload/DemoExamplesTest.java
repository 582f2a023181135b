package io.topobridge.controller.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.topobridge.controller.KindRegistry;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.VolcanoSchema;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.volcano.PodGroup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The demo: {@code examples/crds} and {@code examples/workloads} seeded into the embedded API server the way
 * dev mode seeds them; the controller makes every PodGroup the examples promise, each one Volcano-valid,
 * and a resync afterwards writes nothing.
 */
class DemoExamplesTest {

    private MockCluster cluster;
    private Wiring wiring;

    @AfterEach
    void stop() {
        if (wiring != null) {
            wiring.controller.stop();
            wiring.lookup.stop();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void seededExamplesGetTheirPodGroups() {
        cluster = MockCluster.start().installVolcanoCrds();
        KindRegistry registry = TestClusters.registryWithVolcano(cluster);
        cluster.seed(Path.of("examples/crds"));
        for (String crd : List.of("stormservices.orchestration.aibrix.ai", "rolesets.orchestration.aibrix.ai",
                "podsets.orchestration.aibrix.ai", "leaderworkersets.leaderworkerset.x-k8s.io",
                "disaggregatedsets.disaggregatedset.x-k8s.io")) {
            registry.update(crd, cluster.client().apiextensions().v1().customResourceDefinitions().withName(crd).get());
        }
        cluster.seed(Path.of("examples/workloads"));
        wiring = new Wiring(cluster.client(), registry, Fixtures.TIERS, Map.of());
        wiring.controller.start();

        List<String> expected = List.of("tb-ds-pd-slice-0", "tb-group-qwen-pd", "tb-lws-deepseek-0",
                "tb-lws-deepseek-1", "tb-rs-pd-demo-roleset-7xkq2");
        await().atMost(Duration.ofSeconds(20)).until(() -> cluster.client().resources(PodGroup.class)
                .inNamespace("inference").list().getItems().size() == expected.size());
        List<PodGroup> made = cluster.client().resources(PodGroup.class).inNamespace("inference").list().getItems();
        assertThat(made).extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrderElementsOf(expected);
        made.forEach(p -> assertThat(VolcanoSchema.podGroupProblems(p)).as(p.getMetadata().getName()).isEmpty());
        assertThat(wiring.findings.of(WorkloadController.SOURCE)).allSatisfy(f -> assertThat(f.isRejection()).isFalse());

        await().atMost(Duration.ofSeconds(10)).until(() -> wiring.controller.pending() == 0);
        cluster.dispatcher().clearLog();
        long full = wiring.controller.fullPasses();
        wiring.controller.resync();
        await().atMost(Duration.ofSeconds(10)).until(() -> wiring.controller.fullPasses() > full);
        assertThat(cluster.dispatcher().writes("/podgroups")).isEmpty();
    }
}

package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tensor-parallel gangs on a rack split into two NVLink partitions ({@code examples/workloads/nvlink-partitions.yaml},
 * rack r05 of the example cluster): a gang that fits one partition lands inside one; one that fits none stays
 * wholly unbound in hard mode, and is placed anyway in soft mode. One gang at a time on an idle cluster.
 */
@ExtendWith(RealClusterExtension.class)
class PartitionsE2E {

    private static final String NS = PlacementE2E.NS;

    @RegisterExtension
    final TestNamespace namespace = TestNamespace.forEachTest(NS);

    private static final Path GANGS = Path.of("examples", "workloads", "nvlink-partitions.yaml");
    private static final Duration PLACED = Duration.ofSeconds(120);

    private final RealCluster cluster;
    private KubernetesClient client;

    PartitionsE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void namespace() {
        client = cluster.onExamples();
    }

    private String create(String name) {
        HasMetadata lws = PlacementE2E.load(GANGS).stream()
                .filter(o -> o.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow();
        client.resource(lws).create();
        return "tb-lws-" + name + "-0";
    }

    private List<Pod> pods(String podGroup) {
        return Placement.gangPods(client, NS, podGroup);
    }

    private Optional<Placement.Domain> domain(List<Pod> pods) {
        return Placement.of(client)
                .lowestCommon(pods.stream().map(p -> p.getSpec().getNodeName()).toList());
    }

    @Test
    void aGangThatFitsOnePartitionLandsInsideOne() {
        String pg = create("tp-one-partition");
        cluster.waitFor("9 pods bound", PLACED, () -> pods(pg).size() == 9 && Placement.allBound(pods(pg)));
        Placement.Domain d = domain(pods(pg)).orElseThrow();
        assertThat(d.tier()).as("placed in " + d).isEqualTo(1);
        assertThat(d.tierName()).isEqualTo("nvlink");
        assertThat(pods(pg))
                .allSatisfy(p -> assertThat(p.getSpec().getNodeName()).startsWith("gb200-r05-"));
    }

    @Test
    void aHardGangBiggerThanAnyPartitionStaysWhollyPending() {
        String pg = create("tp-too-big");
        cluster.waitFor("10 pods tied", PLACED, () -> pods(pg).size() == 10);
        // ten whole scheduling sessions, each of which saw all 10 pods: not one pod of the gang is bound
        Duration waited = cluster.awaitSchedulingSessions(10, Duration.ofSeconds(120));
        assertThat(Placement.noneBound(pods(pg)))
                .as("no partial gang after 10 sessions (" + waited.toMillis() + " ms)")
                .isTrue();
    }

    @Test
    void aSoftGangBiggerThanAnyPartitionIsPlacedAnyway() {
        String pg = create("tp-too-big-soft");
        cluster.waitFor("10 pods bound", PLACED, () -> pods(pg).size() == 10 && Placement.allBound(pods(pg)));
        assertThat(domain(pods(pg)))
                .hasValueSatisfying(
                        d -> assertThat(d.tier()).as("above the partition").isGreaterThan(1));
    }
}

package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kueue's Topology-Aware Scheduling, the peer of the placement benchmark, on the example GPU cluster: a plain pod
 * group of 4 pods of 4 GPUs that requires one NVLink partition ({@code nvidia.com/gpu.clique}) is admitted by Kueue
 * and bound by kube-scheduler within one partition, on 4 trays; a group of 10 such pods, larger than every partition
 * (at most 9 trays), stays gated and unbound with Kueue's reason on its Workload. Runs with
 * every build unless {@code -Dtopobridge.e2e.kueueTas=false}; the first start builds Kueue ({@code src/test/go/kueue.sh}).
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("kueue-tas")
class KueueTasE2E {

    private static final String NS = "kueue-tas";

    @RegisterExtension
    final TestNamespace namespace = TestNamespace.forEachTest(NS).notOptedIn();

    private final RealCluster cluster;
    private KubernetesClient client;
    private Map<String, String> cliqueOf;

    KueueTasE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void kueue() {
        client = cluster.client();
        cliqueOf = Examples.ensureNodes(client).stream()
                .filter(n -> n.getMetadata().getLabels().containsKey(KueueTas.NVLINK))
                .collect(Collectors.toMap(n -> n.getMetadata().getName(), KueueTasE2E::clique));
        cluster.kueue().start();
        KueueTas.ensureClusterQueue(client);
    }

    @AfterAll
    void stopKueue() {
        cluster.kueue().stop();
    }

    private static String clique(Node node) {
        return node.getMetadata().getLabels().get(KueueTas.NVLINK);
    }

    @Test
    void aPodGroupThatRequiresOnePartitionLandsInOne() {
        KueueTas.localQueue(client, NS);
        create("tp-4", 4);
        create("tp-10", 10);

        cluster.waitFor(
                "the 4 pods of tp-4 bound",
                Duration.ofSeconds(120),
                () -> Placement.allBound(KueueTas.groupPods(client, NS, "tp-4")));
        List<Pod> pods = KueueTas.groupPods(client, NS, "tp-4");
        Set<String> nodes = pods.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet());
        assertThat(nodes).as("one tray per 4-GPU pod").hasSize(4);
        assertThat(nodes.stream().map(cliqueOf::get).collect(Collectors.toSet()))
                .as("the NVLink partitions of " + nodes)
                .hasSize(1);
        assertThat(pods)
                .allSatisfy(p -> assertThat(p.getSpec().getSchedulerName()).isEqualTo("default-scheduler"));

        cluster.waitFor(
                "Kueue's verdict on tp-10",
                Duration.ofSeconds(60),
                () -> workload("tp-10") != null
                        && !String.valueOf(condition(workload("tp-10"), "QuotaReserved"))
                                .isEmpty());
        assertThat(condition(workload("tp-10"), "QuotaReserved"))
                .as("why tp-10 waits")
                .contains("False")
                .containsIgnoringCase("topology");
        assertThat(KueueTas.groupPods(client, NS, "tp-10")).hasSize(10).allSatisfy(p -> {
            assertThat(p.getSpec().getNodeName()).isNull();
            assertThat(p.getSpec().getSchedulingGates()).isNotEmpty();
        });
        KueueTas.deleteGroup(client, NS, KueueTas.GROUP_LABEL, "tp-10");
        KueueTas.deleteGroup(client, NS, KueueTas.GROUP_LABEL, "tp-4");
        cluster.waitFor(
                "the pods of both groups gone",
                Duration.ofSeconds(120),
                () -> client.pods().inNamespace(NS).list().getItems().isEmpty());
    }

    private void create(String group, int count) {
        IntStream.range(0, count)
                .forEach(i -> client.resource(KueueTas.groupPod(
                                NS,
                                group + "-" + i,
                                group,
                                count,
                                4,
                                Map.of(),
                                Map.of(KueueTas.REQUIRED, KueueTas.NVLINK)))
                        .create());
    }

    /** The Workload Kueue made for a pod group (named after it), or null. */
    private GenericKubernetesResource workload(String group) {
        return client
                .genericKubernetesResources(KueueTas.API_VERSION, "Workload")
                .inNamespace(NS)
                .list()
                .getItems()
                .stream()
                .filter(w -> w.getMetadata().getName().contains(group))
                .findFirst()
                .orElse(null);
    }

    /** "status: message" of a condition of the Workload, or "" while it has none. */
    @SuppressWarnings("unchecked")
    private static String condition(GenericKubernetesResource workload, String type) {
        var status = (Map<String, Object>) workload.getAdditionalProperties().getOrDefault("status", Map.of());
        return ((List<Map<String, Object>>) status.getOrDefault("conditions", List.of()))
                .stream()
                        .filter(c -> type.equals(c.get("type")))
                        .map(c -> c.get("status") + ": " + c.get("message"))
                        .findFirst()
                        .orElse("");
    }
}

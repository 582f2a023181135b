package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.testing.PodTemplates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nodes that take no new pods are not room, on the real Volcano scheduler and the example GB200 cluster: rack r05 is
 * an NVL72 split into two equal NVLink partitions of 9 trays (36 GPUs), the only NVLink partitions that hold a 9-pod,
 * 4-GPU tensor-parallel gang. With one partition cordoned (or tainted NoSchedule without a toleration), an
 * {@code highest-tier: auto} gang is explained as fitting one NVLink partition, not two, and Volcano places it in the
 * other; a gang that tolerates the taint counts both. With both partitions cordoned, no NVLink partition or domain
 * holds the gang, and {@code auto} chooses the tier where usable nodes do (the spine) instead of an NVLink tier where
 * it would wait for ever. Every node is made usable again after each test.
 */
@ExtendWith(RealClusterExtension.class)
class UnusableNodesE2E {

    private static final String NS = PlacementE2E.NS;

    /** One namespace for the class, emptied after each test ({@link TestNamespace#empty}). */
    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private static final Duration PLACED = Duration.ofSeconds(120);
    private static final String TAINT_KEY = "e2e.topobridge.io/maintenance";

    private final RealCluster cluster;
    private KubernetesClient client;

    UnusableNodesE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    /** The trays of rack r05's first NVLink partition (clique .1) or second (.2). */
    private static List<String> partition(int which) {
        List<String> out = new ArrayList<>();
        for (int t = which == 1 ? 1 : 10, end = t + 9; t < end; t++) {
            out.add(String.format("gb200-r05-t%02d", t));
        }
        return out;
    }

    @BeforeEach
    void namespace() {
        client = cluster.onExamples();
    }

    @AfterEach
    void cleanUp() {
        NAMESPACE.empty(cluster);
        List<String> r05 = new ArrayList<>(partition(1));
        r05.addAll(partition(2));
        for (String name : r05) {
            client.nodes().withName(name).edit(node -> {
                node.getSpec().setUnschedulable(null);
                node.getSpec().setTaints(null);
                return node;
            });
        }
    }

    private void cordon(List<String> nodes) {
        for (String name : nodes) {
            client.nodes().withName(name).edit(node -> {
                node.getSpec().setUnschedulable(true);
                return node;
            });
        }
    }

    private void taint(List<String> nodes) {
        Taint taint = new TaintBuilder()
                .withKey(TAINT_KEY)
                .withValue("true")
                .withEffect("NoSchedule")
                .build();
        for (String name : nodes) {
            client.nodes().withName(name).edit(node -> {
                node.getSpec().setTaints(List.of(taint));
                return node;
            });
        }
    }

    /** A Deployment of 9 pods of 4 GPUs with {@code highest-tier: auto}: 36 GPUs, one NVLink partition of r05. */
    private Deployment gang(String name, List<Toleration> tolerations) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .withAnnotations(Map.of("topobridge.io/highest-tier", "auto"))
                .endMetadata()
                .withNewSpec()
                .withReplicas(9)
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", name)
                .endMetadata()
                .withNewSpec()
                .withTolerations(tolerations)
                .addToContainers(PodTemplates.gpuEngine(4))
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private GenericKubernetesResource podGroup(String name) {
        return PodGroups.await(cluster, client, NS, name);
    }

    private static Map<String, Object> topology(GenericKubernetesResource pg) {
        return PodGroups.networkTopology(pg);
    }

    /** Waits for the chosen-tier explanation (the bridge may first see the gang before the nodes' change). */
    private GenericKubernetesResource chosen(String podGroup, String sentence) {
        podGroup(podGroup);
        try {
            cluster.waitFor(
                    "chosen tier of " + podGroup + ": " + sentence,
                    Duration.ofSeconds(60),
                    () -> sentence.equals(
                            podGroup(podGroup).getMetadata().getAnnotations().get("topobridge.io/chosen-tier")));
        } catch (IllegalStateException e) {
            GenericKubernetesResource pg = podGroup(podGroup);
            throw new AssertionError(
                    "chosen tier of " + podGroup + " after 60 s: "
                            + pg.getMetadata().getAnnotations().get("topobridge.io/chosen-tier") + " ("
                            + topology(pg) + "), expected: " + sentence,
                    e);
        }
        return podGroup(podGroup);
    }

    private List<Pod> placed(String podGroup) {
        return Placement.bound(cluster, client, NS, podGroup, 9, PLACED);
    }

    private Placement.Domain domainOf(List<Pod> pods) {
        return Placement.of(client).holding(pods);
    }

    private static void print(String what, GenericKubernetesResource pg, Placement.Domain d) {
        System.out.printf("UNUSABLE %-44s %s%n", what, Placement.outcome(pg, d));
    }

    /** The gang is explained as fitting one partition, and lands in the other, usable one. */
    private void landsInTheSecondPartition(String name, String sentence, String what) {
        GenericKubernetesResource pg = chosen("tb-deploy-" + name, sentence);
        assertThat(topology(pg)).containsEntry("highestTierAllowed", 1).containsEntry("mode", "hard");
        List<Pod> pods = placed("tb-deploy-" + name);
        Placement.Domain d = domainOf(pods);
        print(what, pg, d);
        assertThat(d.tierName()).isEqualTo("nvlink");
        assertThat(pods)
                .allSatisfy(p -> assertThat(partition(2)).contains(p.getSpec().getNodeName()));
        String explained =
                cluster.bridge().get("/api/gangs/" + NS + "/tb-deploy-" + name).body();
        assertThat(explained).contains(sentence);
    }

    @Test
    void aCordonedPartitionIsNotCountedAndTheGangGoesToTheOtherOne() {
        cordon(partition(1));
        client.resource(gang("cordoned", List.of())).create();
        landsInTheSecondPartition(
                "cordoned",
                "1 (nvlink): 36 GPUs fit in 1 of 7 nvlink domains; 1 more would but for 9 cordoned nodes",
                "9 x 4 GPUs, partition r05.1 cordoned");
    }

    @Test
    void aPartitionTaintedNoScheduleIsNotCountedForAGangWithoutAToleration() {
        taint(partition(1));
        client.resource(gang("tainted", List.of())).create();
        landsInTheSecondPartition(
                "tainted",
                "1 (nvlink): 36 GPUs fit in 1 of 7 nvlink domains; 1 more would but for 9 nodes with a taint the gang"
                        + " does not tolerate (" + TAINT_KEY + "=true:NoSchedule)",
                "9 x 4 GPUs, partition r05.1 tainted");
    }

    @Test
    void aGangThatToleratesTheTaintCountsThePartition() {
        taint(partition(1));
        Toleration tolerates = new TolerationBuilder()
                .withKey(TAINT_KEY)
                .withOperator("Equal")
                .withValue("true")
                .withEffect("NoSchedule")
                .build();
        client.resource(gang("tolerating", List.of(tolerates))).create();
        GenericKubernetesResource pg =
                chosen("tb-deploy-tolerating", "1 (nvlink): 36 GPUs fit in 2 of 7 nvlink domains");
        List<Pod> pods = placed("tb-deploy-tolerating");
        Placement.Domain d = domainOf(pods);
        print("9 x 4 GPUs tolerating the taint", pg, d);
        assertThat(d.tierName()).isEqualTo("nvlink");
    }

    @Test
    void withBothPartitionsCordonedTheGangTakesTheTierWhereUsableNodesHoldIt() {
        cordon(partition(1));
        cordon(partition(2));
        client.resource(gang("nowhere", List.of())).create();
        String sentence = "4 (spine): 36 GPUs fit in 2 of 2 spine domains; 3 (leaf) holds at most 32 GPUs, and 1"
                + " would but for 18 cordoned nodes";
        GenericKubernetesResource pg = chosen("tb-deploy-nowhere", sentence);
        assertThat(topology(pg)).containsEntry("highestTierAllowed", 4).containsEntry("mode", "hard");
        List<Pod> pods = placed("tb-deploy-nowhere");
        Placement.Domain d = domainOf(pods);
        print("9 x 4 GPUs, both r05 partitions cordoned", pg, d);
        assertThat(d.tier()).isLessThanOrEqualTo(4);
        assertThat(pods).noneSatisfy(p -> assertThat(p.getSpec().getNodeName()).startsWith("gb200-r05-"));
    }
}

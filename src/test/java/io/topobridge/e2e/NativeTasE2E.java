package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.e2e.NativeTasCluster.Group;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Kubernetes' own topology-aware workload scheduling on the side cluster ({@link NativeTasCluster}), with the example
 * GPU nodes: a gang PodGroup constrained to {@code nvidia.com/gpu.clique} (an NVLink partition) lands in one
 * partition although the default scoring spreads pods; a composite prefill/decode group stays within one leaf with
 * each role in one partition; a gang larger than any partition waits whole. The examples' labels have no key for an
 * NVLink domain (the rack, of which a clique is a partition), so the native scheduler cannot be asked for one.
 *
 * <p>Runs by default; {@code -Dtopobridge.e2e.nativeTas=false} excludes its tag (its Kubernetes takes about 5 minutes
 * to build cold).
 */
@Tag("native-tas")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NativeTasE2E {

    static final String CLIQUE = "nvidia.com/gpu.clique";
    static final String LEAF = "fabric.topograph.run/tier-0";
    private static final Duration PLACED = Duration.ofSeconds(120);

    private RealCluster cluster;
    private KubernetesClient client;
    private TestNamespace namespace;
    private String ns;

    @BeforeAll
    void sideCluster() {
        cluster = NativeTasCluster.get();
        client = cluster.client();
        namespace = TestNamespace.forCase("native-tas").open(cluster);
        ns = "native-tas";
    }

    @AfterAll
    void close() {
        namespace.close();
    }

    @Test
    void aGangOfFourTraysLandsInOneNvlinkPartition() {
        createEngineGang("tp", 4);

        List<Pod> pods = awaitBound("tp", 4);
        assertThat(labelValues(pods, CLIQUE)).as("cliques of %s", nodes(pods)).hasSize(1);
        assertThat(Set.copyOf(nodes(pods))).as("one pod per tray").hasSize(4);
    }

    @Test
    void aPrefillDecodeGangKeepsItsLeafAndEachRoleItsPartition() {
        Group prefill = new Group("prefill", 2, CLIQUE);
        Group decode = new Group("decode", 2, CLIQUE);
        client.resource(NativeTasCluster.workload(ns, "pd", List.of(prefill, decode), LEAF))
                .create();
        client.resource(NativeTasCluster.compositePodGroup(ns, "pd", 2, LEAF)).create();
        for (Group g : List.of(prefill, decode)) {
            client.resource(NativeTasCluster.podGroup(ns, "pd", g, "pd")).create();
            client.resource(deployment("pd", g.name(), 2, g == prefill ? 1 : 4, NativeTasCluster.podGroupName("pd", g)))
                    .create();
        }

        List<Pod> pods = awaitBound("pd", 4);
        assertThat(labelValues(pods, LEAF)).as("leaves of %s", nodes(pods)).hasSize(1);
        for (String role : List.of("prefill", "decode")) {
            List<Pod> ofRole = pods.stream()
                    .filter(p -> role.equals(p.getMetadata().getLabels().get("role")))
                    .toList();
            assertThat(labelValues(ofRole, CLIQUE)).as(role).hasSize(1);
        }
    }

    @Test
    void aGangLargerThanAnyPartitionWaitsWhole() {
        createEngineGang("tp10", 10);

        // the scheduler's own verdict on every pod, then none bound: no partition has 10 trays (the largest has 9)
        cluster.waitFor("10 pods of tp10 found unschedulable", PLACED, () -> {
            List<Pod> pods = pods("tp10");
            return pods.size() == 10 && pods.stream().allMatch(NativeTasE2E::unschedulable);
        });
        assertThat(Placement.noneBound(pods("tp10"))).isTrue();
        client.apps().deployments().inNamespace(ns).withName("tp10-engine").delete();
    }

    private static boolean unschedulable(Pod pod) {
        return pod.getStatus() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "PodScheduled".equals(c.getType())
                                && "False".equals(c.getStatus())
                                && "Unschedulable".equals(c.getReason()));
    }

    private List<Pod> pods(String gang) {
        return client.pods().inNamespace(ns).withLabel("gang", gang).list().getItems();
    }

    private List<Pod> awaitBound(String gang, int count) {
        cluster.waitFor(count + " pods of " + gang + " bound", PLACED, () -> {
            List<Pod> pods = pods(gang);
            return pods.size() == count && Placement.allBound(pods);
        });
        return pods(gang);
    }

    private static List<String> nodes(List<Pod> pods) {
        return pods.stream().map(p -> p.getSpec().getNodeName()).toList();
    }

    private Set<String> labelValues(List<Pod> pods, String key) {
        return pods.stream()
                .map(p -> client.nodes()
                        .withName(p.getSpec().getNodeName())
                        .get()
                        .getMetadata()
                        .getLabels()
                        .get(key))
                .collect(Collectors.toSet());
    }

    /**
     * Creates gang {@code gang} of one role {@code engine}: its Workload and PodGroup of {@code trays} pods required
     * in one NVLink partition, and its Deployment of {@code trays} pods of 4 GPUs.
     */
    private void createEngineGang(String gang, int trays) {
        Group engine = new Group("engine", trays, CLIQUE);
        client.resource(NativeTasCluster.workload(ns, gang, List.of(engine), null))
                .create();
        client.resource(NativeTasCluster.podGroup(ns, gang, engine, null)).create();
        client.resource(deployment(gang, "engine", trays, 4, NativeTasCluster.podGroupName(gang, engine)))
                .create();
    }

    private Deployment deployment(String gang, String role, int replicas, int gpus, String podGroup) {
        String name = gang + "-" + role;
        Deployment d = new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels(Map.of("app", name, "gang", gang, "role", role))
                .endMetadata()
                .withNewSpec()
                .withTerminationGracePeriodSeconds(0L)
                .addNewContainer()
                .withName("engine")
                .withImage("registry.example/engine:1")
                .withNewResources()
                .withRequests(Map.of(
                        "cpu",
                        new Quantity("1"),
                        "memory",
                        new Quantity("1Gi"),
                        "nvidia.com/gpu",
                        new Quantity("" + gpus)))
                .withLimits(Map.of("nvidia.com/gpu", new Quantity("" + gpus)))
                .endResources()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
        NativeTasCluster.joinGroup(d.getSpec().getTemplate().getSpec(), podGroup);
        return d;
    }
}

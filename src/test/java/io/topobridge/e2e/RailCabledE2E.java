package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A rail-cabled NVL72 rack on the real Volcano scheduler: a pool of its own next to the example cluster, one spine
 * over leaves a and b, a full rack of 18 4-GPU trays whose trays 1-9 hang off leaf a and 10-18 off leaf b (one NVLink
 * domain, one GPU clique), and a 4-tray rack under each leaf. The rack is one NVLink HyperNode, so an 18-tray
 * tensor-parallel gang at the {@code nvlink} tier lands wholly on it; and a leaf-tier gang never mixes the rack with
 * a leaf's own trays: with 4 trays of the rack free and 4 free under each leaf, a 6-tray hard leaf gang waits whole
 * though 12 trays are free under the spine, and a 4-tray one lands under one leaf or in the rack alone.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RailCabledE2E {

    private static final String NS = PlacementE2E.NS;
    private static final String POOL_LABEL = TwoPartitionPool.POOL_LABEL;
    private static final String POOL = "rail";
    private static final String LEAF_LABEL = "fabric.topograph.run/tier-0";
    private static final Duration PLACED = Duration.ofSeconds(120);
    /** Whole scheduling sessions a hard gang that cannot be placed is watched for before it is asserted unplaced. */
    private static final int SESSIONS = 10;

    /** One namespace for the class, emptied after each test ({@link TestNamespace#empty}). */
    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private final RealCluster cluster;
    private KubernetesClient client;

    /** The rail-cabled rack's 18 trays, then the 4 trays of the rack under each leaf. */
    private final List<String> rack = trays("rail-r", 18);

    private final List<String> leafA = trays("rail-a", 4);
    private final List<String> leafB = trays("rail-b", 4);

    RailCabledE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    private static List<String> trays(String prefix, int count) {
        return IntStream.rangeClosed(1, count)
                .mapToObj(t -> prefix + "-t" + (t < 10 ? "0" : "") + t)
                .toList();
    }

    private List<String> pool() {
        List<String> out = new ArrayList<>(rack);
        out.addAll(leafA);
        out.addAll(leafB);
        return out;
    }

    private static Node tray(String name, String leaf, String clique) {
        return Nodes.node(name)
                .label(POOL_LABEL, POOL)
                .label("nvidia.com/gpu.present", "true")
                .label("nvidia.com/gpu.clique", clique)
                .label(LEAF_LABEL, "S-rail-leaf-" + leaf)
                .label("fabric.topograph.run/tier-1", "S-rail-spine")
                .cpu("64")
                .memory("512Gi")
                .gpus(4)
                .build();
    }

    @BeforeAll
    void createPool() {
        client = cluster.onExamples();
        List<Node> nodes = new ArrayList<>();
        for (int t = 0; t < rack.size(); t++) {
            nodes.add(tray(rack.get(t), t < 9 ? "a" : "b", "ra11ca81-0000-4000-8000-000000000072.1"));
        }
        leafA.forEach(n -> nodes.add(tray(n, "a", "ra11ca81-0000-4000-8000-00000000000a.1")));
        leafB.forEach(n -> nodes.add(tray(n, "b", "ra11ca81-0000-4000-8000-00000000000b.1")));
        for (Node node : nodes) {
            if (client.nodes().withName(node.getMetadata().getName()).get() == null) {
                Nodes.create(client, node);
            }
        }
        cluster.waitFor(
                "the rail-cabled rack in one NVLink HyperNode",
                PLACED,
                () -> Placement.of(client)
                        .lowestCommon(rack)
                        .map(d -> d.tier() == 1)
                        .orElse(false));
    }

    /** What a test made is gone before the next starts, as with a namespace of its own. */
    @AfterEach
    void workloadsGone() {
        NAMESPACE.empty(cluster);
    }

    @AfterAll
    void removePool() {
        pool().forEach(n -> cluster.kubelet().deleteNode(n));
        cluster.waitFor(
                "the pool's HyperNodes gone",
                PLACED,
                () -> pool().stream()
                        .allMatch(n -> Placement.of(client).ancestors(n).isEmpty()));
    }

    /** A Deployment of {@code trays} pods of 4 GPUs on the pool, one tray each, with the given highest tier. */
    private static Deployment gang(String name, int trays, String highestTier) {
        return DeploymentWrapper.make(name, NS)
                .replicas(trays)
                .highestTier(highestTier)
                .cpu("4")
                .gpus(4)
                .nodeSelector(POOL_LABEL, POOL)
                .obj();
    }

    private List<Pod> placed(String name, int trays) {
        client.resource(gang(name, trays, name.startsWith("tp") ? "nvlink" : "leaf"))
                .create();
        return Placement.bound(cluster, client, NS, "tb-deploy-" + name, trays, PLACED);
    }

    private static Set<String> nodesOf(List<Pod> pods) {
        return pods.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet());
    }

    private Map<String, String> leafOf() {
        Map<String, String> out = new HashMap<>();
        for (String n : pool()) {
            out.put(
                    n,
                    client.nodes().withName(n).get().getMetadata().getLabels().get(LEAF_LABEL));
        }
        return out;
    }

    @Test
    void theRackIsOneNvlinkHyperNodeAndEachLeafHyperNodeHoldsOneLeafOrTheRackAlone() {
        Placement placement = Placement.of(client);
        Placement.Domain nvlink = placement.lowestCommon(rack).orElseThrow();
        assertThat(nvlink.tierName()).isEqualTo("nvlink");
        assertThat(pool())
                .filteredOn(n -> placement.ancestors(n).get(0).equals(nvlink))
                .containsExactlyInAnyOrderElementsOf(rack);

        Map<String, Set<String>> byLeafHyperNode = new HashMap<>();
        for (String n : pool()) {
            Placement.Domain leaf = placement.ancestors(n).stream()
                    .filter(d -> d.tierName().equals("leaf"))
                    .findFirst()
                    .orElseThrow();
            byLeafHyperNode.computeIfAbsent(leaf.name(), k -> new HashSet<>()).add(n);
        }
        assertThat(byLeafHyperNode.values())
                .containsExactlyInAnyOrder(Set.copyOf(rack), Set.copyOf(leafA), Set.copyOf(leafB));
        String spine = placement.lowestCommon(pool()).orElseThrow().name();
        assertThat(placement.ancestors(rack.get(0)))
                .extracting(Placement.Domain::name)
                .contains(spine);
        System.out.printf(
                "RAIL-CABLED rack %s: %s%n",
                nvlink.name(),
                placement.ancestors(rack.get(0)).stream()
                        .map(d -> d.tier() + "=" + d.tierName() + " " + d.name())
                        .toList());
    }

    @Test
    void anEighteenTrayTensorParallelGangAtTheNvlinkTierLandsWhollyOnTheRack() {
        List<Pod> pods = placed("tp18", 18);
        assertThat(nodesOf(pods)).containsExactlyInAnyOrderElementsOf(rack);
        Placement.Domain d = Placement.of(client).holding(pods);
        assertThat(d.tier()).as("placed in " + d).isEqualTo(1);
        assertThat(d.tierName()).isEqualTo("nvlink");
    }

    @Test
    void aLeafGangNeverMixesTheRackWithALeafsOwnTrays() {
        // 14 of the rack's trays taken: 4 free in it and 4 free under each leaf, 12 under the spine
        List<Pod> tp = placed("tp14", 14);
        assertThat(nodesOf(tp)).allMatch(rack::contains);

        String wide = "tb-deploy-leaf6";
        client.resource(gang("leaf6", 6, "leaf")).create();
        cluster.waitFor(
                "6 pods tied",
                PLACED,
                () -> Placement.gangPods(client, NS, wide).size() == 6);
        Duration waited = cluster.awaitSchedulingSessions(SESSIONS, Duration.ofSeconds(120));
        assertThat(Placement.noneBound(Placement.gangPods(client, NS, wide)))
                .as("no pod of the 6-tray leaf gang bound after " + SESSIONS + " sessions (" + waited.toMillis()
                        + " ms): no leaf HyperNode holds 6 free trays")
                .isTrue();
        client.apps().deployments().inNamespace(NS).withName("leaf6").delete();
        cluster.waitFor(
                "the 6-tray gang's pods gone",
                PLACED,
                () -> Placement.gangPods(client, NS, wide).isEmpty());

        List<Pod> small = placed("leaf4", 4);
        Set<String> nodes = nodesOf(small);
        Map<String, String> leafOf = leafOf();
        assertThat(rack.containsAll(nodes)
                        || nodes.stream().map(leafOf::get).distinct().count() == 1)
                .as("the 4-tray leaf gang on " + nodes + " is under one leaf or in the rack alone")
                .isTrue();
        assertThat(Placement.of(client).holding(small).tierName()).isIn("nvlink", "nvlink-domain", "leaf");
    }
}

package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Wide expert parallelism on GB200 NVL72 racks, on the real Volcano scheduler: a pool of its own of four racks of 18
 * compute trays (4 GPUs each, one NVLink domain per rack) under one leaf switch, and a LeaderWorkerSet of two groups of
 * 24 trays each with {@code highest-tier: auto}. A group is larger than any NVLink domain, so its all-to-all crosses
 * racks whatever happens; what matters is how many racks it spans, against the fewest its size allows: 2 on an empty
 * leaf (18 + 6), and 2 when 5 trays of every rack are taken (13 + 11). The bridge's part is the tier (the leaf, found by
 * {@code auto}) and the NVLink HyperNodes Volcano packs by; which trays of the leaf each pod gets is Volcano's, by node
 * score, and is not always the fewest racks: with trays taken, a second group was seen on 3 racks (9 + 2 + 13) where 2
 * had room. So each group must stay in the leaf and span at most one rack more than the fewest; the split per group and
 * the share of pod pairs that cross a rack are printed ({@code WIDE-EP}) for the benchmarks page.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WideExpertParallelE2E {

    static final String NS = "wide-ep-e2e";
    private static final String POOL = "wide-ep";
    private static final Nvl72Pool NODES = new Nvl72Pool("wep");
    private static final int RACKS = Nvl72Pool.RACKS;
    private static final int TRAYS = Nvl72Pool.TRAYS;
    private static final int GROUP = 24;
    private static final int GROUPS = 2;
    private static final Duration PLACED = Duration.ofSeconds(180);

    private final RealCluster cluster;
    private KubernetesClient client;
    private final List<String> lines = new ArrayList<>();

    WideExpertParallelE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void pool() {
        client = cluster.onExamples();
        List<Node> nodes = new ArrayList<>();
        for (int r = 1; r <= RACKS; r++) {
            for (int t = 1; t <= TRAYS; t++) {
                nodes.add(Nodes.node(NODES.node(r, t))
                        .label(TwoPartitionPool.POOL_LABEL, POOL)
                        .label("nvidia.com/gpu.present", "true")
                        .label("nvidia.com/gpu.product", "NVIDIA-GB200")
                        .label("nvidia.com/gpu.clique", "7a0c11e2-4b5d-4e6f-8a9b-wideeprack%02d.1".formatted(r))
                        .label("fabric.topograph.run/tier-0", "S-" + POOL + "-leaf")
                        .label("fabric.topograph.run/tier-1", "S-" + POOL + "-spine")
                        .cpu("140")
                        .memory("940Gi")
                        .gpus(4)
                        .build());
            }
        }
        Nodes.create(client, nodes);
        cluster.createOptedInNamespace(NS);
        cluster.waitFor("the pool's racks as NVLink HyperNodes under one leaf", PLACED, () -> {
            Placement placement = Placement.of(client);
            for (int r = 1; r <= RACKS; r++) {
                List<String> rack = NODES.rack(r);
                var lowest = placement.lowestCommon(rack);
                if (lowest.isEmpty() || !placement.ancestors(rack.get(0)).get(0).equals(lowest.get())) {
                    return false;
                }
            }
            return placement
                    .lowestCommon(NODES.nodes())
                    .map(d -> d.tierName().equals("leaf"))
                    .orElse(false);
        });
        cluster.waitFor(
                "the default ServiceAccount in " + NS,
                Duration.ofSeconds(60),
                () -> client.serviceAccounts()
                                .inNamespace(NS)
                                .withName("default")
                                .get()
                        != null);
    }

    @AfterEach
    void workloadsGone() {
        client.genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
                .inNamespace(NS)
                .delete();
        client.pods().inNamespace(NS).withGracePeriod(0).delete();
        cluster.waitFor(
                "the pods of " + NS + " gone",
                Duration.ofSeconds(120),
                () -> client.pods().inNamespace(NS).list().getItems().isEmpty());
    }

    @AfterAll
    void cleanUp() {
        lines.forEach(System.out::println);
        client.namespaces().withName(NS).delete();
        cluster.waitFor(
                "namespace " + NS + " gone",
                Duration.ofSeconds(180),
                () -> client.namespaces().withName(NS).get() == null);
        for (String node : NODES.nodes()) {
            cluster.kubelet().deleteNode(node);
        }
    }

    private void createLeaderWorkerSet(String name) {
        String manifest = """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: %1$s
                  namespace: %2$s
                  annotations: {topobridge.io/highest-tier: auto}
                spec:
                  replicas: %3$d
                  leaderWorkerTemplate:
                    size: %4$d
                    workerTemplate:
                      metadata: {labels: {app: %1$s}}
                      spec:
                        schedulerName: volcano
                        nodeSelector: {%5$s: %6$s}
                        containers:
                        - name: engine
                          image: registry.k8s.io/pause:3.10
                          resources:
                            requests: {cpu: "8", memory: 64Gi}
                            limits: {nvidia.com/gpu: "4"}
                """.formatted(name, NS, GROUPS, GROUP, TwoPartitionPool.POOL_LABEL, POOL);
        client.load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8)))
                .items()
                .forEach(o -> client.resource(o).create());
    }

    /** A pod bound by hand to a tray, taking its four GPUs (the cluster has no kube-scheduler to place it). */
    private void takeTray(String node) {
        client.pods().inNamespace(NS).resource(Nvl72Pool.takenTray(node)).create();
    }

    /** Trays per rack of each group, once every group's pods are bound; asserts each spans {@code racks} racks. */
    private void assertEachGroupSpans(String name, String situation, int racks, Set<String> taken) {
        for (int g = 0; g < GROUPS; g++) {
            String podGroup = "tb-lws-" + name + "-" + g;
            GenericKubernetesResource pg = PodGroups.await(cluster, client, NS, podGroup);
            List<Pod> pods = Placement.bound(cluster, client, NS, podGroup, GROUP, PLACED);
            Map<String, Long> perRack = pods.stream()
                    .collect(Collectors.groupingBy(
                            p -> Nvl72Pool.rackOf(p.getSpec().getNodeName()), TreeMap::new, Collectors.counting()));
            long pairs = (long) GROUP * (GROUP - 1) / 2;
            long inside =
                    perRack.values().stream().mapToLong(n -> n * (n - 1) / 2).sum();
            lines.add(
                    "WIDE-EP %s group %d: %d trays on %d racks %s (minimum %d), chosen %s, cross-rack pairs %d of %d (%.1f %%)"
                            .formatted(
                                    situation,
                                    g,
                                    pods.size(),
                                    perRack.size(),
                                    perRack.values(),
                                    racks,
                                    pg.getMetadata().getAnnotations().get("topobridge.io/chosen-tier"),
                                    pairs - inside,
                                    pairs,
                                    100.0 * (pairs - inside) / pairs));
            assertThat(pods)
                    .as("every pod of %s on a pool tray not taken", podGroup)
                    .allSatisfy(p -> assertThat(p.getSpec().getNodeName())
                            .startsWith("wep-")
                            .isNotIn(taken));
            assertThat(perRack)
                    .as("racks spanned by %s (%s): %s", podGroup, situation, perRack)
                    .satisfies(m -> assertThat(m.size()).isBetween(racks, racks + 1));
        }
        Set<String> used = new TreeSet<>();
        client.pods()
                .inNamespace(NS)
                .list()
                .getItems()
                .forEach(p -> used.add(p.getSpec().getNodeName()));
        assertThat(used).as("no tray holds two pods").hasSize(GROUPS * GROUP + taken.size());
    }

    @Test
    void eachGroupSpansTwoRacksOnAnEmptyLeaf() {
        createLeaderWorkerSet("wide-ep");
        assertEachGroupSpans("wide-ep", "empty-leaf", 2, Set.of());
    }

    @Test
    void eachGroupStillSpansTwoRacksWhenFiveTraysOfEveryRackAreTaken() {
        Set<String> taken = new TreeSet<>();
        for (int r = 1; r <= RACKS; r++) {
            // spread over the rack, not its first trays, so that no order of the nodes favours the free ones
            for (int t : new int[] {2, 5, 9, 13, 17}) {
                taken.add(NODES.node(r, t));
            }
        }
        taken.forEach(this::takeTray);
        createLeaderWorkerSet("wide-ep-busy");
        assertEachGroupSpans("wide-ep-busy", "5-of-18-taken", 2, taken);
    }
}

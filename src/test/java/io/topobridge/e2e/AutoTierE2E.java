package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.testing.PodTemplates;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code topobridge.io/highest-tier: auto} on the real Volcano scheduler and the example GB200 cluster (NVLink
 * partitions of 16 to 36 GPUs, domains of 32 to 72): gangs of different shapes get the tier the bridge chose,
 * explained on their PodGroup, and Volcano places every pod within it. For the gang too large for any NVLink
 * partition, the same shape with hand-chosen tiers is run next to it: one tier too low never starts, the top tier
 * starts but is free to spread. Under load (a second wide gang while the first holds the only domain that fits it),
 * the default mode lets {@code auto} start it where the hand-chosen tier, hard, waits. Tier, mode and placement are
 * printed.
 */
@ExtendWith(RealClusterExtension.class)
class AutoTierE2E {

    private static final String NS = PlacementE2E.NS;

    /**
     * One namespace for the class, emptied after each test ({@link TestNamespace#empty}): a namespace deleted goes only
     * at the namespace controller's first pass, 5 s after the deletion, which a namespace per test paid seven times.
     */
    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private static final Duration PLACED = Duration.ofSeconds(120);
    /** Whole scheduling sessions a hard gang that cannot be placed is watched for before it is asserted unplaced. */
    private static final int SESSIONS = 10;

    private final RealCluster cluster;
    private KubernetesClient client;

    AutoTierE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void namespace() {
        client = cluster.onExamples();
    }

    /** What a test made is gone before the next starts, as with a namespace of its own. */
    @AfterEach
    void workloadsGone() {
        NAMESPACE.empty(cluster);
    }

    /** A Deployment of {@code replicas} pods, each asking for {@code gpus} GPUs, with the given annotations. */
    private Deployment deployment(String name, int replicas, int gpus, Map<String, String> annotations) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", name)
                .endMetadata()
                .withNewSpec()
                .addToContainers(PodTemplates.gpuEngine(gpus))
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private static Map<String, String> annotations(String... keyValues) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            out.put(keyValues[i], keyValues[i + 1]);
        }
        return out;
    }

    /** The PodGroup as the cluster holds it, once it exists. */
    private GenericKubernetesResource podGroup(String name) {
        return PodGroups.await(cluster, client, NS, name);
    }

    private static Map<String, Object> topology(GenericKubernetesResource pg) {
        return PodGroups.networkTopology(pg);
    }

    private static int tier(GenericKubernetesResource pg) {
        return ((Number) topology(pg).get("highestTierAllowed")).intValue();
    }

    private List<Pod> placed(String podGroup, int pods) {
        return Placement.bound(cluster, client, NS, podGroup, pods, PLACED);
    }

    private Placement.Domain domainOf(List<Pod> pods) {
        return Placement.of(client).holding(pods);
    }

    private static void print(String shape, GenericKubernetesResource pg, Placement.Domain placed) {
        System.out.printf("AUTO-TIER %-34s %s%n", shape, Placement.outcome(pg, placed));
    }

    /** Creates {@code name}, 10 pods of 4 GPUs at the automatic tier, and prints where it is placed once it is. */
    private void placedWideGang(String name, String shape) {
        client.resource(deployment(name, 10, 4, annotations("topobridge.io/highest-tier", "auto")))
                .create();
        print(shape, podGroup("tb-deploy-" + name), domainOf(placed("tb-deploy-" + name, 10)));
    }

    @Test
    void aFourGpuTensorParallelGangGetsOneNvlinkPartition() {
        client.resource(deployment("tp4", 4, 1, annotations("topobridge.io/highest-tier", "auto")))
                .create();
        GenericKubernetesResource pg = podGroup("tb-deploy-tp4");
        assertThat(pg.getMetadata().getAnnotations().get("topobridge.io/chosen-tier"))
                .isEqualTo("1 (nvlink): 4 GPUs fit in 7 of 7 nvlink domains");
        assertThat(tier(pg)).isEqualTo(1);
        assertThat(topology(pg).get("mode")).isEqualTo("hard");
        Placement.Domain d = domainOf(placed("tb-deploy-tp4", 4));
        print("4 pods x 1 GPU (tensor-parallel)", pg, d);
        assertThat(d.tier()).as("placed in " + d).isLessThanOrEqualTo(1);
        assertThat(d.tierName()).isEqualTo("nvlink");
    }

    @Test
    void aGangTooLargeForAnyPartitionGetsTheNvlinkDomainThatHoldsIt() {
        client.resource(deployment("wide", 10, 4, annotations("topobridge.io/highest-tier", "auto")))
                .create();
        GenericKubernetesResource pg = podGroup("tb-deploy-wide");
        assertThat(pg.getMetadata().getAnnotations().get("topobridge.io/chosen-tier"))
                .isEqualTo(
                        "2 (nvlink-domain): 40 GPUs fit in 1 of 5 nvlink-domain domains; 1 (nvlink) holds at most 36 GPUs");
        assertThat(tier(pg)).isEqualTo(2);
        assertThat(topology(pg).get("mode")).isEqualTo("hard");
        List<Pod> pods = placed("tb-deploy-wide", 10);
        Placement.Domain d = domainOf(pods);
        print("10 pods x 4 GPUs (wider than NVLink)", pg, d);
        assertThat(d.tier()).as("placed in " + d).isLessThanOrEqualTo(2);
        // the only NVLink domain of 40 GPUs or more is the NVL72 rack r05
        assertThat(pods).allSatisfy(p -> assertThat(p.getSpec().getNodeName()).startsWith("gb200-r05-"));
    }

    @Test
    void theSameShapeWithHandChosenTiers() {
        // one tier too low: the gang fits no NVLink partition and, hard, could never start: refused at admission
        assertThatThrownBy(() -> client.resource(
                                deployment("wide-nvlink", 10, 4, annotations("topobridge.io/highest-tier", "nvlink")))
                        .create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getMessage())
                            .contains("PodGroup tb-deploy-wide-nvlink needs 40 GPUs within one domain of its hard tier"
                                    + " 1 (nvlink), more than any domain of that tier holds even empty");
                });
        System.out.printf(
                "AUTO-TIER %-34s hand-chosen 1 (nvlink), hard -> refused at admission (GangExceedsDomain)%n",
                "10 pods x 4 GPUs");

        // the top tier: placed, but nothing keeps it in one NVLink domain
        client.resource(deployment("wide-spine", 10, 4, annotations("topobridge.io/highest-tier", "spine")))
                .create();
        GenericKubernetesResource top = podGroup("tb-deploy-wide-spine");
        Placement.Domain d = domainOf(placed("tb-deploy-wide-spine", 10));
        System.out.printf(
                "AUTO-TIER %-34s hand-chosen %d (spine), hard -> placed in %s at tier %d (%s)%n",
                "10 pods x 4 GPUs", tier(top), d.name(), d.tier(), d.tierName());
        assertThat(d.tier()).isLessThanOrEqualTo(tier(top));
    }

    @Test
    void aPrefillDecodePairAndEachSideStayWithinTheirChosenTiers() {
        client.resource(deployment(
                        "pd-prefill",
                        2,
                        4,
                        annotations(
                                "topobridge.io/group",
                                "pd",
                                "topobridge.io/highest-tier",
                                "auto",
                                "topobridge.io/subgroup-highest-tier",
                                "auto")))
                .create();
        client.resource(deployment("pd-decode", 1, 4, annotations("topobridge.io/group", "pd")))
                .create();
        podGroup("tb-group-pd");
        // the group's PodGroup may first be made from the prefill alone (8 GPUs); the decode joins it
        String pair = "2 (nvlink-domain): 12 GPUs fit in 5 of 5 nvlink-domain domains; its subgroups keep to 1"
                + " (nvlink), the gang to a tier above theirs";
        cluster.waitFor(
                "the pair's chosen tier",
                Duration.ofSeconds(60),
                () -> pair.equals(
                        podGroup("tb-group-pd").getMetadata().getAnnotations().get("topobridge.io/chosen-tier")));
        GenericKubernetesResource pg = podGroup("tb-group-pd");
        assertThat(pg.getMetadata().getAnnotations().get("topobridge.io/chosen-subgroup-tier"))
                .isEqualTo("1 (nvlink): 8 GPUs fit in 7 of 7 nvlink domains");
        List<Pod> pods = placed("tb-group-pd", 3);
        Placement.Domain d = domainOf(pods);
        print("prefill 2 x 4 GPUs + decode 1 x 4 GPUs", pg, d);
        assertThat(d.tier()).as("the pair in " + d).isLessThanOrEqualTo(2);
        Map<String, List<String>> byMember =
                Placement.nodesBy(pods, p -> p.getMetadata().getLabels().get("topobridge.io/member"));
        assertThat(byMember).containsOnlyKeys("deploy-pd-prefill", "deploy-pd-decode");
        byMember.forEach((member, nodes) -> {
            Placement.Domain side = Placement.of(client).lowestCommon(nodes).orElseThrow();
            System.out.printf("AUTO-TIER   subgroup %-25s placed in %s at tier %d%n", member, side.name(), side.tier());
            assertThat(side.tier()).as(member).isLessThanOrEqualTo(1);
        });
    }

    @Test
    void aibrixsOwnPodGroupGetsTheChosenTierAndItsExplanation() {
        client.resource(StormServices.volcanoGang(
                        client,
                        "auto-pd",
                        NS,
                        "{topobridge.io/highest-tier: auto, topobridge.io/subgroup-highest-tier: auto}",
                        2,
                        4))
                .create();
        cluster.waitFor(
                "AIBrix's RoleSet and its PodGroup",
                PLACED,
                () -> client
                        .genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                        .inNamespace(NS)
                        .list()
                        .getItems()
                        .stream()
                        .anyMatch(pg -> pg.getMetadata().getName().startsWith("auto-pd")));
        String name = client
                .genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(NS)
                .list()
                .getItems()
                .stream()
                .map(pg -> pg.getMetadata().getName())
                .filter(n -> n.startsWith("auto-pd"))
                .findFirst()
                .orElseThrow();
        String chosen = "2 (nvlink-domain): 16 GPUs fit in 5 of 5 nvlink-domain domains; its subgroups keep to 1"
                + " (nvlink), the gang to a tier above theirs";
        cluster.waitFor(
                "the chosen tier on AIBrix's PodGroup " + name,
                PLACED,
                () -> chosen.equals(
                        podGroup(name).getMetadata().getAnnotations().get("topobridge.io/chosen-tier")));
        GenericKubernetesResource pg = podGroup(name);
        assertThat(pg.getMetadata().getLabels()).as("still AIBrix's").doesNotContainKey("app.kubernetes.io/managed-by");
        assertThat(tier(pg)).isEqualTo(2);
        assertThat(pg.getMetadata().getAnnotations().get("topobridge.io/chosen-subgroup-tier"))
                .startsWith("1 (nvlink): ");
        List<Pod> pods = placed(name, 4);
        Placement.Domain d = domainOf(pods);
        print("AIBrix StormService 2+2 x 4 GPUs", pg, d);
        assertThat(d.tier()).isLessThanOrEqualTo(2);
        // AIBrix rewrites its PodGroup as the pods start; the PodGroup webhook keeps the explanation on its writes,
        // so the bridge has nothing to put back
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), PLACED);
        long mark = cluster.audit().mark();
        RealCluster.sleep(Duration.ofSeconds(15));
        List<AuditLog.Write> writes =
                cluster.audit().writesSince(mark, w -> w.resource().equals("podgroups") && name.equals(w.name()));
        System.out.printf("AUTO-TIER   writes to AIBrix's PodGroup in 15 s after its gang started: %s%n", writes);
        assertThat(writes).noneMatch(w -> w.user().equals(RealCluster.BRIDGE));
        // explain reads the explanation from the PodGroup, as for the bridge's own
        String explained = cluster.bridge().get("/api/gangs/" + NS + "/" + name).body();
        assertThat(explained).contains(chosen);
        assertThat(pg.getMetadata().getAnnotations().get("topobridge.io/chosen-tier"))
                .isEqualTo(podGroup(name).getMetadata().getAnnotations().get("topobridge.io/chosen-tier"));
    }

    @Test
    void withoutAWaitForRoomASecondWideGangStartsSoftWhereAHandChosenHardTierWaits() {
        // the rule without a wait (auto-wait-for-room: 0s): no room today, soft at once
        cluster.stopBridge();
        try (Bridge bridge = Bridge.on(cluster, "topobridge-no-wait")
                .set("topobridge.workloads.auto-wait-for-room", "0s")
                .start()
                .awaitReady(Duration.ofSeconds(120))) {
            placedWideGang("first", "first 10 x 4 GPUs");

            // the only domain of tier 2 that holds 40 GPUs (r05) has 32 free now: the same tier, soft
            client.resource(deployment("second", 10, 4, annotations("topobridge.io/highest-tier", "auto")))
                    .create();
            cluster.waitFor(
                    "the second gang's PodGroup",
                    Duration.ofSeconds(60),
                    () -> client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                                    .inNamespace(NS)
                                    .withName("tb-deploy-second")
                                    .get()
                            != null);
            GenericKubernetesResource second = podGroup("tb-deploy-second");
            assertThat(tier(second)).isEqualTo(2);
            assertThat(topology(second).get("mode"))
                    .as("no room for 40 GPUs in any NVLink domain today")
                    .isEqualTo("soft");
            List<Pod> pods = placed("tb-deploy-second", 10);
            // soft: spread over racks, perhaps over both spines (then no HyperNode holds it all)
            Placement.Domain d = Placement.of(client)
                    .lowestCommon(
                            pods.stream().map(p -> p.getSpec().getNodeName()).toList())
                    .orElse(null);
            print("second 10 x 4 GPUs, r05 busy", second, d);
            assertThat(d == null || d.tier() > 2)
                    .as("placed anyway, above its preferred tier: " + d)
                    .isTrue();
            // the running gang counts its own pods as room: still hard
            assertThat(topology(podGroup("tb-deploy-first")).get("mode")).isEqualTo("hard");

            // the same second gang with the hand-chosen tier, hard: it waits
            client.apps().deployments().inNamespace(NS).withName("second").delete();
            cluster.waitFor(
                    "the second gang's pods gone",
                    PLACED,
                    () -> Placement.gangPods(client, NS, "tb-deploy-second").isEmpty());
            client.resource(deployment(
                            "second-hand", 10, 4, annotations("topobridge.io/highest-tier", "nvlink-domain")))
                    .create();
            cluster.waitFor(
                    "10 pods tied",
                    PLACED,
                    () -> Placement.gangPods(client, NS, "tb-deploy-second-hand")
                                    .size()
                            == 10);
            Duration waited = cluster.awaitSchedulingSessions(SESSIONS, PLACED);
            boolean waits = Placement.noneBound(Placement.gangPods(client, NS, "tb-deploy-second-hand"));
            System.out.printf(
                    "AUTO-TIER %-34s hand-chosen 2 (nvlink-domain), hard -> %s after %d scheduling sessions (%d ms)%n",
                    "second 10 x 4 GPUs, r05 busy", waits ? "not placed" : "placed", SESSIONS, waited.toMillis());
            System.out.printf(
                    "AUTO-TIER under load: auto placed 2 of 2 wide gangs, hand-chosen tier 2 hard %d of 2%n",
                    waits ? 1 : 2);
            assertThat(waits).isTrue();
        }
    }

    @Test
    void withAWaitForRoomASecondWideGangWaitsHardAndGetsTheDomainWhenTheFirstLeaves() {
        cluster.stopBridge();
        Duration wait = Duration.ofSeconds(15);
        try (Bridge bridge = Bridge.on(cluster, "topobridge-room-wait")
                .set("topobridge.workloads.auto-wait-for-room", wait.toSeconds() + "s")
                .start()
                .awaitReady(Duration.ofSeconds(120))) {
            placedWideGang("first", "first 10 x 4 GPUs, wait 15 s");

            // no room for 40 GPUs in any NVLink domain today: hard all the same, while it waits for room
            client.resource(deployment("second", 10, 4, annotations("topobridge.io/highest-tier", "auto")))
                    .create();
            GenericKubernetesResource second = podGroup("tb-deploy-second");
            assertThat(tier(second)).isEqualTo(2);
            assertThat(topology(second).get("mode")).isEqualTo("hard");
            cluster.waitFor(
                    "10 pods of the second gang tied",
                    PLACED,
                    () -> Placement.gangPods(client, NS, "tb-deploy-second").size() == 10);
            cluster.awaitSchedulingSessions(5, PLACED);
            assertThat(Placement.noneBound(Placement.gangPods(client, NS, "tb-deploy-second")))
                    .as("hard: it waits rather than spread")
                    .isTrue();
            // the first gang leaves within the wait: the second gets the NVLink domain it wanted, still hard
            client.apps().deployments().inNamespace(NS).withName("first").delete();
            long left = System.nanoTime();
            Placement.Domain got = domainOf(placed("tb-deploy-second", 10));
            long placedAfter = Duration.ofNanos(System.nanoTime() - left).toMillis();
            print("second 10 x 4 GPUs, waited for room", podGroup("tb-deploy-second"), got);
            System.out.printf("AUTO-TIER second gang placed %d ms after the first was deleted%n", placedAfter);
            assertThat(got.tier()).as("within the chosen tier 2: " + got).isLessThanOrEqualTo(2);
            assertThat(topology(podGroup("tb-deploy-second")).get("mode")).isEqualTo("hard");

            // a third wide gang while the second holds the domain: hard for the wait, then soft, then placed
            client.resource(deployment("third", 10, 4, annotations("topobridge.io/highest-tier", "auto")))
                    .create();
            GenericKubernetesResource third = podGroup("tb-deploy-third");
            assertThat(topology(third).get("mode")).isEqualTo("hard");
            java.time.Instant created =
                    java.time.Instant.parse(third.getMetadata().getCreationTimestamp());
            cluster.waitFor(
                    "the third gang soft once it has waited " + wait.toSeconds() + " s",
                    Duration.ofSeconds(60),
                    () -> "soft".equals(topology(podGroup("tb-deploy-third")).get("mode")));
            long softAfter = Duration.between(created, java.time.Instant.now()).toMillis();
            System.out.printf("AUTO-TIER third gang turned soft %d ms after its PodGroup was created%n", softAfter);
            assertThat(softAfter)
                    .as("not before the wait is over (creation times are whole seconds)")
                    .isGreaterThanOrEqualTo(wait.toMillis() - 1000);
            List<Pod> pods = placed("tb-deploy-third", 10);
            Placement.Domain d = Placement.of(client)
                    .lowestCommon(
                            pods.stream().map(p -> p.getSpec().getNodeName()).toList())
                    .orElse(null);
            print("third 10 x 4 GPUs, after its wait", podGroup("tb-deploy-third"), d);
            assertThat(d == null || d.tier() > 2)
                    .as("placed across domains: " + d)
                    .isTrue();
        }
    }
}

package io.topobridge.core.workload.autotier;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Cluster;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.volcano.model.NetworkTopologySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code auto} through the whole translator: what reaches the PodGroup, what is refused, what is said. */
public class AutoTierTranslationTest {

    /** Tier 1 (nvlink): 4 domains of 4 GPUs; tier 2 (rack): 2 of 8; tier 3 (spine): 1 of 16. Empty unless said. */
    public static TierDomains domains(int freePerPartition) {
        List<TierDomains.Domain> nvlink = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nvlink.add(domain("nv" + i, 4, freePerPartition));
        }
        return Cluster.domains(
                Map.of(
                        1,
                        nvlink,
                        2,
                        List.of(domain("r0", 8, 2 * freePerPartition), domain("r1", 8, 2 * freePerPartition)),
                        3,
                        List.of(domain("s", 16, 4 * freePerPartition))),
                Map.of(1, "nvlink", 2, "rack", 3, "spine"));
    }

    static TierDomains.Domain domain(String name, int gpus, int free) {
        return Cluster.domain(
                name,
                Amounts.parse(Map.of(Amounts.GPU, String.valueOf(gpus), "cpu", "64")),
                Amounts.parse(Map.of(Amounts.GPU, String.valueOf(free), "cpu", "64")),
                Map.of());
    }

    static TranslationResult translate(TierDomains domains, int minDomains, String... yaml) {
        List<HasMetadata> objects = new ArrayList<>();
        for (String doc : yaml) {
            objects.add(Fixtures.object(doc));
        }
        return TranslationResult.of(
                Fixtures.translator(
                        Fixtures.settings("default", WorkloadSettings.UnlistedQueues.DEFAULT_ONLY, 500, minDomains)),
                objects,
                Fixtures.TIERS,
                Fixtures.lookup(objects).withDomains(() -> domains));
    }

    static NetworkTopologySpec topology(TranslationResult result) {
        assertThat(result.podGroups()).hasSize(1);
        return result.podGroups().get(0).spec().getNetworkTopology();
    }

    static String chosen(TranslationResult result) {
        return result.podGroups().get(0).annotations().get("topobridge.io/chosen-tier");
    }

    @Test
    void aGangOfSixGpusGetsTheRackAndSaysWhy() {
        var result = translate(
                domains(4), 1, Fixtures.deployment("ns", "six", 6, Map.of("topobridge.io/highest-tier", "auto")));
        assertThat(topology(result).getHighestTierAllowed()).isEqualTo(2);
        assertThat(topology(result).getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.HARD);
        assertThat(chosen(result))
                .isEqualTo("2 (rack): 6 GPUs fit in 2 of 2 rack domains; 1 (nvlink) holds at most 4 GPUs");
        assertThat(result.findings()).isEmpty();
    }

    @Test
    void anAdoptedPodGroupCarriesTheExplanationWithTheTopologyFields() {
        var result = translate(domains(4), 1, """
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: RoleSet
                metadata:
                  name: pd
                  namespace: ns
                  uid: u1
                  annotations: {topobridge.io/highest-tier: auto}
                spec:
                  schedulingStrategy: {volcanoSchedulingStrategy: {minMember: 2}}
                  roles:
                  - {name: prefill, replicas: 1, template: {spec: {containers: [{name: c, image: x,
                      resources: {limits: {nvidia.com/gpu: "3"}}}]}}}
                  - {name: decode, replicas: 1, template: {spec: {containers: [{name: c, image: x,
                      resources: {limits: {nvidia.com/gpu: "3"}}}]}}}
                """);
        DesiredPodGroup adopted = result.podGroups().get(0);
        assertThat(adopted.ownership()).isEqualTo(DesiredPodGroup.Ownership.ADOPTED);
        assertThat(topology(result).getHighestTierAllowed()).isEqualTo(2);
        assertThat(chosen(result))
                .isEqualTo("2 (rack): 6 GPUs fit in 2 of 2 rack domains; 1 (nvlink) holds at most 4 GPUs");
        // what is applied to AIBrix's PodGroup: the topology fields and how they were chosen, nothing of AIBrix's
        var written = io.topobridge.volcano.VolcanoObjects.podGroup(adopted);
        assertThat(written.getMetadata().getAnnotations())
                .containsOnlyKeys("topobridge.io/chosen-tier")
                .containsValue(chosen(result));
        assertThat(written.getMetadata().getLabels()).isNullOrEmpty();
        assertThat(written.getSpec().getMinMember()).isNull();
    }

    @Test
    void minDomainsIsTheConfiguredNumber() {
        var result = translate(
                domains(4), 2, Fixtures.deployment("ns", "eight", 8, Map.of("topobridge.io/highest-tier", "auto")));
        assertThat(topology(result).getHighestTierAllowed())
                .as("only one rack would not be 2 domains")
                .isEqualTo(2);
        var three = translate(
                domains(4), 3, Fixtures.deployment("ns", "four", 4, Map.of("topobridge.io/highest-tier", "auto")));
        assertThat(topology(three).getHighestTierAllowed()).isEqualTo(1);
        var five = translate(
                domains(4), 5, Fixtures.deployment("ns", "four", 4, Map.of("topobridge.io/highest-tier", "auto")));
        assertThat(chosen(five)).contains("fewer than the 5 wanted");
    }

    @Test
    void aFullClusterMakesTheDefaultSoftAndTheUsersModeWins() {
        var soft = translate(
                domains(0), 1, Fixtures.deployment("ns", "two", 2, Map.of("topobridge.io/highest-tier", "auto")));
        assertThat(topology(soft).getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.SOFT);
        var hard = translate(
                domains(0),
                1,
                Fixtures.deployment(
                        "ns", "two", 2, Map.of("topobridge.io/highest-tier", "auto", "topobridge.io/mode", "hard")));
        assertThat(topology(hard).getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.HARD);
        assertThat(chosen(soft)).as("the sentence speaks of sizes, not load").isEqualTo(chosen(hard));
    }

    @Test
    void withAWaitForRoomANewGangStaysHardUntilItsPodGroupIsAsOldAsTheWait() {
        HasMetadata two =
                Fixtures.object(Fixtures.deployment("ns", "two", 2, Map.of("topobridge.io/highest-tier", "auto")));
        java.time.Instant now = java.time.Instant.parse("2026-12-01T10:00:00Z");
        WorkloadTranslator translator = new WorkloadTranslator(
                Fixtures.settings()
                        .autoWaitForRoom(java.time.Duration.ofSeconds(30))
                        .build(),
                io.topobridge.core.kinds.Kinds.adapters(),
                java.time.Clock.fixed(now, java.time.ZoneOffset.UTC));

        // no PodGroup yet: the gang starts its wait, hard, although no partition has room today
        var fresh = TranslationResult.of(
                translator,
                List.of(two),
                Fixtures.TIERS,
                Fixtures.lookup(List.of(two)).withDomains(() -> domains(0)));
        assertThat(topology(fresh).getHighestTierAllowed()).isEqualTo(1);
        assertThat(topology(fresh).getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.HARD);
        String name = fresh.podGroups().get(0).name();

        for (int age : new int[] {0, 29, 30, 31, 3600}) {
            HasMetadata pg = Fixtures.object("""
                    apiVersion: scheduling.volcano.sh/v1beta1
                    kind: PodGroup
                    metadata:
                      name: %s
                      namespace: ns
                      creationTimestamp: "%s"
                    spec:
                      minMember: 2
                    """.formatted(name, now.minusSeconds(age)));
            var result = TranslationResult.of(
                    translator,
                    List.of(two),
                    Fixtures.TIERS,
                    Fixtures.lookup(List.of(two, pg)).withDomains(() -> domains(0)));
            assertThat(topology(result).getMode())
                    .as("a PodGroup %d s old, waiting 30 s", age)
                    .isEqualTo(age < 30 ? NetworkTopologySpec.ModeEnum.HARD : NetworkTopologySpec.ModeEnum.SOFT);
            assertThat(chosen(result)).as("the sentence does not change").isEqualTo(chosen(fresh));
        }

        // with room today the wait does not matter; without a wait configured the gang is soft at once
        var room = TranslationResult.of(
                translator,
                List.of(two),
                Fixtures.TIERS,
                Fixtures.lookup(List.of(two)).withDomains(() -> domains(4)));
        assertThat(topology(room).getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.HARD);
        var noWait = TranslationResult.of(
                new WorkloadTranslator(
                        Fixtures.defaultSettings(),
                        io.topobridge.core.kinds.Kinds.adapters(),
                        java.time.Clock.fixed(now, java.time.ZoneOffset.UTC)),
                List.of(two),
                Fixtures.TIERS,
                Fixtures.lookup(List.of(two)).withDomains(() -> domains(0)));
        assertThat(topology(noWait).getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.SOFT);
    }

    @Test
    void aWaitForRoomOutsideItsBoundsIsRefusedNamingTheKey() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fixtures.settings()
                        .autoWaitForRoom(java.time.Duration.ofSeconds(-1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("topobridge.workloads.auto-wait-for-room=PT-1S")
                .hasMessageContaining("between 0s and 24h");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fixtures.settings()
                        .autoWaitForRoom(java.time.Duration.ofHours(25))
                        .build())
                .hasMessageContaining("topobridge.workloads.auto-wait-for-room=PT25H");
        WorkloadSettings thirty = Fixtures.settings()
                .autoWaitForRoom(java.time.Duration.ofSeconds(30))
                .build();
        assertThat(thirty.roomWaitEnd("2026-12-01T10:00:00Z"))
                .contains(java.time.Instant.parse("2026-12-01T10:00:30Z"));
        assertThat(thirty.roomWaitEnd(null))
                .as("no creation time: waited enough")
                .isEmpty();
        assertThat(thirty.roomWaitEnd("yesterday")).isEmpty();
    }

    @Test
    void noTierFitsIsTheTopTierSoftWithAWarning() {
        var result = translate(
                domains(4), 1, Fixtures.deployment("ns", "huge", 20, Map.of("topobridge.io/highest-tier", "auto")));
        assertThat(topology(result).getHighestTierAllowed()).isEqualTo(3);
        assertThat(topology(result).getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.SOFT);
        assertThat(result.findings()).extracting(Finding::reason).containsExactly(WorkloadReason.AUTO_TIER_NO_FIT);
        assertThat(result.findings().get(0).message())
                .contains("Deployment/ns/huge")
                .contains("20 GPUs fit in no domain of any tier; 3 (spine) holds at most 16 GPUs");
    }

    @Test
    void withoutDomainsTheGangWaitsAndItsPodsAreStillTied() {
        String yaml = Fixtures.deployment("ns", "early", 2, Map.of("topobridge.io/highest-tier", "auto"));
        var result = translate(TierDomains.NONE, 1, yaml);
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings()).extracting(Finding::reason).containsExactly(WorkloadReason.TIERS_UNKNOWN);
        assertThat(result.findings().get(0).message()).contains("no HyperNode is known yet");
    }

    /**
     * A prefill/decode group of 1-GPU pods on {@link #domains(int)} with 4 free GPUs per partition: {@code pre} and
     * {@code dec} replicas, the group's tier and subgroup tier as written on the prefill.
     */
    private static TranslationResult pair(int pre, int dec, String tier, String subgroupTier) {
        return translate(
                domains(4),
                1,
                Fixtures.deployment(
                        "ns",
                        "pre",
                        pre,
                        Map.of(
                                "topobridge.io/group",
                                "g",
                                "topobridge.io/highest-tier",
                                tier,
                                "topobridge.io/subgroup-highest-tier",
                                subgroupTier)),
                Fixtures.deployment("ns", "dec", dec, Map.of("topobridge.io/group", "g")));
    }

    @Test
    void anExplicitSubgroupTierLiftsAnAutoGangTier() {
        var result = pair(2, 1, "auto", "rack");
        DesiredPodGroup pg = result.podGroups().get(0);
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed())
                .as("3 GPUs alone would take tier 1; the subgroups keep to racks, the gang to the tier above")
                .isEqualTo(3);
        assertThat(pg.annotations().get("topobridge.io/chosen-tier"))
                .isEqualTo("3 (spine): 3 GPUs fit in 1 of 1 spine domains; its subgroups keep to 2 (rack), the gang"
                        + " to a tier above theirs");
        assertThat(pg.spec().getSubGroupPolicy())
                .allSatisfy(p -> assertThat(p.getNetworkTopology().getHighestTierAllowed())
                        .isEqualTo(2));
    }

    /**
     * A prefill/decode pair whose roles each fit one NVLink partition: each role keeps to its partition and the pair
     * to the rack, rather than the pair being packed into one partition (which starts only where one partition has
     * room for both roles).
     */
    @Test
    void aPairOfSubgroupsHeldToPartitionsSharesTheTierAbove() {
        var result = pair(2, 1, "auto", "auto");
        DesiredPodGroup pg = result.podGroups().get(0);
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(2);
        assertThat(pg.spec().getNetworkTopology().getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.HARD);
        assertThat(pg.annotations().get("topobridge.io/chosen-tier"))
                .isEqualTo("2 (rack): 3 GPUs fit in 2 of 2 rack domains; its subgroups keep to 1 (nvlink), the gang"
                        + " to a tier above theirs");
        assertThat(pg.spec().getSubGroupPolicy())
                .allSatisfy(p -> assertThat(p.getNetworkTopology().getHighestTierAllowed())
                        .isEqualTo(1));

        // one Deployment whose one subgroup is the whole gang: nothing to lift, the gang keeps the lowest tier
        var single = translate(
                domains(4),
                1,
                Fixtures.deployment(
                        "ns",
                        "solo",
                        2,
                        Map.of("topobridge.io/highest-tier", "auto", "topobridge.io/subgroup-highest-tier", "auto")));
        assertThat(single.podGroups().get(0).spec().getNetworkTopology().getHighestTierAllowed())
                .isEqualTo(1);
    }

    @Test
    void anAutoSubgroupTierHoldsTheLargestSubgroupAndNeverExceedsTheGangs() {
        var result = pair(6, 2, "auto", "auto");
        DesiredPodGroup pg = result.podGroups().get(0);
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed())
                .as("8 GPUs fit a rack; the subgroups keep to racks, the gang to the tier above")
                .isEqualTo(3);
        assertThat(pg.annotations().get("topobridge.io/chosen-subgroup-tier"))
                .isEqualTo("2 (rack): 6 GPUs fit in 2 of 2 rack domains; 1 (nvlink) holds at most 4 GPUs");
        assertThat(pg.spec().getSubGroupPolicy())
                .allSatisfy(p -> assertThat(p.getNetworkTopology().getHighestTierAllowed())
                        .isEqualTo(2));

        var capped = translate(
                domains(4),
                1,
                Fixtures.deployment(
                        "ns",
                        "pre",
                        6,
                        Map.of(
                                "topobridge.io/group", "g",
                                "topobridge.io/highest-tier", "nvlink",
                                "topobridge.io/mode", "soft",
                                "topobridge.io/subgroup-highest-tier", "auto")),
                Fixtures.deployment("ns", "dec", 2, Map.of("topobridge.io/group", "g")));
        DesiredPodGroup c = capped.podGroups().get(0);
        assertThat(c.spec().getSubGroupPolicy())
                .allSatisfy(p -> assertThat(p.getNetworkTopology().getHighestTierAllowed())
                        .isEqualTo(1));
        assertThat(c.annotations()).doesNotContainKey("topobridge.io/chosen-tier");
        // the subgroups' auto tier says it with its own finding; the gang's written soft tier is too small as well
        assertThat(capped.findings())
                .extracting(Finding::reason)
                .contains(WorkloadReason.AUTO_TIER_NO_FIT, WorkloadReason.GANG_EXCEEDS_DOMAIN);
        // hard, the gang could never start in one NVLink partition: refused
        assertThat(pair(6, 2, "nvlink", "auto").podGroups()).isEmpty();
    }

    /**
     * Four nodes of 4 GPUs, one per NVLink partition (nv0..nv3), two partitions per rack (r0, r1), one spine; the
     * pods of the group bound as given ({@code role -> nodes}), labelled as the PodGroup's subgroup policy selects.
     */
    static TierDomains boundGroup(DesiredPodGroup pg, Map<String, List<String>> nodesByRole) {
        List<NodeView> nodes = new ArrayList<>();
        List<HyperNodeView> hyperNodes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nodes.add(Cluster.nodeView("n" + i, Map.of(), Amounts.parse(Map.of(Amounts.GPU, "4", "cpu", "64"))));
            hyperNodes.add(new HyperNodeView("nv" + i, 1, "nvlink", "", List.of("n" + i), List.of()));
        }
        hyperNodes.add(new HyperNodeView("r0", 2, "rack", "", List.of(), List.of("nv0", "nv1")));
        hyperNodes.add(new HyperNodeView("r1", 2, "rack", "", List.of(), List.of("nv2", "nv3")));
        hyperNodes.add(new HyperNodeView("s", 3, "spine", "", List.of(), List.of("r0", "r1")));
        List<PodView> pods = new ArrayList<>();
        nodesByRole.forEach((role, on) -> {
            var policy = pg.spec().getSubGroupPolicy().stream()
                    .filter(p -> p.getName().endsWith("-" + role))
                    .findFirst()
                    .orElseThrow();
            for (int i = 0; i < on.size(); i++) {
                pods.add(Cluster.podView(
                        "ns",
                        role + "-" + i,
                        on.get(i),
                        Amounts.parse(Map.of(Amounts.GPU, "1", "cpu", "1")),
                        policy.getLabelSelector().getMatchLabels(),
                        null,
                        pg.name(),
                        List.of()));
            }
        });
        return TierDomains.of(nodes, pods, Forest.of(hyperNodes), Accelerators.DEFAULT);
    }

    /** Prefill "pre" (2 pods) and decode "dec" (2 pods) of group g, both tiers auto, and the annotations given. */
    static String[] autoGroup(Map<String, String> more) {
        Map<String, String> annotations = new java.util.TreeMap<>(more);
        annotations.put("topobridge.io/group", "g");
        annotations.put("topobridge.io/highest-tier", "auto");
        annotations.put("topobridge.io/subgroup-highest-tier", "auto");
        return new String[] {
            Fixtures.deployment("ns", "pre", 2, annotations),
            Fixtures.deployment("ns", "dec", 2, Map.of("topobridge.io/group", "g"))
        };
    }

    @Test
    void aSubgroupPlacedAcrossPartitionsStaysSoftWhenRoomAppears() {
        String[] group = autoGroup(Map.of());
        DesiredPodGroup fresh = translate(domains(4), 1, group).podGroups().get(0);
        assertThat(fresh.spec().getSubGroupPolicy())
                .as("a new group with room: every subgroup hard in one partition")
                .hasSize(2)
                .allSatisfy(
                        p -> assertThat(p.getNetworkTopology().getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.HARD));

        // placed soft earlier: decode across nv0 and nv1; nv3 is empty now, so there is room in a partition
        DesiredPodGroup spread = placed(group, fresh, List.of("n0", "n1"));
        assertThat(subgroupModes(spread))
                .as("hard would promise decode one partition while its pods sit in two")
                .containsOnly(NetworkTopologySpec.ModeEnum.SOFT);
        assertThat(spread.spec().getSubGroupPolicy())
                .allSatisfy(p -> assertThat(p.getNetworkTopology().getHighestTierAllowed())
                        .isEqualTo(1));
        assertThat(spread.spec().getNetworkTopology().getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.SOFT);

        // each subgroup inside one partition, the gang across two: the subgroups may be hard, the gang not
        DesiredPodGroup kept = placed(group, fresh, List.of("n0", "n0"));
        assertThat(subgroupModes(kept)).containsOnly(NetworkTopologySpec.ModeEnum.HARD);
        assertThat(kept.spec().getNetworkTopology().getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.SOFT);

        // the user's own subgroup mode wins over both
        String[] written = autoGroup(Map.of("topobridge.io/subgroup-mode", "hard"));
        assertThat(subgroupModes(placed(written, fresh, List.of("n0", "n1"))))
                .containsOnly(NetworkTopologySpec.ModeEnum.HARD);
    }

    /** The group translated again with its decode pods bound on {@code decodeNodes} and both prefill pods on n2. */
    static DesiredPodGroup placed(String[] group, DesiredPodGroup fresh, List<String> decodeNodes) {
        return translate(boundGroup(fresh, Map.of("dec", decodeNodes, "pre", List.of("n2", "n2"))), 1, group)
                .podGroups()
                .get(0);
    }

    static List<NetworkTopologySpec.ModeEnum> subgroupModes(DesiredPodGroup pg) {
        assertThat(pg.spec().getSubGroupPolicy()).hasSize(2);
        return pg.spec().getSubGroupPolicy().stream()
                .map(p -> p.getNetworkTopology().getMode())
                .toList();
    }

    @Test
    void theSameInputsGiveTheSameSentence() {
        String yaml = Fixtures.deployment("ns", "six", 6, Map.of("topobridge.io/highest-tier", "auto"));
        assertThat(chosen(translate(domains(4), 1, yaml))).isEqualTo(chosen(translate(domains(4), 1, yaml)));
    }
}

package io.topobridge.core.workload.autotier;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.diagnosis.Amounts;
import io.topobridge.core.diagnosis.TierDomains;
import io.topobridge.core.finding.Finding;
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
class AutoTierTranslationTest {

    /** Tier 1 (nvlink): 4 domains of 4 GPUs; tier 2 (rack): 2 of 8; tier 3 (spine): 1 of 16. Empty unless said. */
    static TierDomains domains(int freePerPartition) {
        List<TierDomains.Domain> nvlink = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nvlink.add(domain("nv" + i, 4, freePerPartition));
        }
        return new TierDomains(
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
        return new TierDomains.Domain(
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
        return new WorkloadTranslator(new WorkloadSettings("default", minDomains))
                .translate(objects, Fixtures.TIERS, Fixtures.lookup(objects).withDomains(() -> domains));
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

    @Test
    void anExplicitSubgroupTierLiftsAnAutoGangTier() {
        var result = translate(
                domains(4),
                1,
                Fixtures.deployment(
                        "ns",
                        "pre",
                        2,
                        Map.of(
                                "topobridge.io/group",
                                "g",
                                "topobridge.io/highest-tier",
                                "auto",
                                "topobridge.io/subgroup-highest-tier",
                                "rack")),
                Fixtures.deployment("ns", "dec", 1, Map.of("topobridge.io/group", "g")));
        DesiredPodGroup pg = result.podGroups().get(0);
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed())
                .as("3 GPUs alone would take tier 1")
                .isEqualTo(2);
        assertThat(pg.spec().getSubGroupPolicy())
                .allSatisfy(p -> assertThat(p.getNetworkTopology().getHighestTierAllowed())
                        .isEqualTo(2));
    }

    @Test
    void anAutoSubgroupTierHoldsTheLargestSubgroupAndNeverExceedsTheGangs() {
        var result = translate(
                domains(4),
                1,
                Fixtures.deployment(
                        "ns",
                        "pre",
                        6,
                        Map.of(
                                "topobridge.io/group",
                                "g",
                                "topobridge.io/highest-tier",
                                "auto",
                                "topobridge.io/subgroup-highest-tier",
                                "auto")),
                Fixtures.deployment("ns", "dec", 2, Map.of("topobridge.io/group", "g")));
        DesiredPodGroup pg = result.podGroups().get(0);
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed())
                .as("8 GPUs: the rack")
                .isEqualTo(2);
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
                                "topobridge.io/group",
                                "g",
                                "topobridge.io/highest-tier",
                                "nvlink",
                                "topobridge.io/subgroup-highest-tier",
                                "auto")),
                Fixtures.deployment("ns", "dec", 2, Map.of("topobridge.io/group", "g")));
        DesiredPodGroup c = capped.podGroups().get(0);
        assertThat(c.spec().getSubGroupPolicy())
                .allSatisfy(p -> assertThat(p.getNetworkTopology().getHighestTierAllowed())
                        .isEqualTo(1));
        assertThat(c.annotations()).doesNotContainKey("topobridge.io/chosen-tier");
        assertThat(capped.findings()).extracting(Finding::reason).contains(WorkloadReason.AUTO_TIER_NO_FIT);
    }

    @Test
    void theSameInputsGiveTheSameSentence() {
        String yaml = Fixtures.deployment("ns", "six", 6, Map.of("topobridge.io/highest-tier", "auto"));
        assertThat(chosen(translate(domains(4), 1, yaml))).isEqualTo(chosen(translate(domains(4), 1, yaml)));
    }
}

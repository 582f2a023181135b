package io.topobridge.core.workload.autotier;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Cluster;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.workload.annotation.TopologyMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rule of {@code highest-tier: auto}, case by case, on small hand-made domain tables. */
class AutoTierTest {

    /**
     * Four NVLink partitions of 8 GPUs (tier 1), two per rack of 16 GPUs except one rack of 36 (tier 2), all under
     * one spine (tier 3). {@code free} is what is free in every domain now, as a share of its size (1 = empty).
     */
    static TierDomains cluster(double free) {
        List<TierDomains.Domain> nvlink = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nvlink.add(domain("nv" + i, 8, 64, free));
        }
        List<TierDomains.Domain> racks = List.of(
                domain("rack-a", 16, 128, free), domain("rack-b", 16, 128, free), domain("rack-c", 36, 288, free));
        List<TierDomains.Domain> spine = List.of(domain("spine", 68, 544, free));
        return Cluster.domains(Map.of(1, nvlink, 2, racks, 3, spine), Map.of(1, "nvlink", 2, "rack", 3, "spine"));
    }

    static TierDomains.Domain domain(String name, int gpus, int cpus, double free) {
        Amounts size = gpus(gpus, cpus);
        Amounts now = gpus((int) Math.floor(gpus * free), (int) Math.floor(cpus * free));
        return Cluster.domain(name, size, now, Map.of());
    }

    static Amounts gpus(int gpus, int cpus) {
        return Amounts.parse(
                Map.of(Amounts.GPU, String.valueOf(gpus), "cpu", String.valueOf(cpus), "memory", cpus * 4 + "Gi"));
    }

    static Amounts cpuOnly(String cpu, String memory) {
        return Amounts.parse(Map.of("cpu", cpu, "memory", memory));
    }

    record Case(
            String name,
            Amounts need,
            TierDomains domains,
            int minDomains,
            TopologyMode written,
            int tier,
            TopologyMode mode,
            boolean fits,
            String sentence) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                        new Case(
                                "4-GPU tensor-parallel gang: one NVLink partition",
                                gpus(4, 8),
                                cluster(1),
                                1,
                                null,
                                1,
                                TopologyMode.HARD,
                                true,
                                "1 (nvlink): 4 GPUs fit in 4 of 4 nvlink domains"),
                        new Case(
                                "16 GPUs: too large for a partition, two racks hold it",
                                gpus(16, 32),
                                cluster(1),
                                1,
                                null,
                                2,
                                TopologyMode.HARD,
                                true,
                                "2 (rack): 16 GPUs fit in 3 of 3 rack domains; 1 (nvlink) holds at most 8 GPUs"),
                        new Case(
                                "32 GPUs: only the large rack",
                                gpus(32, 64),
                                cluster(1),
                                1,
                                null,
                                2,
                                TopologyMode.HARD,
                                true,
                                "2 (rack): 32 GPUs fit in 1 of 3 rack domains; 1 (nvlink) holds at most 8 GPUs"),
                        new Case(
                                "32 GPUs with 2 domains wanted, no tier has 2: the lowest with one",
                                gpus(32, 64),
                                cluster(1),
                                2,
                                null,
                                2,
                                TopologyMode.HARD,
                                true,
                                "2 (rack): 32 GPUs fit in 1 of 3 rack domains, fewer than the"
                                        + " 2 wanted, but no tier has more; 1 (nvlink) holds at most 8 GPUs"),
                        new Case(
                                "16 GPUs with 2 domains wanted: the racks",
                                gpus(16, 64),
                                cluster(1),
                                2,
                                null,
                                2,
                                TopologyMode.HARD,
                                true,
                                "2 (rack): 16 GPUs fit in 3 of 3 rack domains; 1 (nvlink) holds at" + " most 8 GPUs"),
                        new Case(
                                "8 GPUs with 2 domains wanted where one partition is smaller",
                                gpus(8, 8),
                                Cluster.domains(
                                        Map.of(
                                                1,
                                                List.of(domain("nv0", 8, 64, 1), domain("nv1", 4, 64, 1)),
                                                2,
                                                List.of(domain("rack-a", 12, 128, 1), domain("rack-b", 12, 128, 1))),
                                        Map.of(1, "nvlink", 2, "rack")),
                                2,
                                null,
                                2,
                                TopologyMode.HARD,
                                true,
                                "2 (rack): 8 GPUs fit in 2 of 2 rack domains; 1 (nvlink) holds it in only 1 of 2 domains"),
                        new Case(
                                "8 GPUs with 5 domains wanted, no tier has 5",
                                gpus(8, 8),
                                cluster(1),
                                5,
                                null,
                                1,
                                TopologyMode.HARD,
                                true,
                                "1 (nvlink): 8 GPUs fit in 4 of 4 nvlink domains, fewer than the 5 wanted, but no tier has more"),
                        new Case(
                                "8 GPUs with 4 domains wanted: the partitions",
                                gpus(8, 8),
                                cluster(1),
                                4,
                                null,
                                1,
                                TopologyMode.HARD,
                                true,
                                "1 (nvlink): 8 GPUs fit in 4 of 4 nvlink domains"),
                        new Case(
                                "CPU-only gang by CPU and memory",
                                cpuOnly("100", "100Gi"),
                                cluster(1),
                                1,
                                null,
                                2,
                                TopologyMode.HARD,
                                true,
                                "2 (rack): 100 CPUs and 100Gi memory fit in 3 of 3 rack domains;"
                                        + " 1 (nvlink) holds at most 64 CPUs and 256Gi memory"),
                        new Case(
                                "CPU-only gang limited by memory",
                                cpuOnly("10", "300Gi"),
                                cluster(1),
                                1,
                                null,
                                2,
                                TopologyMode.HARD,
                                true,
                                "2 (rack): 10 CPUs and 300Gi memory fit in 3 of 3 rack domains;"
                                        + " 1 (nvlink) holds at most 64 CPUs and 256Gi memory"),
                        new Case(
                                "GPU gang ignores CPU",
                                gpus(8, 1000),
                                cluster(1),
                                1,
                                null,
                                1,
                                TopologyMode.HARD,
                                true,
                                "1 (nvlink): 8 GPUs fit in 4 of 4 nvlink domains"),
                        new Case(
                                "no tier fits: top tier, soft",
                                gpus(100, 8),
                                cluster(1),
                                1,
                                null,
                                3,
                                TopologyMode.SOFT,
                                false,
                                "3 (spine): 100 GPUs fit in no domain of any tier; 3 (spine) holds at most 68 GPUs"),
                        new Case(
                                "no tier fits, the user's hard stays",
                                gpus(100, 8),
                                cluster(1),
                                1,
                                TopologyMode.HARD,
                                3,
                                TopologyMode.HARD,
                                false,
                                "3 (spine): 100 GPUs fit in no domain of any tier; 3 (spine) holds at most 68 GPUs"),
                        new Case(
                                "no room today: soft",
                                gpus(4, 8),
                                cluster(0.25),
                                1,
                                null,
                                1,
                                TopologyMode.SOFT,
                                true,
                                "1 (nvlink): 4 GPUs fit in 4 of 4 nvlink domains"),
                        new Case(
                                "room today in half of each: hard",
                                gpus(4, 8),
                                cluster(0.5),
                                1,
                                null,
                                1,
                                TopologyMode.HARD,
                                true,
                                "1 (nvlink): 4 GPUs fit in 4 of 4 nvlink domains"),
                        new Case(
                                "no room today, the user's hard stays",
                                gpus(4, 8),
                                cluster(0),
                                1,
                                TopologyMode.HARD,
                                1,
                                TopologyMode.HARD,
                                true,
                                "1 (nvlink): 4 GPUs fit in 4 of 4 nvlink domains"),
                        new Case(
                                "room today, the user's soft stays",
                                gpus(4, 8),
                                cluster(1),
                                1,
                                TopologyMode.SOFT,
                                1,
                                TopologyMode.SOFT,
                                true,
                                "1 (nvlink): 4 GPUs fit in 4 of 4 nvlink domains"),
                        new Case(
                                "a gang requesting nothing: tier 1",
                                Amounts.NONE,
                                cluster(1),
                                1,
                                null,
                                1,
                                TopologyMode.HARD,
                                true,
                                "1 (nvlink): no resources fit in 4 of 4 nvlink domains"))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void choosesTheLowestTierThatHoldsTheGang(Case c) {
        AutoTier.Choice choice =
                AutoTier.choose(c.need(), c.domains(), 1, 3, c.minDomains(), "ns/pg", c.written(), false, false);
        assertThat(choice.tier()).as("tier").isEqualTo(c.tier());
        assertThat(choice.mode()).as("mode").isEqualTo(c.mode());
        assertThat(choice.fits()).as("fits").isEqualTo(c.fits());
        assertThat(choice.explanation()).isEqualTo(c.sentence());
    }

    @Test
    void aGangThatAlreadyRunsCountsItsOwnPodsAsRoom() {
        var size = gpus(8, 64);
        var full = Amounts.NONE;
        var own = gpus(4, 8);
        var domains = Cluster.domains(
                Map.of(1, List.of(Cluster.domain("nv0", size, full, Map.of("ns/pg", own)))), Map.of(1, "nvlink"));
        assertThat(AutoTier.choose(gpus(4, 8), domains, 1, 1, 1, "ns/pg", null, false, false)
                        .mode())
                .isEqualTo(TopologyMode.HARD);
        assertThat(AutoTier.choose(gpus(4, 8), domains, 1, 1, 1, "ns/other", null, false, false)
                        .mode())
                .isEqualTo(TopologyMode.SOFT);
    }

    @Test
    void aGangPlacedAcrossDomainsStaysSoftWhenRoomAppears() {
        // 4 + 4 GPUs of the gang in two partitions (placed soft); a third partition has emptied since
        var size = gpus(8, 64);
        var half = gpus(4, 32);
        var domains = Cluster.domains(
                Map.of(
                        1,
                        List.of(
                                Cluster.domain("nv0", size, half, Map.of("ns/pg", half)),
                                Cluster.domain("nv1", size, half, Map.of("ns/pg", half)),
                                Cluster.domain("nv2", size, size, Map.of()))),
                Map.of(1, "nvlink"));
        assertThat(AutoTier.choose(gpus(8, 8), domains, 1, 1, 1, "ns/pg", null, true, false)
                        .mode())
                .as("hard would claim one partition for pods in two")
                .isEqualTo(TopologyMode.SOFT);
        assertThat(AutoTier.choose(gpus(8, 8), domains, 1, 1, 1, "ns/pg", TopologyMode.HARD, true, false)
                        .mode())
                .as("the user's mode wins")
                .isEqualTo(TopologyMode.HARD);
        assertThat(AutoTier.choose(gpus(8, 8), domains, 1, 1, 1, "ns/pg", null, false, false)
                        .mode())
                .as("one subgroup: the gang's pods may well sit in several domains of its tier")
                .isEqualTo(TopologyMode.HARD);
        assertThat(AutoTier.choose(gpus(8, 8), domains, 1, 1, 1, "ns/new", null, true, false)
                        .mode())
                .as("a gang not placed yet: hard while there is room")
                .isEqualTo(TopologyMode.HARD);
        assertThat(AutoTier.choose(gpus(8, 8), domains, 1, 1, 1, "ns/pg", null, true, true)
                        .mode())
                .as("waiting for room does not make a gang placed across partitions hard")
                .isEqualTo(TopologyMode.SOFT);
    }

    @Test
    void aGangWaitingForRoomIsHardWithoutRoomToday() {
        var size = gpus(8, 64);
        var full = Cluster.domains(
                Map.of(
                        1,
                        List.of(
                                Cluster.domain("nv0", size, gpus(2, 64), Map.of()),
                                Cluster.domain("nv1", size, gpus(3, 64), Map.of()))),
                Map.of(1, "nvlink"));
        assertThat(AutoTier.choose(gpus(4, 8), full, 1, 1, 1, "ns/pg", null, true, false)
                        .mode())
                .isEqualTo(TopologyMode.SOFT);
        AutoTier.Choice waiting = AutoTier.choose(gpus(4, 8), full, 1, 1, 1, "ns/pg", null, true, true);
        assertThat(waiting.mode()).isEqualTo(TopologyMode.HARD);
        assertThat(waiting.tier()).isEqualTo(1);
        assertThat(AutoTier.choose(gpus(4, 8), full, 1, 1, 1, "ns/pg", TopologyMode.SOFT, true, true)
                        .mode())
                .as("the user's mode wins")
                .isEqualTo(TopologyMode.SOFT);
    }

    @Test
    void aSubgroupTierNeverExceedsTheHighestAllowed() {
        AutoTier.Choice choice = AutoTier.choose(gpus(32, 8), cluster(1), 1, 1, 1, null, null, false, false);
        assertThat(choice.tier()).isEqualTo(1);
        assertThat(choice.fits()).isFalse();
        assertThat(choice.mode()).isEqualTo(TopologyMode.SOFT);
    }

    @Test
    void theSentenceDependsOnSizesOnlyNotOnLoad() {
        assertThat(AutoTier.choose(gpus(16, 8), cluster(1), 1, 3, 1, null, null, false, false)
                        .explanation())
                .isEqualTo(AutoTier.choose(gpus(16, 8), cluster(0.1), 1, 3, 1, null, null, false, false)
                        .explanation());
    }

    @Test
    void aRackAddedChangesTheSentence() {
        TierDomains before = cluster(1);
        List<TierDomains.Domain> racks = new ArrayList<>(before.at(2));
        racks.add(domain("rack-d", 36, 288, 1));
        TierDomains after = Cluster.domains(
                Map.of(1, before.at(1), 2, racks, 3, before.at(3)), Map.of(1, "nvlink", 2, "rack", 3, "spine"));
        assertThat(AutoTier.choose(gpus(32, 8), after, 1, 3, 1, null, null, false, false)
                        .explanation())
                .isEqualTo("2 (rack): 32 GPUs fit in 2 of 4 rack domains; 1 (nvlink) holds at most 8 GPUs");
        assertThat(after).isNotEqualTo(before);
    }
}

package io.topobridge.perf.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topobridge.e2e.Nvl72Pool;
import io.topobridge.perf.placement.Gangs.Arrival;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The placement benchmark's inputs, without a cluster: the seeded arrivals and the runs chosen by name. */
class PlacementBenchmarkTest {

    @Test
    void theSameSeedGivesTheSameArrivalsAndAnotherSeedOthers() {
        List<Arrival> first = Gangs.arrivals(200, 10, 30, new Random(13));
        List<Arrival> again = Gangs.arrivals(200, 10, 30, new Random(13));
        List<Arrival> other = Gangs.arrivals(200, 10, 30, new Random(14));

        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
        assertThat(first).allSatisfy(a -> assertThat(a.lifetime()).isBetween(10, 30));
        // every shape arrives in a run of 200, roughly by its weight (tp 3 of 11, tp9 1 of 11)
        for (Gangs.Shape s : Gangs.SHAPES) {
            long count = first.stream().filter(a -> a.shape() == s).count();
            assertThat(count).as(s.name()).isBetween(200L * s.weight() / 11 / 2, 200L * s.weight() / 11 * 2);
        }
    }

    private static List<String> labels(String names) {
        return Systems.parse(names, Duration.ZERO).stream()
                .map(PlacementSystem::label)
                .toList();
    }

    @Test
    void runsAreChosenByTheirLabelsInTheirOwnOrder() {
        assertThat(labels("unaware, hand,auto-mode")).containsExactly("hand", "auto-mode", "unaware");
        assertThat(labels(String.join(",", Systems.labels()))).containsExactlyElementsOf(Systems.labels());
        assertThat(Systems.labels()).startsWith("hand", "auto", "auto-mode", "auto-wait", "unaware");
        assertThatThrownBy(() -> Systems.parse("hand,automode", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown run 'automode'")
                .hasMessageContaining("auto-mode");
        assertThatThrownBy(() -> Systems.parse("x".repeat(500), Duration.ZERO))
                .hasMessageContaining("x".repeat(40) + "…")
                .hasMessageNotContaining("x".repeat(41));
    }

    @Test
    void everySystemsFiguresHaveTheirOwnPrefixAndTheHandRunKeepsTheUnprefixedNames() {
        List<PlacementSystem> all = Systems.parse(String.join(",", Systems.labels()), Duration.ofSeconds(3));
        assertThat(all.get(0).prefix()).isEqualTo("placement_");
        assertThat(all.stream().map(PlacementSystem::prefix).distinct()).hasSize(all.size());
        assertThat(all.stream()
                        .filter(s -> s.label().equals("auto-wait"))
                        .findFirst()
                        .orElseThrow()
                        .what())
                .contains("3 s");
        assertThat(all.stream().filter(s -> !s.enforcesHardTiers()).map(PlacementSystem::label))
                .containsExactly("unaware");
    }

    @Test
    void theNativeRunWritesEveryTierAsTheLabelOfThatTierAndClaimsItHard() {
        NativeRun run = new NativeRun();
        List<Gangs.Shape> shapes = new java.util.ArrayList<>(Gangs.SHAPES);
        shapes.add(WideEp.SHAPE);
        for (Gangs.Shape s : shapes) {
            List<io.topobridge.e2e.NativeTasCluster.Group> groups = NativeRun.groups(s);
            assertThat(groups).as(s.name()).hasSize(s.roles().size());
            String roleKey = NativeRun.KEYS.get(s.prefillDecode() ? s.roleTier() : s.tier());
            assertThat(roleKey).as(s.name() + " has a label for its tier").isNotNull();
            assertThat(groups).allSatisfy(g -> assertThat(g.topologyKey()).isEqualTo(roleKey));
            assertThat(groups.stream()
                            .mapToInt(io.topobridge.e2e.NativeTasCluster.Group::minCount)
                            .sum())
                    .isEqualTo(s.pods());
            var claimed = run.hardTiers(null, "ns", new Arrival(0, s, 1));
            // soft or hard, the one constraint the native API has is required
            assertThat(claimed).containsEntry("", Gangs.TIERS.get(s.tier()));
            assertThat(claimed).hasSize(s.prefillDecode() ? 1 + s.roles().size() : 1);
        }
        // the examples label NVLink partitions, leaves and spines, never an NVLink domain
        assertThat(NativeRun.KEYS).doesNotContainKey("nvlink-domain");
    }

    @Test
    void theFewestRacksOfTheWideExpertParallelGangAndItsCrossRackPairs() {
        assertThat(WideEp.fewestRacks(java.util.Map.of("r1", 18, "r2", 18, "r3", 18, "r4", 18), 24))
                .isEqualTo(2);
        assertThat(WideEp.fewestRacks(java.util.Map.of("r1", 13, "r2", 13, "r3", 13, "r4", 13), 24))
                .isEqualTo(2);
        assertThat(WideEp.fewestRacks(java.util.Map.of("r1", 3, "r2", 13, "r3", 3, "r4", 3), 24))
                .isEqualTo(Integer.MAX_VALUE);
        assertThat(WideEp.fewestRacks(java.util.Map.of("r1", 8, "r2", 8, "r3", 9), 24))
                .isEqualTo(3);
        // 18 + 6: 108 of the 276 pairs cross the racks
        var split = new WideEp.Outcome(
                new WideEp.Situation("s", "", new int[0][]), java.util.Map.of("r1", 18L, "r2", 6L), 2, 0);
        assertThat(split.crossPairs()).isEqualTo(108.0 / 276);
        assertThat(new WideEp.Outcome(new WideEp.Situation("s", "", new int[0][]), java.util.Map.of("r1", 24L), 1, 0)
                        .crossPairs())
                .isZero();
        assertThat(new WideEp.Outcome(new WideEp.Situation("s", "", new int[0][]), java.util.Map.of(), 2, 0).placed())
                .isFalse();
        // the uneven situation: name order would fill 8 + 8 + 8, the fewest is 18 + 13
        var uneven = WideEp.SITUATIONS.get(2).takenNodes();
        java.util.Map<String, Integer> free = new java.util.TreeMap<>();
        WideEp.POOL.nodes().stream()
                .filter(n -> !uneven.contains(n))
                .forEach(n -> free.merge(Nvl72Pool.rackOf(n), 1, Integer::sum));
        assertThat(free.values()).containsExactly(8, 8, 13, 18);
        assertThat(WideEp.fewestRacks(free, 24)).isEqualTo(2);
        assertThat(WideEp.POOL.nodes()).hasSize(72).doesNotHaveDuplicates();
        assertThat(Nvl72Pool.rackOf(WideEp.POOL.node(3, 7)))
                .isEqualTo(Nvl72Pool.rackOf(WideEp.POOL.node(3, 18)))
                .isNotEqualTo(Nvl72Pool.rackOf(WideEp.POOL.node(4, 7)));
    }
}

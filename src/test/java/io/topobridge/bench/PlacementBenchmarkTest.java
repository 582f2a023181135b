package io.topobridge.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topobridge.bench.PlacementBenchmark.Arrival;
import io.topobridge.bench.PlacementBenchmark.Variant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The placement benchmark's inputs, without a cluster: the seeded arrivals and the runs chosen by name. */
class PlacementBenchmarkTest {

    @Test
    void theSameSeedGivesTheSameArrivalsAndAnotherSeedOthers() {
        List<Arrival> first = PlacementBenchmark.arrivals(200, 10, 30, new Random(13));
        List<Arrival> again = PlacementBenchmark.arrivals(200, 10, 30, new Random(13));
        List<Arrival> other = PlacementBenchmark.arrivals(200, 10, 30, new Random(14));

        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
        assertThat(first).allSatisfy(a -> assertThat(a.lifetime()).isBetween(10, 30));
        // every shape arrives in a run of 200, roughly by its weight (tp 3 of 11, tp9 1 of 11)
        for (PlacementBenchmark.Shape s : PlacementBenchmark.SHAPES) {
            long count = first.stream().filter(a -> a.shape() == s).count();
            assertThat(count).as(s.name()).isBetween(200L * s.weight() / 11 / 2, 200L * s.weight() / 11 * 2);
        }
    }

    @Test
    void runsAreChosenByTheirLabelsInTheirOwnOrder() {
        assertThat(Variant.parse("unaware, hand,auto-mode"))
                .containsExactly(Variant.HAND, Variant.AUTO_MODE, Variant.UNAWARE);
        assertThat(Variant.parse("hand,auto,auto-mode,auto-wait,unaware")).containsExactly(Variant.values());
        assertThatThrownBy(() -> Variant.parse("hand,automode"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown run 'automode'")
                .hasMessageContaining("auto-mode");
        assertThatThrownBy(() -> Variant.parse("x".repeat(500)))
                .hasMessageContaining("x".repeat(40) + "…")
                .hasMessageNotContaining("x".repeat(41));
    }
}

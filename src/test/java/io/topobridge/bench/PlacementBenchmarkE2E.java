package io.topobridge.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.topobridge.e2e.RealCluster;
import io.topobridge.e2e.RealClusterExtension;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The placement benchmark ({@link PlacementBenchmark}) at the size of {@code bench.placementArrivals}: a few
 * arrivals by default, so that {@code verify} proves it still runs; {@code -Pbench} runs 200 into
 * {@code target/bench/results.json}; the {@code auto} run has the bridge's defaults (a 5-minute wait for room), the
 * {@code auto-wait} run the wait {@code bench.placementAutoWaitSeconds} (0: soft at once); {@code bench.placementSeed} (13) seeds the arrivals and
 * {@code bench.placementRuns} names the runs to make ({@code hand,auto,auto-mode,auto-wait,unaware}). Asserted: every run placed something, and every hard tier the bridge wrote
 * was kept by the real scheduler — never a timing or a comparison between the runs.
 */
@ExtendWith(RealClusterExtension.class)
class PlacementBenchmarkE2E {

    private final RealCluster cluster;

    PlacementBenchmarkE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void fiveRunsOfTheSameArrivals() {
        int arrivals = Integer.getInteger("bench.placementArrivals", 6);
        int minLifetime = Integer.getInteger("bench.placementMinLifetime", 2);
        int maxLifetime = Integer.getInteger("bench.placementMaxLifetime", 4);
        Path file = Path.of(System.getProperty("bench.results", "target/bench-smoke/results.json"));
        BenchResults results = BenchResults.open(file, System.getProperty("bench.mode", "smoke"));

        java.time.Duration autoWait =
                java.time.Duration.ofSeconds(Integer.getInteger("bench.placementAutoWaitSeconds", 0));
        long seed = Long.getLong("bench.placementSeed", 13);
        java.util.Set<PlacementBenchmark.Variant> chosen = PlacementBenchmark.Variant.parse(
                System.getProperty("bench.placementRuns", "hand,auto,auto-mode,auto-wait,unaware"));
        Map<PlacementBenchmark.Variant, PlacementBenchmark.Run> runs = new PlacementBenchmark(
                        cluster, results, arrivals, minLifetime, maxLifetime, autoWait, seed, chosen)
                .run();
        System.out.print(results.table());

        JsonNode figures = results.figures();
        assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(chosen);
        for (PlacementBenchmark.Variant v : chosen) {
            String prefix = v.prefix();
            JsonNode placed = figures.path(prefix + "placed");
            assertThat(placed.path("samples").asInt()).as(prefix).isEqualTo(arrivals);
            assertThat(placed.path("median").asDouble()).as(prefix + "placed").isPositive();
            assertThat(figures.path(prefix + "mean_tier").path("unit").asText()).isEqualTo("tier");
        }
        if (chosen.contains(PlacementBenchmark.Variant.HAND) && chosen.contains(PlacementBenchmark.Variant.UNAWARE)) {
            assertThat(figures.path("placement_placed").path("ratio_of").asText())
                    .isEqualTo("the topology-unaware run");
        }
        // Volcano enforces the hard tiers the bridge writes: not one placed gang or subgroup above its own
        for (PlacementBenchmark.Variant v : chosen) {
            if (v == PlacementBenchmark.Variant.UNAWARE) {
                continue;
            }
            PlacementBenchmark.Run run = runs.get(v);
            assertThat(run.hardChecks()).as(v + " hard checks").isPositive();
            assertThat(run.withinTier()).as(v + " within its hard tiers").isEqualTo(1.0);
        }
    }
}

package io.topobridge.perf.placement;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.topobridge.e2e.RealCluster;
import io.topobridge.e2e.RealClusterExtension;
import io.topobridge.perf.BenchResults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The placement benchmark ({@link PlacementBenchmark}) at the size of {@code bench.placementArrivals}: a few
 * arrivals by default, with steps of at least {@code bench.placementStepMinMillis} (250 ms by default: the smoke's
 * gangs are bound well within a step, so the full run's 1 s would only be waited out), so that {@code verify} proves
 * it still runs; {@code -Pbench} runs 200 with steps of at least 1 s into
 * {@code target/bench/results.json}; the {@code auto} run has the bridge's defaults (a 5-minute wait for room), the
 * {@code auto-wait} run the wait {@code bench.placementAutoWaitSeconds} (0: soft at once); {@code
 * bench.placementSeed} (13) seeds the arrivals and {@code bench.placementRuns} names the runs to make (every
 * system of {@link Systems} by default). Asserted: every run placed something and wrote its figures, and every hard
 * tier a system claims and enforces was kept — never a timing or a comparison between the runs.
 */
@ExtendWith(RealClusterExtension.class)
class PlacementBenchmarkE2E {

    private final RealCluster cluster;

    PlacementBenchmarkE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void everySystemRunsTheSameArrivals() {
        int arrivals = Integer.getInteger("bench.placementArrivals", 6);
        int minLifetime = Integer.getInteger("bench.placementMinLifetime", 2);
        int maxLifetime = Integer.getInteger("bench.placementMaxLifetime", 4);
        Duration stepMin = Duration.ofMillis(Integer.getInteger("bench.placementStepMinMillis", 250));
        Path file = Path.of(System.getProperty("bench.results", "target/bench-smoke/results.json"));
        BenchResults results = BenchResults.open(file, System.getProperty("bench.mode", "smoke"));

        Duration autoWait = Duration.ofSeconds(Integer.getInteger("bench.placementAutoWaitSeconds", 0));
        long seed = Long.getLong("bench.placementSeed", 13);
        List<PlacementSystem> chosen =
                Systems.parse(System.getProperty("bench.placementRuns", String.join(",", Systems.labels())), autoWait);
        Map<String, Run> runs = new PlacementBenchmark(
                        cluster,
                        results,
                        arrivals,
                        minLifetime,
                        maxLifetime,
                        seed,
                        stepMin,
                        chosen,
                        Boolean.parseBoolean(System.getProperty("bench.placementWideEp", "true")))
                .run();
        System.out.print(results.table());

        JsonNode figures = results.figures();
        assertThat(runs.keySet())
                .containsExactlyElementsOf(
                        chosen.stream().map(PlacementSystem::label).toList());
        for (PlacementSystem system : chosen) {
            String prefix = system.prefix();
            JsonNode placed = figures.path(prefix + "placed");
            assertThat(placed.path("samples").asInt()).as(prefix).isEqualTo(arrivals);
            assertThat(placed.path("median").asDouble()).as(prefix + "placed").isPositive();
            assertThat(figures.path(prefix + "mean_tier").path("unit").asText()).isEqualTo("tier");
            assertThat(figures.path(prefix + "wait_ms").path("unit").asText()).isEqualTo("ms");
            // the wide-EP gang: placed in every situation, on at least the fewest racks its size allows
            assertThat(runs.get(system.label()).wideEp())
                    .as(prefix + " wide-EP")
                    .hasSize(3)
                    .allSatisfy(o -> {
                        assertThat(o.placed()).as(o.situation().name()).isTrue();
                        assertThat(o.racks()).as(o.situation().name()).isGreaterThanOrEqualTo(o.fewest());
                    });
            assertThat(figures.path(prefix + "wide_ep_racks_uneven")
                            .path("unit")
                            .asText())
                    .isEqualTo("racks");
        }
        if (runs.containsKey("hand") && runs.containsKey("unaware")) {
            assertThat(figures.path("placement_placed").path("ratio_of").asText())
                    .isEqualTo("the topology-unaware run");
        }
        // every system that enforces the hard tiers it claims kept them: not one placed gang or subgroup above its own
        for (PlacementSystem system : chosen) {
            if (!system.enforcesHardTiers()) {
                continue;
            }
            Run run = runs.get(system.label());
            assertThat(run.hardChecks()).as(system.label() + " hard checks").isPositive();
            assertThat(run.withinTier())
                    .as(system.label() + " within its hard tiers")
                    .isEqualTo(1.0);
        }
    }
}

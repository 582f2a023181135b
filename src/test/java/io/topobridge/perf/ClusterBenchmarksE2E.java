package io.topobridge.perf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.topobridge.e2e.RealCluster;
import io.topobridge.e2e.RealClusterExtension;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real-cluster benchmarks ({@link ClusterBenchmarks}) at the sizes of the {@code bench.*} system properties:
 * minimal by default, so that {@code verify} proves they still run; {@code -Pbench} runs them at full size into
 * {@code target/bench/results.json}. Only the presence and sanity of each figure is asserted, never a timing.
 */
@ExtendWith(RealClusterExtension.class)
class ClusterBenchmarksE2E {

    private final RealCluster cluster;

    ClusterBenchmarksE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void everyFigureIsMeasured() {
        ClusterBenchmarks.Sizes sizes = ClusterBenchmarks.Sizes.fromSystemProperties();
        Path file = Path.of(System.getProperty("bench.results", "target/bench-smoke/results.json"));
        BenchResults results = BenchResults.open(file, sizes.mode());
        new ClusterBenchmarks(cluster, sizes, results).run();
        System.out.print(results.table());

        JsonNode figures = results.figures();
        for (String name : List.of(
                "topology_relabel_converge_ms_10k",
                "volcano_discovery_relabel_converge_ms",
                "admission_overhead_p99_ms")) {
            assertThat(figures.path(name).path("samples").asInt()).as(name).isPositive();
            assertThat(figures.path(name).path("unit").asText()).as(name).isEqualTo("ms");
        }
        assertThat(figures.path("topology_relabel_converge_ms_10k")
                        .path("median")
                        .asDouble())
                .isPositive();
        assertThat(figures.path("volcano_discovery_relabel_converge_ms")
                        .path("ratio")
                        .isNumber())
                .isTrue();
        for (String name : List.of(
                "topology_relabel_writes",
                "volcano_discovery_relabel_writes",
                "topology_resync_writes",
                "podgroup_resync_writes",
                "volcano_discovery_resync_writes",
                "topology_first_sync_writes",
                "volcano_discovery_first_sync_writes",
                "topology_several_parents",
                "volcano_discovery_several_parents")) {
            assertThat(figures.path(name).path("unit").asText()).as(name).isNotBlank();
            assertThat(figures.path(name).path("median").asDouble()).as(name).isGreaterThanOrEqualTo(0);
        }
        // a relabel moves a node: at least its old and its new NVLink domain are written, by either
        assertThat(figures.path("topology_relabel_writes").path("median").asDouble())
                .isGreaterThanOrEqualTo(1);
        assertThat(figures.path("volcano_discovery_relabel_writes")
                        .path("median")
                        .asDouble())
                .isGreaterThanOrEqualTo(1);
        // the bridge's heap after a full GC, with the nodes only and with the workloads and their pods
        for (String name : List.of("heap_mb_10k_nodes", "heap_mb_10k_nodes_2k_workloads")) {
            assertThat(figures.path(name).path("unit").asText()).as(name).isEqualTo("MB");
            assertThat(figures.path(name).path("samples").asInt()).as(name).isPositive();
            assertThat(figures.path(name).path("median").asDouble()).as(name).isPositive();
        }
        assertThat(figures.path("heap_mb_10k_nodes_2k_workloads").path("ratio").isNumber())
                .isTrue();
        assertThat(results.machine().path("cores").asInt()).isPositive();
    }
}

package io.topobridge.perf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every benchmark of {@link BenchSuite} still runs: a smoke run at minimal sizes writes each figure with its unit,
 * sample count and the machine. Nothing here judges a timing.
 */
class BenchSuiteTest {

    @Test
    void aSmokeRunWritesEveryFigure(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("results.json");
        BenchSuite.run(BenchSuite.Sizes.smoke(), BenchResults.fresh(file, "smoke"));

        JsonNode root = new ObjectMapper().readTree(file.toFile());
        assertThat(root.path("machine").path("cores").asInt()).isPositive();
        assertThat(root.path("machine").path("jvm").asText()).isNotBlank();
        assertThat(root.path("run").path("mode").asText()).isEqualTo("smoke");
        JsonNode figures = root.path("figures");
        for (String name : List.of(
                "topology_build_ms_50k",
                "translate_ms_5k",
                "admission_p99_ms",
                "bytes_per_cached_node",
                "bytes_per_cached_pod")) {
            JsonNode f = figures.path(name);
            assertThat(f.isObject()).as(name).isTrue();
            assertThat(f.path("median").asDouble()).as(name + " median").isPositive();
            assertThat(f.path("unit").asText()).as(name + " unit").isNotBlank();
            assertThat(f.path("samples").asInt()).as(name + " samples").isPositive();
        }
        assertThat(figures.path("topology_build_ms_50k").path("p99").asDouble())
                .isGreaterThanOrEqualTo(
                        figures.path("topology_build_ms_50k").path("median").asDouble());
        assertThat(figures.path("bytes_per_cached_node").path("ratio").asDouble())
                .as("full Node / cached node")
                .isGreaterThan(1);
        assertThat(BenchResults.open(file, "smoke").table()).contains("translate_ms_5k", "machine:");
    }
}

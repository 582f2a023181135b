package io.topobridge.perf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchResultsTest {

    @Test
    void twoWritersOfOneFileKeepEachOthersFigures(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("results.json");
        BenchResults.fresh(file, "smoke").put(BenchResults.Figure.of("unit_figure", 1, null, "ms", 1, null));
        // two end-to-end forks open the file, then each adds its own figures
        BenchResults a = BenchResults.open(file, "smoke");
        BenchResults b = BenchResults.open(file, "smoke");
        a.put(BenchResults.Figure.of("cluster_figure", 2, null, "ms", 3, null));
        b.put(BenchResults.Figure.of("placement_figure", 4, null, "ms", 5, null));
        a.put(BenchResults.Figure.of("cluster_figure_2", 6, null, "ms", 7, null));

        var figures = new ObjectMapper().readTree(file.toFile()).path("figures");
        assertThat(figures.fieldNames())
                .toIterable()
                .containsExactlyInAnyOrder("unit_figure", "cluster_figure", "placement_figure", "cluster_figure_2");
        assertThat(figures.path("placement_figure").path("samples").asInt()).isEqualTo(5);
    }

    @Test
    void aFreshFileReplacesWhatWasThere(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("results.json");
        BenchResults.fresh(file, "smoke").put(BenchResults.Figure.of("old", 1, null, "ms", 1, null));
        BenchResults.fresh(file, "smoke").put(BenchResults.Figure.of("new", 1, null, "ms", 1, null));

        var figures = new ObjectMapper().readTree(file.toFile()).path("figures");
        assertThat(figures.fieldNames()).toIterable().containsExactly("new");
    }
}

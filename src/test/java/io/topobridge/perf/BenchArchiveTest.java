package io.topobridge.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark figures in the manual are artifacts: each archived results file names its commit, command and machine,
 * and the benchmarks page links every one of them. With {@code -Dbench.archive=PATH} (and
 * {@code -Dbench.archiveCommand=…}, optionally {@code -Dbench.archiveMachine=…}) the run at PATH is archived first.
 */
class BenchArchiveTest {

    private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";

    @Test
    void aResultsFileIsKeptWithItsCommitCommandAndMachine(@TempDir Path dir) throws IOException {
        Path results = dir.resolve("results.json");
        BenchResults.fresh(results, "smoke")
                .put(BenchResults.Figure.of("translate_ms_5k", 12.5, 20.0, "ms", 3, "a note"));
        Path archived = BenchArchive.archive(
                results,
                dir.resolve("out"),
                new BenchArchive.Provenance(COMMIT, true, "./mvnw -B -Pbench verify", "shared, load 3"));

        assertThat(archived.getFileName().toString()).matches("\\d{4}-\\d{2}-\\d{2}-0123456789-smoke\\.json");
        JsonNode root = new ObjectMapper().readTree(archived.toFile());
        assertThat(root.path("archive").path("commit").asText()).isEqualTo(COMMIT);
        assertThat(root.path("archive").path("uncommitted_changes").asBoolean()).isTrue();
        assertThat(root.path("archive").path("command").asText()).isEqualTo("./mvnw -B -Pbench verify");
        assertThat(root.path("archive").path("machine_note").asText()).isEqualTo("shared, load 3");
        assertThat(root.path("machine").path("cores").asInt()).isPositive();
        assertThat(root.path("figures").path("translate_ms_5k").path("median").asDouble())
                .isEqualTo(12.5);
        assertThat(BenchArchive.problems(archived)).isEmpty();

        // the same run archived twice is one file; other results under that name are refused
        assertThat(BenchArchive.archive(
                        results,
                        dir.resolve("out"),
                        new BenchArchive.Provenance(COMMIT, true, "./mvnw -B -Pbench verify", "shared, load 3")))
                .isEqualTo(archived);
        BenchResults.open(results, "smoke").put(BenchResults.Figure.of("translate_ms_5k", 13, 21.0, "ms", 3, "x"));
        assertThatThrownBy(() -> BenchArchive.archive(
                        results,
                        dir.resolve("out"),
                        new BenchArchive.Provenance(COMMIT, true, "./mvnw -B -Pbench verify", "shared, load 3")))
                .hasMessageContaining("holds other results");
    }

    @Test
    void whatIsNoResultsFileOrHasNoProvenanceIsRefused(@TempDir Path dir) throws IOException {
        Path notResults = dir.resolve("other.json");
        Files.writeString(notResults, "{\"figures\": {}}");
        BenchArchive.Provenance ok = new BenchArchive.Provenance(COMMIT, false, "cmd", null);
        assertThatThrownBy(() -> BenchArchive.archive(notResults, dir, ok)).hasMessageContaining("\"machine\"");

        Path results = dir.resolve("results.json");
        BenchResults.fresh(results, "full").put(BenchResults.Figure.of("x", 1, null, "ms", 1, null));
        assertThatThrownBy(() ->
                        BenchArchive.archive(results, dir, new BenchArchive.Provenance("main", false, "cmd", null)))
                .hasMessageContaining("commit");
        assertThatThrownBy(
                        () -> BenchArchive.archive(results, dir, new BenchArchive.Provenance(COMMIT, false, " ", null)))
                .hasMessageContaining("command");
    }

    @Test
    void everyArchivedRunIsWellFormedAndLinkedFromTheBenchmarksPage() throws IOException {
        String toArchive = System.getProperty("bench.archive");
        if (toArchive != null && !toArchive.isBlank()) {
            Path written = BenchArchive.archive(
                    Path.of(toArchive),
                    BenchArchive.DIR,
                    BenchArchive.fromGit(
                            Path.of("."),
                            System.getProperty("bench.archiveCommand", "./mvnw -B -Pbench verify"),
                            System.getProperty("bench.archiveMachine")));
            System.out.println("archived " + toArchive + " as " + written + "; link it from docs/benchmarks.md");
        }
        String page = Files.readString(Path.of("docs", "benchmarks.md"));
        List<Path> archived;
        try (Stream<Path> files = Files.list(BenchArchive.DIR)) {
            archived =
                    files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(archived).as("archived runs under " + BenchArchive.DIR).isNotEmpty();
        List<String> problems = new ArrayList<>();
        for (Path file : archived) {
            BenchArchive.problems(file).forEach(p -> problems.add(file + ": " + p));
            if (!file.getFileName().toString().matches("\\d{4}-\\d{2}-\\d{2}-[0-9a-f]{7,10}(-[a-z0-9-]+)?\\.json")) {
                problems.add(file + ": not named <date>-<commit>[-<mode>].json");
            }
            if (!page.contains("](benchmarks/" + file.getFileName() + ")")) {
                problems.add(file + ": not linked from docs/benchmarks.md");
            }
        }
        assertThat(problems).isEmpty();
    }
}

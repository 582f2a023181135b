package io.topobridge.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.diagnosis.DoctorReason;
import io.topobridge.core.diagnosis.PendingReason;
import io.topobridge.core.finding.Reason;
import io.topobridge.core.topology.TopologyReason;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.testing.ConfigKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README stays a newcomer's page that CI keeps true: short, linking every page of the manual, and naming exactly
 * the test command CI runs. The manual's references cover every configuration key and every finding reason (their
 * content is checked against the code by {@link GeneratedDocsTest}; this counts them independently of the generator).
 */
class ReadmeTest {

    private static final String TEST_COMMAND = "./mvnw -B verify";
    private static final int MOST_README_LINES = 200;

    @Test
    void theConfigurationReferenceDocumentsEveryKey() throws IOException {
        String page = Files.readString(Path.of("docs", "configuration.md"));
        List<String> missing = new ArrayList<>();
        ConfigKeys.all().forEach(k -> {
            if (!page.contains("| `" + k + "` |")) {
                missing.add(k);
            }
        });
        assertThat(missing)
                .as("configuration keys missing from docs/configuration.md; regenerate with "
                        + GeneratedDocs.UPDATE_COMMAND)
                .isEmpty();
    }

    @Test
    void theFindingsReferenceDocumentsEveryReason() throws IOException {
        String page = Files.readString(Path.of("docs", "findings.md"));
        List<String> missing = new ArrayList<>();
        Stream.of(
                        TopologyReason.values(),
                        WorkloadReason.values(),
                        DoctorReason.values(),
                        PendingReason.values(),
                        PodAdmission.Reasons.values(),
                        ManifestReader.InputReason.values())
                .flatMap(Stream::of)
                .map(Reason::reason)
                .forEach(r -> {
                    if (!page.contains("| `" + r + "` |")) {
                        missing.add(r);
                    }
                });
        assertThat(missing)
                .as("reasons missing from docs/findings.md's tables; regenerate with " + GeneratedDocs.UPDATE_COMMAND)
                .isEmpty();
    }

    @Test
    void theReadmeIsShortAndLinksEveryPageOfTheManual() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("README.md"));
        assertThat(lines.size())
                .as("README.md is the five-minute page; put details under docs/")
                .isLessThanOrEqualTo(MOST_README_LINES);
        String readme = String.join("\n", lines);
        List<String> unlinked;
        try (Stream<Path> pages = Files.list(Path.of("docs"))) {
            unlinked = pages.filter(p -> p.toString().endsWith(".md"))
                    .map(p -> "docs/" + p.getFileName())
                    .filter(p -> !readme.contains("](" + p + ")"))
                    .sorted()
                    .toList();
        }
        assertThat(unlinked)
                .as("pages of docs/ the README's table does not link")
                .isEmpty();
    }

    @Test
    void ciRunsTheReadmeTestCommand() throws IOException {
        assertThat(Files.readString(Path.of("README.md"))).contains(TEST_COMMAND);
        List<String> commands = Files.readAllLines(Path.of(".ci", "run")).stream()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.startsWith("set ") && !l.startsWith("cd "))
                .toList();
        // nothing before it: the build itself provisions what its tests need (Go binaries, the browser)
        assertThat(commands).containsExactly(TEST_COMMAND);
    }
}

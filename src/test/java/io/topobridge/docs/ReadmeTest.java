package io.topobridge.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.topology.TopologyReason;
import io.topobridge.testing.ConfigKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The README stays true: every configuration key and every topology finding reason is documented, and CI runs
 * exactly its test command.
 */
class ReadmeTest {

    private static final String TEST_COMMAND = "./mvnw -B verify";

    @Test
    void documentsEveryConfigurationKey() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        Set<String> keys = ConfigKeys.all();
        List<String> missing = new ArrayList<>();
        keys.forEach(k -> {
            if (!readme.contains("`" + k + "`")) {
                missing.add(k);
            }
        });
        assertThat(missing).as("configuration keys missing from README.md").isEmpty();
    }

    @Test
    void documentsEveryTopologyFindingReason() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        List<String> missing = new ArrayList<>();
        for (TopologyReason reason : TopologyReason.values()) {
            if (!readme.contains("| `" + reason.reason() + "` |")) {
                missing.add(reason.reason());
            }
        }
        assertThat(missing)
                .as("topology finding reasons missing from README.md's findings table")
                .isEmpty();
    }

    @Test
    void ciRunsTheReadmeTestCommand() throws IOException {
        assertThat(Files.readString(Path.of("README.md"))).contains(TEST_COMMAND);
        List<String> commands = Files.readAllLines(Path.of(".ci", "run")).stream()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.startsWith("set ") && !l.startsWith("cd "))
                .toList();
        // the browser tests need Debian's chromium, which a fresh CI machine installs first
        assertThat(commands).containsExactly(".ci/install-chromium", TEST_COMMAND);
    }
}

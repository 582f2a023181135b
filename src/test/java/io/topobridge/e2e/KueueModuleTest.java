package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Kueue's build stays cheap without building it (the unit tier): every module {@code src/test/go/kueue} shares with
 * {@code src/test/go/cluster} resolves to the cluster's version, so Go's build cache compiles each shared package once
 * and {@code kueue.sh} adds minutes, not the quarter hour of a build of its own.
 */
class KueueModuleTest {

    private static final Path GO = Path.of("src", "test", "go");
    private static final Pattern REQUIRE = Pattern.compile("(?m)^\\s*([\\w./~-]+) (v\\S+)(?: // indirect)?$");
    private static final Pattern REPLACE = Pattern.compile("(?m)^\\s*([\\w./~-]+) => [\\w./~-]+ (v\\S+)$");

    /** Module path to the version the build uses: a replace wins over a require. */
    static Map<String, String> versions(Path module) throws IOException {
        String text = Files.readString(module.resolve("go.mod"));
        Map<String, String> out = new TreeMap<>();
        Matcher required = REQUIRE.matcher(text);
        while (required.find()) {
            out.putIfAbsent(required.group(1), required.group(2));
        }
        Matcher replaced = REPLACE.matcher(text);
        while (replaced.find()) {
            out.put(replaced.group(1), replaced.group(2));
        }
        return out;
    }

    @Test
    void everySharedModuleIsAtTheClustersVersion() throws IOException {
        Map<String, String> cluster = versions(GO.resolve("cluster"));
        Map<String, String> kueue = versions(GO.resolve("kueue"));
        Map<String, String> apart = new TreeMap<>();
        kueue.forEach((module, version) -> {
            String theirs = cluster.get(module);
            if (theirs != null && !theirs.equals(version)) {
                apart.put(module, version + " (cluster: " + theirs + ")");
            }
        });
        assertThat(kueue).containsKeys("sigs.k8s.io/kueue", "k8s.io/client-go", "golang.org/x/sys");
        assertThat(kueue.keySet().stream().filter(cluster::containsKey).count())
                .as("modules both builds use")
                .isGreaterThan(100);
        assertThat(apart)
                .as("modules of kueue/go.mod at another version than cluster/go.mod's")
                .isEmpty();
    }
}

package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes matrix kept in step without building it (the unit tier): each {@code src/test/go/kubernetes-MINOR}
 * module is a version the tier knows and {@code docs/compatibility.md} reports, and the chart's {@code kubeVersion} is
 * the oldest minor measured to pass there.
 */
class KubernetesMatrixTest {

    private static final Path GO = Path.of("src", "test", "go");
    private static final Pattern KUBERNETES = Pattern.compile("(?m)^\\s*k8s\\.io/kubernetes (v1\\.(\\d+)\\.\\d+)");

    /** Each module's minor ("1.30", and "pinned" for the cluster module) to the k8s.io/kubernetes it requires. */
    private static Map<String, String> modules() throws IOException {
        Map<String, String> out = new TreeMap<>();
        out.put(KubernetesMinor.PINNED, required(GO.resolve("cluster")));
        try (Stream<Path> dirs = Files.list(GO)) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith("kubernetes-"))
                    .toList()) {
                out.put(dir.getFileName().toString().substring("kubernetes-".length()), required(dir));
            }
        }
        return out;
    }

    private static String required(Path module) throws IOException {
        Matcher m = KUBERNETES.matcher(Files.readString(module.resolve("go.mod")));
        assertThat(m.find()).as(module + "/go.mod requires k8s.io/kubernetes").isTrue();
        return m.group(1);
    }

    @Test
    void eachModuleIsAVersionTheTierKnowsAndThePageReports() throws IOException {
        String page = Files.readString(Path.of("docs", "compatibility.md"));
        Map<String, String> modules = modules();
        assertThat(modules).hasSizeGreaterThan(2);
        modules.forEach((minor, version) -> {
            assertThat(KubernetesMinor.version(minor))
                    .as("KubernetesMinor's version of " + minor)
                    .isEqualTo(version);
            assertThat(page).as("docs/compatibility.md reports " + version).contains("| " + version + " |");
        });
    }

    @Test
    void theChartClaimsTheOldestMinorMeasuredToPass() throws IOException {
        String chart = Files.readString(Path.of("helm", "topobridge", "Chart.yaml"));
        assertThat(modules()).containsKey(KubernetesMinor.OLDEST_PASSING);
        assertThat(chart).contains("kubeVersion: \">=" + KubernetesMinor.OLDEST_PASSING + ".0-0\"");
        assertThat(io.topobridge.testing.HelmChart.KUBE_VERSION)
                .as("the chart tests render for the oldest minor claimed")
                .isEqualTo(KubernetesMinor.OLDEST_PASSING + ".0");
    }
}

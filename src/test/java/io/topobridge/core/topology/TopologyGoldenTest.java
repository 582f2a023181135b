package io.topobridge.core.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.render.Renderer;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.manifest.YamlPrinter;
import io.topobridge.testing.Folders;
import io.topobridge.testing.Renderers;
import io.topobridge.volcano.VolcanoObjects;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden cases for {@code render}'s topology half: one folder per scenario under
 * {@code src/test/resources/golden/topology/} with the input Nodes ({@code input.yaml}, or {@code examples.txt}
 * naming a folder under {@code examples/}), optional {@code settings.properties} ({@code preset=…} or
 * {@code tiers=…}) and the expected HyperNodes ({@code expected.yaml}, compared as trees), findings
 * ({@code findings.txt}) and tier catalog ({@code tiers.txt}). Run with {@code -Dgolden.update=true} to
 * rewrite the expectations after a deliberate change, then review the diff.
 */
class TopologyGoldenTest {

    static final Path GOLDEN = Path.of("src/test/resources/golden/topology");
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    static List<String> scenarios() {
        return Folders.names(GOLDEN);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void rendersExpectedHyperNodes(String scenario) throws IOException {
        Path dir = GOLDEN.resolve(scenario);
        Rendered actual = render(dir);

        Path expectedYaml = dir.resolve("expected.yaml");
        Path expectedFindings = dir.resolve("findings.txt");
        Path expectedTiers = dir.resolve("tiers.txt");
        if (UPDATE) {
            Files.writeString(expectedYaml, actual.yaml());
            Files.writeString(expectedFindings, actual.findings());
            Files.writeString(expectedTiers, actual.tiers());
        }
        assertThat(trees(actual.yaml()))
                .as("HyperNodes of %s", scenario)
                .isEqualTo(trees(Files.readString(expectedYaml)));
        assertThat(actual.findings()).as("findings of %s", scenario).isEqualTo(Files.readString(expectedFindings));
        assertThat(actual.tiers()).as("tiers of %s", scenario).isEqualTo(Files.readString(expectedTiers));
    }

    /** What render prints for the folder's input, plus the catalog as {@code number name} lines. */
    record Rendered(String yaml, String findings, String tiers, RenderOutput output) {}

    static Rendered render(Path dir) throws IOException {
        List<Path> inputs = new ArrayList<>();
        if (Files.exists(dir.resolve("input.yaml"))) {
            inputs.add(dir.resolve("input.yaml"));
        }
        if (Files.exists(dir.resolve("examples.txt"))) {
            Files.readAllLines(dir.resolve("examples.txt")).stream()
                    .map(String::trim)
                    .filter(l -> !l.isEmpty())
                    .forEach(l -> inputs.add(Path.of("examples", l)));
        }
        var read = new ManifestReader(SERIALIZATION).read(inputs);
        assertThat(read.findings()).as("input of %s is readable", dir).isEmpty();
        Renderer renderer = Renderers.of(settings(dir), Fixtures.defaultSettings(), new AdmissionSettings("volcano"));
        RenderOutput output = renderer.render(read.objects());
        StringBuilder yaml = new StringBuilder();
        output.hyperNodes().forEach(h -> yaml.append(YamlPrinter.print(SERIALIZATION, VolcanoObjects.hyperNode(h))));
        StringBuilder findings = new StringBuilder();
        output.findings().stream()
                .map(Finding::line)
                .forEach(l -> findings.append(l).append('\n'));
        TopologyResult topo = new TopologyBuilder(settings(dir)).build(nodes(read.objects()), List.of());
        StringBuilder tiers = new StringBuilder();
        topo.tiers()
                .names()
                .forEach(n -> tiers.append(n)
                        .append(' ')
                        .append(topo.tiers().numbers(n))
                        .append('\n'));
        return new Rendered(yaml.toString(), findings.toString(), tiers.toString(), output);
    }

    static List<NodeInfo> nodes(List<? extends io.fabric8.kubernetes.api.model.HasMetadata> objects) {
        return objects.stream()
                .filter(o -> o instanceof io.fabric8.kubernetes.api.model.Node)
                .map(o -> Nodes.of(o.getMetadata().getName(), o.getMetadata().getLabels()))
                .toList();
    }

    static TopologySettings settings(Path dir) throws IOException {
        Path file = dir.resolve("settings.properties");
        if (!Files.exists(file)) {
            return TopologySettings.parse(TopologySettings.AUTO, null);
        }
        Properties props = new Properties();
        props.load(new StringReader(Files.readString(file)));
        String tiers = props.getProperty("tiers");
        return TopologySettings.parse(
                props.getProperty("preset", "auto"), tiers == null ? List.of() : Arrays.asList(tiers.split(",")));
    }

    static List<JsonNode> trees(String multiDocYaml) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(multiDocYaml)) {
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                    out.add(doc);
                }
            }
        }
        return out;
    }
}

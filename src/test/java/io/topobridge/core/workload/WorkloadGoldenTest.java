package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.render.Renderer;
import io.topobridge.core.topology.NodeInfo;
import io.topobridge.core.topology.TopologyBuilder;
import io.topobridge.core.topology.TopologyResult;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.testing.Folders;
import io.topobridge.testing.Upstream;
import io.topobridge.testing.VolcanoSchemas;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.VolcanoObjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden cases: one folder per scenario under {@code golden/workloads/}. {@code scenario.yaml} names an
 * optional upstream manifest (read from the shared reference data, never copied) or a project folder
 * ({@code examples/workloads}: the demo's examples are golden cases too), the namespace, the
 * annotations to put on its workloads and whether to simulate AIBrix's RoleSets; {@code input.yaml} adds
 * objects of our own. The whole PodGroups ({@code expected.yaml}) and every finding line
 * ({@code findings.txt}) must match, and every PodGroup must pass Volcano's CRD schema.
 * Run with {@code -Dgolden.update=true} to rewrite the expected files (then review the diff).
 */
class WorkloadGoldenTest {

    private static final Path ROOT = Path.of("src/test/resources/golden/workloads");
    private static final YAMLMapper YAML = new YAMLMapper();

    static List<String> scenarios() {
        return Folders.names(ROOT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void translatesToExpectedPodGroups(String scenario) throws IOException {
        Path dir = ROOT.resolve(scenario);
        List<HasMetadata> inputs = inputs(dir);
        var result = TranslationResult.of(Fixtures.translator(), inputs, Fixtures.TIERS, Fixtures.lookup(inputs));
        if (inputs.stream().anyMatch(o -> o instanceof Node)) {
            // a scenario with a cluster: its tiers and domains come from its nodes, as in render and the controller
            List<NodeInfo> nodes = inputs.stream()
                    .filter(o -> o instanceof Node)
                    .map(o -> new NodeInfo(
                            o.getMetadata().getName(),
                            o.getMetadata().getLabels(),
                            NodeView.of((Node) o).accelerator(Accelerators.DEFAULT)))
                    .toList();
            TopologyResult topology = new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, List.of()))
                    .build(nodes, List.of());
            WorkloadLookup base = Fixtures.lookup(inputs);
            TierDomains domains = Renderer.domains(inputs, topology.hyperNodes(), List.of(), Accelerators.DEFAULT);
            result = TranslationResult.of(
                    Fixtures.translator(), inputs, topology.tiers(), base.withDomains(() -> domains));
        }

        List<JsonNode> actual = new ArrayList<>();
        for (DesiredPodGroup desired : result.podGroups()) {
            PodGroup podGroup = VolcanoObjects.podGroup(desired);
            assertThat(VolcanoSchemas.podGroups().violations(podGroup))
                    .as(scenario + " " + desired.name())
                    .isEmpty();
            actual.add(Fixtures.SERIALIZATION.convertValue(podGroup, JsonNode.class));
        }
        List<String> lines = result.findings().stream().map(Finding::line).toList();

        Path expectedFile = dir.resolve("expected.yaml");
        Path findingsFile = dir.resolve("findings.txt");
        if (Boolean.getBoolean("golden.update")) {
            var out = new StringBuilder();
            for (JsonNode node : actual) {
                out.append("---\n").append(YAML.writeValueAsString(node).replaceFirst("^---\n", ""));
            }
            Files.writeString(expectedFile, out.toString());
            Files.writeString(findingsFile, lines.isEmpty() ? "" : String.join("\n", lines) + "\n");
        }
        List<JsonNode> expected = new ArrayList<>();
        for (String doc : Files.readString(expectedFile).split("(?m)^---\\s*$")) {
            if (!doc.isBlank()) {
                expected.add(YAML.readTree(doc));
            }
        }
        assertThat(actual).as(scenario + ": PodGroups").containsExactlyElementsOf(expected);
        List<String> expectedLines = Files.readAllLines(findingsFile).stream()
                .filter(l -> !l.isBlank())
                .toList();
        assertThat(lines).as(scenario + ": findings").containsExactlyElementsOf(expectedLines);
    }

    @SuppressWarnings("unchecked")
    static List<HasMetadata> inputs(Path dir) throws IOException {
        Map<String, Object> scenario = Files.exists(dir.resolve("scenario.yaml"))
                ? new ObjectMapper()
                        .convertValue(YAML.readTree(dir.resolve("scenario.yaml").toFile()), Map.class)
                : Map.of();
        String namespace = (String) scenario.getOrDefault("namespace", "default");
        Map<String, String> annotations = (Map<String, String>) scenario.getOrDefault("annotations", Map.of());
        List<HasMetadata> objects = new ArrayList<>();
        if (scenario.get("upstream") != null) {
            String[] source = ((String) scenario.get("upstream")).split(":", 2);
            Path upstream = Upstream.file(source[0], source[1]);
            for (HasMetadata object : Fixtures.objects(Files.readString(upstream))) {
                if (!annotations.isEmpty()) {
                    var merged = new LinkedHashMap<String, String>();
                    if (object.getMetadata().getAnnotations() != null) {
                        merged.putAll(object.getMetadata().getAnnotations());
                    }
                    merged.putAll(annotations);
                    object.getMetadata().setAnnotations(merged);
                }
                objects.add(object);
            }
        }
        if (scenario.get("project") != null) {
            // a folder of the project itself (the demo's examples), read as the demo seeds it
            try (Stream<Path> files = Files.list(Path.of((String) scenario.get("project")))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".yaml"))
                        .sorted()
                        .toList()) {
                    objects.addAll(Fixtures.objects(Files.readString(file)));
                }
            }
        }
        if (Files.exists(dir.resolve("input.yaml"))) {
            objects.addAll(Fixtures.objects(Files.readString(dir.resolve("input.yaml"))));
        }
        objects.removeIf(java.util.Objects::isNull);
        for (HasMetadata object : objects) {
            boolean clusterScoped = "Node".equals(object.getKind());
            if (!clusterScoped && object.getMetadata().getNamespace() == null) {
                object.getMetadata().setNamespace(namespace);
            }
            if (object.getMetadata().getUid() == null) {
                // what the API server would assign
                object.getMetadata()
                        .setUid("uid-" + object.getKind().toLowerCase() + "-"
                                + object.getMetadata().getName());
            }
        }
        if (Boolean.TRUE.equals(scenario.get("simulateAibrix"))) {
            List<HasMetadata> roleSets = new ArrayList<>();
            objects.stream()
                    .filter(o -> "StormService".equals(o.getKind()))
                    .forEach(s -> roleSets.addAll(ControllersSimulation.roleSets(s)));
            objects.addAll(roleSets);
        }
        return objects;
    }
}

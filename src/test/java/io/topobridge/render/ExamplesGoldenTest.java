package io.topobridge.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.expand.Expansion;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.manifest.YamlPrinter;
import io.topobridge.testing.PodTemplates;
import io.topobridge.testing.Renderers;
import io.topobridge.testing.VolcanoSchemas;
import io.topobridge.volcano.VolcanoObjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The whole {@code examples/} folder through the render pipeline with the default configuration, as a golden
 * case, as {@code render} shows it: the HyperNodes of the GPU cluster, the PodGroups of the workloads (their tier
 * names resolved through that topology), the objects their controllers would make (expanded) with the pods as
 * admission lets them in, every finding and every note. {@code -Dgolden.update=true} rewrites the expectation.
 */
class ExamplesGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/examples");
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final YAMLMapper YAML = new YAMLMapper();

    private static RenderOutput render() {
        var input = new ManifestReader(SERIALIZATION).read(List.of(Path.of("examples")));
        assertThat(input.findings()).isEmpty();
        return Renderers.of(
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(input.objects(), Expansion.Limits.DEFAULT);
    }

    private static List<HasMetadata> printed(RenderOutput output) {
        List<HasMetadata> out = new ArrayList<>();
        output.hyperNodes().forEach(h -> out.add(VolcanoObjects.hyperNode(h)));
        output.podGroups().forEach(p -> out.add(VolcanoObjects.podGroup(p)));
        out.addAll(output.expanded());
        out.addAll(output.pods());
        return out;
    }

    @Test
    void rendersTheExpectedObjectsAndFindings() throws IOException {
        RenderOutput output = render();
        var yaml = new StringBuilder();
        printed(output).forEach(o -> yaml.append(YamlPrinter.print(SERIALIZATION, o)));
        List<String> findings = output.findings().stream().map(Finding::line).toList();
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(GOLDEN.resolve("expected.yaml"), yaml.toString());
            Files.writeString(
                    GOLDEN.resolve("findings.txt"), findings.isEmpty() ? "" : String.join("\n", findings) + "\n");
            Files.writeString(
                    GOLDEN.resolve("notes.txt"),
                    output.notes().isEmpty() ? "" : String.join("\n", output.notes()) + "\n");
        }
        assertThat(trees(yaml.toString()))
                .containsExactlyElementsOf(trees(Files.readString(GOLDEN.resolve("expected.yaml"))));
        assertThat(findings)
                .containsExactlyElementsOf(Files.readAllLines(GOLDEN.resolve("findings.txt")).stream()
                        .filter(l -> !l.isBlank())
                        .toList());
        assertThat(output.notes())
                .containsExactlyElementsOf(Files.readAllLines(GOLDEN.resolve("notes.txt")).stream()
                        .filter(l -> !l.isBlank())
                        .toList());
        assertThat(output.findings())
                .filteredOn(Finding::isRejection)
                .as("the examples are all accepted but tp-too-big, which no NVLink partition holds")
                .singleElement()
                .satisfies(f -> assertThat(f.line())
                        .startsWith("REJECTED LeaderWorkerSet/inference/tp-too-big GangExceedsDomain: "));
        assertThat(output.hyperNodes()).hasSize(19);
        assertThat(output.podGroups()).hasSize(7);
    }

    @Test
    void everyRenderedVolcanoObjectIsValid() {
        RenderOutput output = render();
        output.hyperNodes()
                .forEach(h -> assertThat(VolcanoSchemas.hyperNodes().violations(VolcanoObjects.hyperNode(h)))
                        .as(h.name())
                        .isEmpty());
        output.podGroups()
                .forEach(p -> assertThat(VolcanoSchemas.podGroups().violations(VolcanoObjects.podGroup(p)))
                        .as(p.name())
                        .isEmpty());
    }

    @Test
    void aTierTheExampleClusterLacksIsRefusedWithTheTiersItHas() {
        var input = new ManifestReader(SERIALIZATION).read(List.of(Path.of("examples/gpu-cluster")));
        List<HasMetadata> objects = new ArrayList<>(input.objects());
        objects.add(new DeploymentBuilder()
                .withNewMetadata()
                .withName("tp")
                .withNamespace("inference")
                .addToAnnotations("topobridge.io/highest-tier", "rack")
                .endMetadata()
                .withNewSpec()
                .withReplicas(2)
                .withNewTemplate()
                .withSpec(PodTemplates.spec("vllm", "vllm"))
                .endTemplate()
                .endSpec()
                .build());
        RenderOutput output = Renderers.of(
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(objects);
        assertThat(output.rejected()).isTrue();
        assertThat(output.findings())
                .map(Finding::message)
                .anyMatch(m -> m.contains("unknown tier name; known tiers 1=nvlink, 2=nvlink-domain, 3=leaf, 4=spine"));
    }

    private static List<JsonNode> trees(String yaml) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String doc : yaml.split("(?m)^---\\s*$")) {
            if (!doc.isBlank()) {
                out.add(YAML.readTree(doc));
            }
        }
        return out;
    }
}

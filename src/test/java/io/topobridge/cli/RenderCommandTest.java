package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code render} as kubectl users expect it, run in-process through the offline entry point: {@code -} reads standard
 * input, {@code -o json} prints the same objects as one List, {@code -o yaml} is the default, anything else is a
 * usage error, and the strict reader's refusals and notes reach stderr.
 */
class RenderCommandTest {

    private static final String NODES = RenderRefusalsTest.cluster();

    private static String input() throws Exception {
        return Files.readString(Path.of("examples/workloads/00-namespace-and-queue.yaml")) + "\n---\n"
                + Files.readString(Path.of("examples/workloads/llm-d-pd-deployments.yaml"));
    }

    @Test
    void standardInputRendersAsAFileDoes() throws Exception {
        Path file = Files.createTempFile("render", ".yaml");
        try {
            Files.writeString(file, input());
            var fromFile = CliRun.of("render", NODES, file.toString());
            var fromStdin = CliRun.withInput(input(), "render", NODES, "-");
            assertThat(fromFile.exit()).as(fromFile.err()).isZero();
            assertThat(fromStdin.exit()).as(fromStdin.err()).isZero();
            assertThat(fromStdin.out()).isEqualTo(fromFile.out()).contains("kind: PodGroup");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void jsonIsOneListOfTheObjectsYamlPrints() throws Exception {
        var yaml = CliRun.withInput(input(), "render", NODES, "-");
        var json = CliRun.withInput(input(), "render", "-o", "json", NODES, "-");
        assertThat(json.exit()).as(json.err()).isZero();
        JsonNode list = new ObjectMapper().readTree(json.out());
        assertThat(list.path("kind").asText()).isEqualTo("List");
        assertThat(list.path("apiVersion").asText()).isEqualTo("v1");
        var fromYaml = new java.util.ArrayList<JsonNode>();
        var yamlMapper = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper();
        try (var parser = yamlMapper.getFactory().createParser(yaml.out())) {
            yamlMapper.readValues(parser, JsonNode.class).forEachRemaining(fromYaml::add);
        }
        var fromJson = new java.util.ArrayList<JsonNode>();
        list.path("items").forEach(fromJson::add);
        assertThat(fromJson).hasSize(fromYaml.size()).isNotEmpty();
        for (int i = 0; i < fromJson.size(); i++) {
            assertThat(fromJson.get(i).path("kind")).isEqualTo(fromYaml.get(i).path("kind"));
            assertThat(fromJson.get(i).path("metadata").path("name"))
                    .isEqualTo(fromYaml.get(i).path("metadata").path("name"));
        }
        var explicit = CliRun.withInput(input(), "render", "--output", "yaml", NODES, "-");
        assertThat(explicit.out()).isEqualTo(yaml.out());
    }

    @Test
    void anUnknownFormatIsAUsageError() {
        var run = CliRun.of("render", "-o", "wide", NODES);
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--output must be yaml or json, got \"wide\"");
    }

    @Test
    void strictReadingReachesStderrAndTheExitCode() {
        var duplicate = CliRun.withInput("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nkind: Node\n", "render", "-");
        assertThat(duplicate.exit()).isEqualTo(1);
        assertThat(duplicate.err())
                .contains("REJECTED File/<stdin>#1 UnreadableDocument: key \"kind\" is given twice in one mapping,"
                        + " at lines 2 and 4");
        var values = CliRun.withInput("replicaCount: 3\n", "render", "-");
        assertThat(values.exit()).as(values.err()).isZero();
        assertThat(values.err())
                .isEqualTo("NOTE <stdin>#1 (line 1) is skipped: not a Kubernetes object (no apiVersion and kind)"
                        + System.lineSeparator());
    }

    @Test
    void anInvalidConfigurationIsOneLineAndExitTwo() {
        System.setProperty("topobridge.workloads.accelerator-resources", "not a resource name!");
        try {
            var run = CliRun.of("render", NODES);
            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.err().lines())
                    .singleElement()
                    .asString()
                    .startsWith("error: invalid configuration: ")
                    .contains("accelerator");
        } finally {
            System.clearProperty("topobridge.workloads.accelerator-resources");
        }
        System.setProperty("topobridge.topology.no-such-key", "1");
        try {
            var run = CliRun.of("render", NODES);
            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.err())
                    .startsWith("error: invalid configuration: ")
                    .contains("topobridge.topology.no-such-key");
            assertThat(CliRun.of("version").exit())
                    .as("version reads no configuration")
                    .isZero();
        } finally {
            System.clearProperty("topobridge.topology.no-such-key");
        }
    }
}

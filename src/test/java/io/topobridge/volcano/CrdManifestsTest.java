package io.topobridge.volcano;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CRD manifests in crds/ (installed into the test and demo API server) carry exactly the schemas of
 * crds/volcano.openapi.yaml, from which the Java models are generated, so the two can never disagree.
 */
class CrdManifestsTest {

    private static final YAMLMapper YAML = new YAMLMapper();

    static Stream<Arguments> manifests() {
        return Stream.of(
                Arguments.of(
                        "scheduling.volcano.sh_podgroups.yaml",
                        "PodGroupSpec",
                        "PodGroupStatus",
                        "podgroups.scheduling.volcano.sh"),
                Arguments.of(
                        "scheduling.volcano.sh_queues.yaml",
                        "QueueSpec",
                        "QueueStatus",
                        "queues.scheduling.volcano.sh"),
                Arguments.of(
                        "topology.volcano.sh_hypernodes.yaml",
                        "HyperNodeSpec",
                        "HyperNodeStatus",
                        "hypernodes.topology.volcano.sh"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("manifests")
    void manifestMatchesTheOpenApiDescription(String file, String spec, String status, String name) throws IOException {
        ObjectNode components =
                (ObjectNode) YAML.readTree(Path.of("crds/volcano.openapi.yaml").toFile())
                        .path("components")
                        .path("schemas");
        JsonNode crd = YAML.readTree(Path.of("crds", file).toFile());
        assertThat(crd.path("metadata").path("name").asText()).isEqualTo(name);
        JsonNode version = crd.path("spec").path("versions").get(0);
        assertThat(version.path("served").asBoolean()).isTrue();
        JsonNode schema = version.path("schema").path("openAPIV3Schema");
        assertThat(schema.path("properties").path("spec")).isEqualTo(inline(components.get(spec), components));
        assertThat(schema.path("properties").path("status")).isEqualTo(inline(components.get(status), components));
    }

    /** $refs inlined; quantities become Kubernetes int-or-string, as a CRD must declare them. */
    static JsonNode inline(JsonNode node, ObjectNode components) {
        if (node.isObject() && node.has("$ref")) {
            String name = node.get("$ref").asText().substring("#/components/schemas/".length());
            if (name.equals("Quantity")) {
                ObjectNode quantity = YAML.createObjectNode();
                quantity.putArray("anyOf")
                        .add(YAML.createObjectNode().put("type", "integer"))
                        .add(YAML.createObjectNode().put("type", "string"));
                quantity.put("x-kubernetes-int-or-string", true);
                return quantity;
            }
            return inline(components.get(name), components);
        }
        return VolcanoConformanceTest.inline(node, components, CrdManifestsTest::inline);
    }
}

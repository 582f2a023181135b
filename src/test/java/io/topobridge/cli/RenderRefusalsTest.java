package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one exit-code rule of {@code render}: every refusal the controller makes (no PodGroup made) exits 1 and names
 * its reason on stderr, and the pods of that gang are printed untied (no group name, scheduler left as written); a
 * gang the controller makes exits 0 with its pods tied.
 */
class RenderRefusalsTest {

    private static final YAMLMapper YAML = new YAMLMapper();

    @TempDir
    Path dir;

    private static String namespace(boolean optedIn) {
        return "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns"
                + (optedIn ? ", labels: {topobridge.io/enabled: \"true\"}" : "") + "}\n";
    }

    private static String queue(String name, String state, String capability) {
        return "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: " + name + "}\n"
                + "spec: {weight: 1" + (capability == null ? "" : ", capability: {" + capability + "}") + "}\n"
                + (state == null ? "" : "status: {state: " + state + "}\n");
    }

    private static String deployment(int replicas, int gpus) {
        return "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: tp\n  namespace: ns\n"
                + "  annotations: {topobridge.io/highest-tier: leaf}\nspec:\n  replicas: " + replicas + "\n"
                + "  selector: {matchLabels: {app: tp}}\n  template:\n    metadata: {labels: {app: tp}}\n"
                + "    spec:\n      containers:\n      - name: c\n        image: x\n"
                + "        resources: {limits: {nvidia.com/gpu: \"" + gpus + "\"}}\n";
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("made", namespace(true) + queue("default", "Open", null) + deployment(2, 4), 0, ""),
                Arguments.of(
                        "NamespaceNotOptedIn",
                        namespace(false) + queue("default", "Open", null) + deployment(2, 4),
                        1,
                        "WARNING Deployment/ns/tp NamespaceNotOptedIn: "),
                Arguments.of(
                        "QueueNotOpen",
                        namespace(true) + queue("default", "Closed", null) + deployment(2, 4),
                        1,
                        "WARNING Deployment/ns/tp QueueNotOpen: "),
                Arguments.of(
                        "QueueMissing",
                        namespace(true) + queue("other", "Open", null) + deployment(2, 4),
                        1,
                        "WARNING Deployment/ns/tp QueueMissing: "),
                Arguments.of(
                        "GangExceedsQueue",
                        namespace(true) + queue("default", "Open", "nvidia.com/gpu: \"4\"") + deployment(2, 4),
                        1,
                        "REJECTED Deployment/ns/tp GangExceedsQueue: "),
                Arguments.of(
                        "GangExceedsCluster",
                        namespace(true) + queue("default", "Open", null) + deployment(100, 4),
                        1,
                        "REJECTED Deployment/ns/tp GangExceedsCluster: "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyRefusalExitsOneAndPrintsItsPodsUntied(String name, String input, int exit, String finding)
            throws Exception {
        Path file = dir.resolve("input.yaml");
        Files.writeString(file, input);
        var run = CliRun.of("render", cluster(), file.toString());
        assertThat(run.exit()).as(run.err()).isEqualTo(exit);
        assertThat(run.err()).contains(finding);
        List<JsonNode> pods = documents(run.out(), "Pod");
        assertThat(pods).as(run.out()).hasSize(name.equals("GangExceedsCluster") ? 100 : 2);
        List<JsonNode> podGroups = documents(run.out(), "PodGroup");
        if (exit == 0) {
            assertThat(podGroups).hasSize(1);
            String group = podGroups.get(0).path("metadata").path("name").asText();
            assertThat(pods)
                    .allSatisfy(p -> assertThat(groupName(p)).isEqualTo(group))
                    .allSatisfy(
                            p -> assertThat(p.path("spec").path("schedulerName").asText())
                                    .isEqualTo("volcano"));
        } else {
            assertThat(podGroups).isEmpty();
            assertThat(pods)
                    .allSatisfy(p -> assertThat(groupName(p)).isEmpty())
                    .allSatisfy(
                            p -> assertThat(p.path("spec").path("schedulerName").asText())
                                    .isEmpty());
        }
    }

    static String cluster() {
        return Path.of("examples/gpu-cluster/nodes.yaml").toString();
    }

    private static String groupName(JsonNode pod) {
        return pod.path("metadata")
                .path("annotations")
                .path("scheduling.k8s.io/group-name")
                .asText();
    }

    static List<JsonNode> documents(String yaml, String kind) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(yaml)) {
            YAML.readValues(parser, JsonNode.class).forEachRemaining(doc -> {
                if (doc != null && kind.equals(doc.path("kind").asText())) {
                    out.add(doc);
                }
            });
        }
        return out;
    }
}

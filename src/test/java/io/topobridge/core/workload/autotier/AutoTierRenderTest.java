package io.topobridge.core.workload.autotier;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.testing.DraClaims;
import io.topobridge.testing.Renderers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * {@code render} computes the domains from the Nodes and HyperNodes of its input: the example cluster's sizes give
 * the same sentence the controller writes, a rack more changes it, and pods bound in the input count as load.
 */
class AutoTierRenderTest {

    /** Ten pods of the Deployment {@code wide} with {@code podSpec} (YAML at the pod spec's indentation). */
    private static String wide(String podSpec) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: wide, namespace: inference, annotations: {topobridge.io/highest-tier: auto}}
                spec:
                  replicas: 10
                  selector: {matchLabels: {app: wide}}
                  template:
                    metadata: {labels: {app: wide}}
                    spec:
                """ + podSpec.indent(6);
    }

    private static final String GANG = wide("""
            containers:
            - name: c
              image: x
              resources: {limits: {nvidia.com/gpu: "4"}}
            """);

    static List<HasMetadata> cluster() throws IOException {
        List<HasMetadata> out =
                new ArrayList<>(Fixtures.objects(Files.readString(Path.of("examples", "gpu-cluster", "nodes.yaml"))));
        out.removeIf(Objects::isNull);
        return out;
    }

    static DesiredPodGroup render(List<HasMetadata> inputs) {
        RenderOutput out = Renderers.of(
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(inputs);
        return out.podGroups().stream()
                .filter(p -> p.name().equals("tb-deploy-wide"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void renderPrintsTheChoiceAndItsReason() throws IOException {
        List<HasMetadata> inputs = cluster();
        inputs.addAll(Fixtures.objects(GANG));
        DesiredPodGroup pg = render(inputs);
        assertThat(pg.annotations())
                .containsEntry(
                        "topobridge.io/chosen-tier",
                        "2 (nvlink-domain): 40 GPUs fit in 1 of 5 nvlink-domain domains; 1 (nvlink) holds at most 36 GPUs");
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(2);
        assertThat(pg.spec().getNetworkTopology().getMode().value()).isEqualTo("hard");
    }

    @Test
    void aSecondLargeRackChangesTheSentence() throws IOException {
        List<HasMetadata> inputs = cluster();
        // a copy of rack r05 (18 trays in one NVLink domain) under another clique UUID
        for (HasMetadata node : cluster()) {
            Map<String, String> labels = node.getMetadata().getLabels();
            String clique = labels == null ? null : labels.get("nvidia.com/gpu.clique");
            if (clique != null && clique.startsWith("2d7e9c41-")) {
                HasMetadata copy = Fixtures.object(Fixtures.SERIALIZATION.asYaml(node));
                copy.getMetadata().setName(node.getMetadata().getName().replace("r05", "r06"));
                copy.getMetadata().getLabels().put("nvidia.com/gpu.clique", clique.replace("2d7e9c41-", "3e8f0d52-"));
                copy.getMetadata()
                        .getLabels()
                        .put("kubernetes.io/hostname", copy.getMetadata().getName());
                inputs.add(copy);
            }
        }
        inputs.addAll(Fixtures.objects(GANG));
        assertThat(render(inputs).annotations())
                .containsEntry(
                        "topobridge.io/chosen-tier",
                        "2 (nvlink-domain): 40 GPUs fit in 2 of 6 nvlink-domain domains; 1 (nvlink) holds at most 36 GPUs");
    }

    @Test
    void podsBoundInTheInputLeaveNoRoomSoTheDefaultIsSoft() throws IOException {
        List<HasMetadata> inputs = cluster();
        StringBuilder pods = new StringBuilder();
        for (HasMetadata node : cluster()) {
            if (node.getMetadata().getName().startsWith("gb200-r05-")) {
                pods.append("---\napiVersion: v1\nkind: Pod\nmetadata: {name: busy-")
                        .append(node.getMetadata().getName())
                        .append(", namespace: other}\nspec:\n  nodeName: ")
                        .append(node.getMetadata().getName())
                        .append(
                                "\n  containers:\n  - name: c\n    image: x\n    resources: {limits: {nvidia.com/gpu: \"4\"}}\n");
            }
        }
        inputs.addAll(Fixtures.objects(pods.toString()));
        inputs.addAll(Fixtures.objects(GANG));
        inputs.removeIf(Objects::isNull);
        DesiredPodGroup pg = render(inputs);
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(2);
        assertThat(pg.spec().getNetworkTopology().getMode().value())
                .as("r05 is full today")
                .isEqualTo("soft");
        assertThat(pg.annotations().get("topobridge.io/chosen-tier"))
                .as("the sentence speaks of sizes")
                .startsWith("2 (nvlink-domain): 40 GPUs fit in 1 of 5");
    }

    @Test
    void gpusClaimedThroughATemplateInTheInputGiveTheSameChoice() throws IOException {
        List<HasMetadata> inputs = cluster();
        inputs.addAll(Fixtures.objects(DraClaims.template("four-gpus", "inference", "gpus", "gpu.nvidia.com", 4)));
        inputs.addAll(Fixtures.objects(wide("""
                resourceClaims:
                - {name: gpus, resourceClaimTemplateName: four-gpus}
                containers:
                - name: c
                  image: x
                  resources: {requests: {cpu: "1"}, claims: [{name: gpus}]}
                """)));
        DesiredPodGroup pg = render(inputs);
        assertThat(pg.annotations())
                .containsEntry(
                        "topobridge.io/chosen-tier",
                        "2 (nvlink-domain): 40 GPUs fit in 1 of 5 nvlink-domain domains; 1 (nvlink) holds at most 36 GPUs")
                .containsEntry("topobridge.io/dra-devices", "nvidia.com/gpu=40");
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(2);
        assertThat(pg.spec().getMinResources()).containsOnlyKeys("cpu");
    }
}

package io.topobridge.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.topology.DesiredHyperNode;
import io.topobridge.core.topology.TopologyReason;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.testing.Renderers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code render} of a GB200 cluster with a rail-cabled NVL72 rack (golden {@code rail-cabled-nvl72}: r03's trays on
 * two leaves) and an 18-tray tensor-parallel Deployment at the {@code nvlink} tier: the rack is one 72-GPU NVLink
 * HyperNode, and the 72-GPU gang is translated into a hard tier-1 PodGroup with nothing refused.
 */
class RailCabledRenderTest {

    private static final Path CLUSTER = Path.of("src/test/resources/golden/topology/rail-cabled-nvl72/input.yaml");

    private static final String TP72 = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: tp72
              namespace: inference
              annotations:
                topobridge.io/highest-tier: nvlink
            spec:
              replicas: 18
              selector:
                matchLabels: {app: tp72}
              template:
                metadata:
                  labels: {app: tp72}
                spec:
                  containers:
                  - name: engine
                    image: registry.k8s.io/pause:3.10
                    resources:
                      limits: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "4"}
            """;

    @Test
    void theRailCabledRackRendersAsOne72GpuNvlinkDomainThatTakesAn18TrayGang(@TempDir Path dir) throws Exception {
        Path workload = Files.writeString(dir.resolve("tp72.yaml"), TP72);
        List<HasMetadata> objects = new ManifestReader(new KubernetesSerialization())
                .read(List.of(CLUSTER, workload))
                .objects();
        RenderOutput out = Renderers.of(
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(objects);

        Map<String, Integer> gpus = objects.stream()
                .filter(Node.class::isInstance)
                .map(Node.class::cast)
                .collect(Collectors.toMap(
                        n -> n.getMetadata().getName(),
                        n -> n.getStatus()
                                .getAllocatable()
                                .get("nvidia.com/gpu")
                                .getNumericalAmount()
                                .intValue()));
        Map<String, DesiredHyperNode> byName =
                out.hyperNodes().stream().collect(Collectors.toMap(DesiredHyperNode::name, Function.identity()));
        DesiredHyperNode rack = out.hyperNodes().stream()
                .filter(h -> h.spec().getTier() == 1 && members(h).contains("gb200-r03-t01"))
                .findFirst()
                .orElseThrow();
        assertThat(rack.spec().getTierName()).isEqualTo("nvlink");
        assertThat(members(rack)).hasSize(18).allMatch(n -> n.startsWith("gb200-r03-"));
        assertThat(members(rack).stream().mapToInt(gpus::get).sum())
                .as("GPUs of the NVLink domain")
                .isEqualTo(72);
        assertThat(out.hyperNodes())
                .filteredOn(h -> h.spec().getTier() == 1)
                .allSatisfy(
                        h -> assertThat(members(h).stream().mapToInt(gpus::get).sum())
                                .as(h.name())
                                .isEqualTo(72));
        // every leaf-tier HyperNode is one leaf's racks or the rail-cabled rack alone
        assertThat(out.hyperNodes())
                .filteredOn(h -> h.spec().getTier() == 2)
                .extracting(h -> leafNodes(h, byName).stream()
                        .map(n -> n.substring(0, "gb200-r0x".length()))
                        .distinct()
                        .toList())
                .containsExactlyInAnyOrder(List.of("gb200-r01"), List.of("gb200-r02"), List.of("gb200-r03"));

        assertThat(out.podGroups()).singleElement().satisfies(pg -> {
            assertThat(pg.name()).isEqualTo("tb-deploy-tp72");
            assertThat(pg.spec().getMinMember()).isEqualTo(18);
            assertThat(pg.spec().getMinResources()).containsEntry("nvidia.com/gpu", "72");
            assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(1);
            assertThat(pg.spec().getNetworkTopology().getMode().toString()).isEqualTo("hard");
        });
        assertThat(out.rejected()).as(out.findings().toString()).isFalse();
        assertThat(out.findings())
                .filteredOn(f -> f.reason() == TopologyReason.PARTITION_SPANS_LEAVES)
                .singleElement()
                .satisfies(f -> assertThat(f.object().name()).isEqualTo(rack.name()));
        assertThat(out.podGroups()).extracting(DesiredPodGroup::namespace).containsExactly("inference");
    }

    private static List<String> members(DesiredHyperNode h) {
        return h.spec().getMembers().stream()
                .map(m -> m.getSelector().getExactMatch().getName())
                .toList();
    }

    private static List<String> leafNodes(DesiredHyperNode h, Map<String, DesiredHyperNode> byName) {
        if (h.spec().getTier() == 1) {
            return members(h);
        }
        List<String> out = new ArrayList<>();
        members(h).forEach(m -> out.addAll(leafNodes(byName.get(m), byName)));
        return out;
    }
}

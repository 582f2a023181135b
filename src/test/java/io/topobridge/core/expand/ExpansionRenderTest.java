package io.topobridge.core.expand;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.render.Renderer;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.testing.Renderers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What the expansion gives the unchanged {@link Renderer#render(List)} (as {@code render} composes them in
 * {@link Renderer#render(List, Expansion.Limits)}): the example StormService alone renders
 * to a finding that AIBrix has not made its RoleSets; with the objects its controllers would make added to the input,
 * the unchanged {@link Renderer} prints the RoleSet's PodGroup and every pod admitted and tied to it.
 */
class ExpansionRenderTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    /** The example cluster, namespace and StormService (the RoleSet the demo seeds lives in examples/demo-only). */
    private static List<HasMetadata> inputs() {
        List<HasMetadata> objects = new ManifestReader(SERIALIZATION)
                .read(List.of(
                        Path.of("examples/gpu-cluster/nodes.yaml"),
                        Path.of("examples/workloads/00-namespace-and-queue.yaml"),
                        Path.of("examples/workloads/stormservice.yaml")))
                .objects();
        assertThat(objects).noneMatch(o -> "RoleSet".equals(o.getKind()));
        return objects;
    }

    private static RenderOutput render(List<HasMetadata> objects) {
        return Renderers.of(
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(objects);
    }

    @Test
    void theStormServiceAloneRendersNoPodGroupAndNoPod() {
        RenderOutput out = render(inputs());
        assertThat(out.pods()).isEmpty();
        assertThat(out.podGroups()).isEmpty();
        assertThat(out.findings()).anyMatch(f -> f.reason().reason().equals("WaitingForRoleSets"));
    }

    @Test
    void withItsExpansionTheStormServiceRendersItsPodGroupAndTiedPods() {
        List<HasMetadata> inputs = inputs();
        Expansion.Result expansion = Kinds.expansion().expand(inputs, Expansion.Limits.DEFAULT);
        List<HasMetadata> all = new ArrayList<>(inputs);
        all.addAll(expansion.created());

        RenderOutput out = render(all);

        assertThat(out.rejected()).isFalse();
        assertThat(out.findings()).noneMatch(f -> f.reason().reason().equals("WaitingForRoleSets"));
        String roleSet = expansion.created().stream()
                .filter(o -> o.getKind().equals("RoleSet"))
                .findFirst()
                .orElseThrow()
                .getMetadata()
                .getName();
        assertThat(out.podGroups()).extracting(DesiredPodGroup::name).hasSize(1);
        DesiredPodGroup podGroup = out.podGroups().get(0);
        assertThat(podGroup.namespace()).isEqualTo("inference");
        assertThat(podGroup.spec().getMinMember()).as("2 PodSets of 2 pods").isEqualTo(4);
        assertThat(podGroup.spec().getNetworkTopology()).as("highest-tier leaf").isNotNull();

        assertThat(out.pods()).hasSize(4);
        Map<String, String> groupOf = out.pods().stream()
                .collect(Collectors.toMap(
                        p -> p.getMetadata().getName(),
                        p -> p.getMetadata().getAnnotations().get("scheduling.k8s.io/group-name")));
        assertThat(groupOf.values()).as("every pod tied to the gang").containsOnly(podGroup.name());
        for (Pod pod : out.pods()) {
            assertThat(pod.getMetadata().getLabels())
                    .containsEntry("roleset-name", roleSet)
                    .containsKey("stormservice.orchestration.aibrix.ai/podset-name");
        }
        System.out.printf(
                "render with expansion: %s -> PodGroup %s (minMember %d), pods %s%n",
                roleSet, podGroup.name(), podGroup.spec().getMinMember(), groupOf.keySet());
    }
}

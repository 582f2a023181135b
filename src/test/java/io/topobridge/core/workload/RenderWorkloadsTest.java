package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.testing.Renderers;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code render} runs the same translator: it prints the PodGroups and refuses (exit 1) on a bad workload. */
class RenderWorkloadsTest {

    @Test
    void renderPrintsPodGroupsAndReportsRefusals() {
        var inputs = Fixtures.objects(
                WorkloadTranslatorTest.deployment("ns", "soft", 2, Map.of("topobridge.io/mode", "soft")) + "---\n"
                        + WorkloadTranslatorTest.deployment("ns", "bad", 2, Map.of("topobridge.io/mode", "sometimes")));
        RenderOutput out = Renderers.of(
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(inputs);
        assertThat(out.podGroups()).extracting(DesiredPodGroup::name).containsExactly("tb-deploy-soft");
        assertThat(out.rejected()).isTrue();
        assertThat(out.findings())
                .anySatisfy(f -> assertThat(f.line())
                        .contains("Deployment/ns/bad")
                        .contains("topobridge.io/mode=\"sometimes\""));
    }
}

package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.admission.JsonPatch;
import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.admission.Rfc6902;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.testing.Renderers;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code render} shows each input Pod as admitted, and that pod is exactly what the webhook's JSON patch makes
 * of the same pod: both run {@link PodAdmission}.
 */
class RenderMatchesWebhookTest {

    private static final Path INPUT = Path.of("src/test/resources/golden/admission/llm-d-pair-pods");

    @Test
    void renderedPodsEqualThePodsTheWebhookAdmits() {
        List<HasMetadata> inputs =
                new ManifestReader(Reviews.SERIALIZATION).read(List.of(INPUT)).objects();
        RenderOutput rendered = Renderers.of(
                        TopologySettings.parse("auto", List.of()),
                        Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(inputs);
        Map<String, Pod> byName = rendered.pods().stream()
                .collect(java.util.stream.Collectors.toMap(p -> p.getMetadata().getName(), p -> p));
        assertThat(byName)
                .containsOnlyKeys("qwen-prefill-7c9d5-abcde", "qwen-decode-5f6b8-fghij", "gateway-6d8f9-klmno");

        var mutator = new PodMutator(
                new PodAdmission(
                        new AdmissionSettings("volcano"), Fixtures.translator(Fixtures.defaultSettings())::tie),
                new AdmissionWebhook.Context(
                        () -> TierCatalog.EMPTY,
                        new InMemoryLookup(inputs),
                        Reviews.SERIALIZATION,
                        Set.of("kube-system")));
        for (HasMetadata input : inputs) {
            if (!(input instanceof Pod pod)) {
                continue;
            }
            ObjectNode review = Reviews.podCreate(pod.getMetadata().getNamespace(), pod);
            AdmissionRequest request =
                    Reviews.parse(review.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            AdmissionAnswer answer = mutator.review(request);
            JsonNode viaWebhook = Rfc6902.apply(JsonPatch.toJson(answer.patch()), request.object());
            assertThat(viaWebhook)
                    .as(pod.getMetadata().getName())
                    .isEqualTo(Reviews.toJson(byName.get(pod.getMetadata().getName())));
        }

        Pod prefill = byName.get("qwen-prefill-7c9d5-abcde");
        Pod decode = byName.get("qwen-decode-5f6b8-fghij");
        assertThat(prefill.getMetadata().getAnnotations())
                .containsEntry(VolcanoApi.GROUP_NAME_ANNOTATION, "tb-group-qwen-pd");
        assertThat(decode.getMetadata().getAnnotations())
                .containsEntry(VolcanoApi.GROUP_NAME_ANNOTATION, "tb-group-qwen-pd")
                .containsEntry("prometheus.io/scrape", "true");
        assertThat(prefill.getMetadata().getAnnotations().get(VolcanoApi.TASK_SPEC_ANNOTATION))
                .isNotEqualTo(decode.getMetadata().getAnnotations().get(VolcanoApi.TASK_SPEC_ANNOTATION));
        assertThat(prefill.getMetadata().getLabels()).containsKey("topobridge.io/member");
        assertThat(prefill.getSpec().getSchedulerName()).isEqualTo("volcano");
        assertThat(decode.getSpec().getSchedulerName()).isEqualTo("volcano");
        assertThat(rendered.podGroups()).extracting(p -> p.name()).contains("tb-group-qwen-pd");
        assertThat(byName.get("gateway-6d8f9-klmno").getMetadata().getAnnotations())
                .isNullOrEmpty();
        assertThat(byName.get("gateway-6d8f9-klmno").getSpec().getSchedulerName())
                .isNull();
    }
}

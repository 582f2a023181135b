package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.topobridge.core.workload.gang.PodGroupNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the workloads' own controllers would create, for tests without them: AIBrix's RoleSets for a
 * StormService ({@code <stormservice>-roleset-<5 chars>}, the template's labels and annotations, the
 * {@code storm-service-name} label, the StormService as controller). Names are deterministic here.
 */
public final class ControllersSimulation {

    private ControllersSimulation() {
    }

    @SuppressWarnings("unchecked")
    public static List<HasMetadata> roleSets(HasMetadata stormService) {
        var storm = (GenericKubernetesResource) stormService;
        Map<String, Object> spec = (Map<String, Object>) storm.getAdditionalProperties().get("spec");
        Map<String, Object> template = (Map<String, Object>) spec.getOrDefault("template", Map.of());
        Map<String, Object> templateMeta = (Map<String, Object>) template.getOrDefault("metadata", Map.of());
        int replicas = spec.get("replicas") == null ? 1 : ((Number) spec.get("replicas")).intValue();
        List<HasMetadata> out = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            String suffix = PodGroupNames.bounded("x", "-" + storm.getMetadata().getName() + i);
            String random = suffix.substring(suffix.length() - 5).replaceAll("[^a-z0-9]", "b");
            String name = storm.getMetadata().getName() + "-roleset-" + random;
            var labels = new LinkedHashMap<String, String>((Map<String, String>) templateMeta.getOrDefault("labels", Map.of()));
            labels.put("storm-service-name", storm.getMetadata().getName());
            var annotations = new LinkedHashMap<String, String>(
                    (Map<String, String>) templateMeta.getOrDefault("annotations", Map.of()));
            annotations.put("stormservice.orchestration.aibrix.ai/roleset-index", String.valueOf(i));
            var roleSet = new GenericKubernetesResource();
            roleSet.setApiVersion("orchestration.aibrix.ai/v1alpha1");
            roleSet.setKind("RoleSet");
            roleSet.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(storm.getMetadata().getNamespace())
                    .withUid("uid-roleset-" + name).withLabels(labels).withAnnotations(annotations)
                    .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(storm.getApiVersion())
                            .withKind("StormService").withName(storm.getMetadata().getName())
                            .withUid(storm.getMetadata().getUid()).withController(true).build())
                    .build());
            roleSet.setAdditionalProperty("spec", template.get("spec"));
            out.add(roleSet);
        }
        return out;
    }
}

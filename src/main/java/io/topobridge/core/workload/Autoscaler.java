package io.topobridge.core.workload;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.finding.ObjectRef;
import java.util.Objects;
import java.util.Optional;

/**
 * What an autoscaler may do to a workload: scale {@code target} (and, for AIBrix, one role of it) up to
 * {@code maxReplicas}. Read from a HorizontalPodAutoscaler ({@code autoscaling/v2}, or v1: {@code spec.scaleTargetRef},
 * {@code spec.maxReplicas}) or an AIBrix PodAutoscaler ({@code autoscaling.aibrix.ai/v1alpha1}: the same two fields,
 * and {@code spec.subTargetSelector.roleName} naming a role of a StormService, which it then scales in the
 * StormService's template, unless the StormService is in {@code Replica} mode: its {@code spec.mode}, or where that
 * is unset the PodAutoscaler's deprecated annotation {@code autoscaling.aibrix.ai/storm-service-mode: replica}, and it
 * scales the StormService's RoleSets instead).
 *
 * @param ref the autoscaler itself
 * @param targetKind the kind its {@code scaleTargetRef} names
 * @param targetGroup the API group of that kind ({@code ""} for the core group)
 * @param targetName the name its {@code scaleTargetRef} names (in the autoscaler's namespace)
 * @param role the role of the target it names ({@code subTargetSelector.roleName}), or null when it scales the target
 *     as a whole
 * @param maxReplicas the most replicas it may set
 * @param replicaModeAnnotated whether it carries {@code autoscaling.aibrix.ai/storm-service-mode: replica} (AIBrix
 *     follows it only when the StormService has no {@code spec.mode})
 */
public record Autoscaler(
        ObjectRef ref,
        String targetKind,
        String targetGroup,
        String targetName,
        String role,
        int maxReplicas,
        boolean replicaModeAnnotated) {

    public static final String HPA_KIND = "HorizontalPodAutoscaler";
    public static final String AIBRIX_KIND = "PodAutoscaler";
    public static final String AIBRIX_GROUP = "autoscaling.aibrix.ai";
    public static final String AIBRIX_VERSION = "v1alpha1";
    public static final String AIBRIX_PLURAL = "podautoscalers";
    /** The CRD of AIBrix's PodAutoscaler, optional like AIBrix itself. */
    public static final String AIBRIX_CRD = AIBRIX_PLURAL + "." + AIBRIX_GROUP;
    /** AIBrix: a PodAutoscaler so annotated scales a StormService's replicas (its RoleSets), not a role in each. */
    public static final String AIBRIX_MODE_ANNOTATION = "autoscaling.aibrix.ai/storm-service-mode";

    private static final ObjectMapper MAPPER =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public Autoscaler {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(targetKind, "targetKind");
        Objects.requireNonNull(targetGroup, "targetGroup");
        Objects.requireNonNull(targetName, "targetName");
    }

    /** {@code HorizontalPodAutoscaler decode-hpa}. */
    public String describe() {
        return ref.kind() + " " + ref.name();
    }

    public boolean targets(String group, String kind, String name) {
        return targetGroup.equals(group) && targetKind.equals(kind) && targetName.equals(name);
    }

    /**
     * The autoscaler an object is, if it is one whose target and maximum can be read; an autoscaler written wrong (no
     * target, a maximum below 1) scales nothing the bridge could judge and is passed over.
     */
    public static Optional<Autoscaler> of(HasMetadata object) {
        if (object == null
                || object.getMetadata() == null
                || object.getMetadata().getName() == null) {
            return Optional.empty();
        }
        String apiVersion = Objects.requireNonNullElse(object.getApiVersion(), "");
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        boolean hpa = HPA_KIND.equals(object.getKind()) && group.equals("autoscaling");
        boolean aibrix = AIBRIX_KIND.equals(object.getKind()) && group.equals(AIBRIX_GROUP);
        if (!hpa && !aibrix) {
            return Optional.empty();
        }
        JsonNode spec = spec(object);
        JsonNode target = spec.path("scaleTargetRef");
        String kind = target.path("kind").asText("");
        String name = target.path("name").asText("");
        JsonNode max = spec.path("maxReplicas");
        if (kind.isEmpty() || name.isEmpty() || !max.canConvertToInt() || max.asInt() < 1) {
            return Optional.empty();
        }
        String targetApiVersion = target.path("apiVersion").asText("");
        String targetGroup =
                targetApiVersion.contains("/") ? targetApiVersion.substring(0, targetApiVersion.indexOf('/')) : "";
        String role = aibrix ? spec.path("subTargetSelector").path("roleName").asText("") : "";
        var annotations = object.getMetadata().getAnnotations();
        boolean replicaMode =
                aibrix && annotations != null && "replica".equals(annotations.get(AIBRIX_MODE_ANNOTATION));
        return Optional.of(new Autoscaler(
                ObjectRef.of(object), kind, targetGroup, name, role.isEmpty() ? null : role, max.asInt(), replicaMode));
    }

    private static JsonNode spec(HasMetadata object) {
        Object raw = object instanceof GenericKubernetesResource generic
                ? generic.getAdditionalProperties().get("spec")
                : MAPPER.valueToTree(object).get("spec");
        JsonNode spec = raw == null ? null : MAPPER.valueToTree(raw);
        return spec == null ? MAPPER.createObjectNode() : spec;
    }
}

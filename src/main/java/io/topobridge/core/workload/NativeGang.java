package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.finding.UserText;
import java.util.Map;
import java.util.Optional;

/**
 * A pod already in a Kubernetes gang of its own: the gang scheduling of Kubernetes' workload API (KEP-4671, with
 * KEP-5832's standalone PodGroup: alpha in 1.36, feature gate {@code GenericWorkload}), where kube-scheduler gangs the
 * pods that name a PodGroup in {@code spec.schedulingGroup.podGroupName}; and its 1.35 alpha, where a pod named its
 * Workload and the pod group in it in {@code spec.workloadRef} ({@code name}, {@code podGroup}). Such a pod must not
 * also be tied to a Volcano PodGroup: it would then be in two gangs, and neither scheduler would gang it. The fabric8
 * model of this release predates both fields: they are read from the pod spec's additional properties.
 *
 * @param field the pod spec field that holds the gang ({@code schedulingGroup} or {@code workloadRef})
 * @param gang what it names, for messages ({@code PodGroup "x"}, {@code pod group "p" of Workload "w"})
 */
public record NativeGang(String field, String gang) {

    public static final String SCHEDULING_GROUP = "schedulingGroup";
    public static final String WORKLOAD_REF = "workloadRef";

    public static Optional<NativeGang> of(Pod pod) {
        Map<String, Object> extra =
                pod == null || pod.getSpec() == null ? null : pod.getSpec().getAdditionalProperties();
        if (extra == null || extra.isEmpty()) {
            return Optional.empty();
        }
        String podGroup = text(extra.get(SCHEDULING_GROUP), "podGroupName");
        if (podGroup != null) {
            return Optional.of(new NativeGang(SCHEDULING_GROUP, "PodGroup " + UserText.quote(podGroup)));
        }
        String workload = text(extra.get(WORKLOAD_REF), "name");
        if (workload != null) {
            String group = text(extra.get(WORKLOAD_REF), "podGroup");
            return Optional.of(new NativeGang(
                    WORKLOAD_REF,
                    (group == null ? "" : "pod group " + UserText.quote(group) + " of ") + "Workload "
                            + UserText.quote(workload)));
        }
        return Optional.empty();
    }

    /** {@code spec.schedulingGroup (PodGroup "x")}. */
    public String describe() {
        return "spec." + field + " (" + gang + ")";
    }

    /** A non-blank string field of an object, as JSON gives it (a map); null otherwise. */
    private static String text(Object object, String field) {
        if (!(object instanceof Map<?, ?> map)) {
            return null;
        }
        Object value = map.get(field);
        return value instanceof String s && !s.isBlank() ? s : null;
    }
}

package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.resources.Quantities;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.model.SubGroupPolicySpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Pods and PodGroups, cached or read from the API server, as the pure core reads them: a PodView, a GangView. */
public final class CoreViews {

    /** Any pod, as read from the API server, as the core reads it (its effective requests summed first). */
    public static PodView fromPod(Pod pod) {
        return podView(SlimPodStore.slim(pod));
    }

    /** A pod of the cache (requests already folded into its one container) as the core reads it. */
    static PodView podView(Pod pod) {
        Map<String, BigDecimal> requests = new TreeMap<>();
        var containers = pod.getSpec().getContainers();
        if (containers != null
                && !containers.isEmpty()
                && containers.get(0).getResources() != null
                && containers.get(0).getResources().getRequests() != null) {
            containers.get(0).getResources().getRequests().forEach((k, v) -> requests.put(k, Quantities.amount(v)));
        }
        return new PodView(
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                pod.getSpec().getNodeName(),
                new Amounts(requests),
                pod.getMetadata().getLabels(),
                annotation(pod, VolcanoApi.TASK_SPEC_ANNOTATION),
                annotation(pod, VolcanoApi.GROUP_NAME_ANNOTATION),
                SlimPodStore.coreTolerations(pod),
                WorkloadSettings.timestamp(pod.getMetadata().getCreationTimestamp())
                        .orElse(null),
                pod.getMetadata().getDeletionTimestamp() != null,
                pod.getMetadata().getUid());
    }

    static String annotation(HasMetadata object, String key) {
        Map<String, String> a = object.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    /** A PodGroup with the given pods, as the core reads a gang. */
    public static GangView gang(PodGroup pg, List<PodView> pods) {
        var spec = pg.getSpec();
        var status = pg.getStatus();
        Map<String, BigDecimal> minResources = new TreeMap<>();
        if (spec != null && spec.getMinResources() != null) {
            spec.getMinResources().forEach((k, v) -> {
                try {
                    minResources.put(k, Quantities.amount(new io.fabric8.kubernetes.api.model.Quantity(v)));
                } catch (IllegalArgumentException e) {
                    // a quantity the API server kept but no one can read counts as nothing
                }
            });
        }
        String mode = null;
        Integer tier = null;
        if (spec != null && spec.getNetworkTopology() != null) {
            var nt = spec.getNetworkTopology();
            mode = nt.getMode() == null ? "hard" : nt.getMode().value();
            tier = nt.getHighestTierAllowed();
        }
        List<GangView.SubGroup> subGroups = spec == null || spec.getSubGroupPolicy() == null
                ? List.of()
                : spec.getSubGroupPolicy().stream().map(CoreViews::subGroup).toList();
        List<GangView.Condition> conditions = status == null || status.getConditions() == null
                ? List.of()
                : status.getConditions().stream()
                        .map(c -> new GangView.Condition(
                                c.getType(), c.getStatus(), c.getReason(), c.getMessage(), c.getLastTransitionTime()))
                        .toList();
        Map<String, String> annotations =
                Objects.requireNonNullElse(pg.getMetadata().getAnnotations(), Map.of());
        return new GangView(
                pg.getMetadata().getNamespace(),
                pg.getMetadata().getName(),
                annotations.get(io.topobridge.core.workload.gang.PodGroupBuilder.GANG_ANNOTATION),
                status == null || status.getPhase() == null
                        ? ""
                        : status.getPhase().value(),
                spec == null || spec.getMinMember() == null ? 1 : spec.getMinMember(),
                new Amounts(minResources),
                mode,
                tier,
                subGroups,
                conditions,
                WorkloadSettings.timestamp(pg.getMetadata().getCreationTimestamp())
                        .orElse(null),
                pods,
                annotations.get(io.topobridge.core.Topobridge.CHOSEN_TIER),
                io.topobridge.core.workload.dra.DraDevices.parseAnnotation(
                        annotations.get(io.topobridge.core.Topobridge.DRA_DEVICES)));
    }

    private static GangView.SubGroup subGroup(SubGroupPolicySpec p) {
        LabelSelector selector = p.getLabelSelector();
        List<GangView.Requirement> expressions = selector == null || selector.getMatchExpressions() == null
                ? List.of()
                : selector.getMatchExpressions().stream()
                        .map(r -> new GangView.Requirement(r.getKey(), r.getOperator(), r.getValues()))
                        .toList();
        Integer tier =
                p.getNetworkTopology() == null ? null : p.getNetworkTopology().getHighestTierAllowed();
        return new GangView.SubGroup(
                p.getName(),
                selector == null ? null : selector.getMatchLabels(),
                expressions,
                p.getMatchLabelKeys(),
                tier);
    }
}

package io.topobridge.core.workload.kind;

import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import java.util.List;
import java.util.Map;

/**
 * What one workload contributes to a gang it shares with others (a {@code topobridge.io/group}): its pods,
 * its subgroups, and the labels admission must add to its pods for those subgroups to select them.
 */
public record Member(List<PodRole> roles, List<SubGroupPlan> subGroups, Map<String, String> podLabels) {
    public Member {
        roles = List.copyOf(roles);
        subGroups = List.copyOf(subGroups);
        podLabels = Map.copyOf(podLabels);
    }
}

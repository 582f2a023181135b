package io.topobridge.core.workload.kind;

import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import java.util.List;

/**
 * What one workload contributes to a gang it shares with others (a {@code topobridge.io/group}): its pods (whose
 * roles carry the labels admission adds for the group's subgroups to tell members apart) and its subgroups.
 */
public record Member(List<PodRole> roles, List<SubGroupPlan> subGroups) {
    public Member {
        roles = List.copyOf(roles);
        subGroups = List.copyOf(subGroups);
    }
}

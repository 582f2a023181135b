package io.topobridge.core.workload.kind;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.gang.SubGroupPlan;
import java.util.List;

/**
 * What one workload contributes to a gang it shares with others (a {@code topobridge.io/group}): its pods (whose
 * roles carry the labels admission adds for the group's subgroups to tell members apart) and its subgroups.
 */
public record Member(List<PodRole> roles, List<SubGroupPlan> subGroups, List<Finding> notes, boolean surgeOnlyRollout) {
    public Member {
        roles = List.copyOf(roles);
        subGroups = List.copyOf(subGroups);
        notes = List.copyOf(notes);
    }

    /** What a workload scaled to nothing contributes. */
    public static final Member NONE = new Member(List.of(), List.of(), List.of(), false);
}

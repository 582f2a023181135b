package io.topobridge.core.workload.gang;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One PodGroup as a kind adapter sees it, before annotations are applied: its name, who owns it, the pods
 * it gangs and its subgroups. {@code level} says which tier governs its {@code networkTopology}: the gang's,
 * or (for a per-group PodGroup another controller made inside a wider gang) the subgroup's.
 * {@code surgeOnlyRollout}: the workload's rollouts add pods before taking any down. Its {@code minMember} is the
 * pods that exist when it starts (see {@link PodRole#atStart()}). Every plan, adopted
 * ones too, counts its pods by role, and admission ties a pod to the plan whose role selects it. {@code labels} go on
 * an owned PodGroup besides the bridge's own (what identifies the gang, e.g. an LWS group's key).
 */
public record GangPlan(
        GangScope scope,
        String name,
        DesiredPodGroup.Ownership ownership,
        List<OwnerReference> owners,
        List<PodRole> roles,
        List<SubGroupPlan> subGroups,
        Level level,
        boolean surgeOnlyRollout,
        Map<String, String> labels) {

    /** Which of the intent's tiers constrains this PodGroup as a whole. */
    public enum Level {
        GANG,
        SUBGROUP
    }

    public GangPlan {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(ownership, "ownership");
        Objects.requireNonNull(level, "level");
        owners = owners == null ? List.of() : List.copyOf(owners);
        roles = roles == null ? List.of() : List.copyOf(roles);
        subGroups = subGroups == null ? List.of() : List.copyOf(subGroups);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    public static GangPlan owned(
            GangScope scope,
            String name,
            List<OwnerReference> owners,
            List<PodRole> roles,
            List<SubGroupPlan> subGroups) {
        return new GangPlan(
                scope, name, DesiredPodGroup.Ownership.OWNED, owners, roles, subGroups, Level.GANG, false, null);
    }

    public static GangPlan adopted(
            GangScope scope, String name, List<PodRole> roles, List<SubGroupPlan> subGroups, Level level) {
        return new GangPlan(
                scope, name, DesiredPodGroup.Ownership.ADOPTED, List.of(), roles, subGroups, level, false, null);
    }

    /**
     * The same plan for a workload whose rollouts add pods before taking any down ({@code maxUnavailable: 0}): under a
     * hard tier each new pod must find room in the domain the gang already runs in.
     */
    public GangPlan withSurgeOnlyRollout(boolean value) {
        return new GangPlan(scope, name, ownership, owners, roles, subGroups, level, value, labels);
    }

    /** The same plan with {@code value} as its subgroups. */
    public GangPlan withSubGroups(List<SubGroupPlan> value) {
        return new GangPlan(scope, name, ownership, owners, roles, value, level, surgeOnlyRollout, labels);
    }

    /** The same plan whose owned PodGroup also carries {@code value} as labels. */
    public GangPlan withLabels(Map<String, String> value) {
        return new GangPlan(scope, name, ownership, owners, roles, subGroups, level, surgeOnlyRollout, value);
    }

    /** The role of this plan a pod belongs to, if it is one of the plan's pods. */
    public Optional<PodRole> roleOf(PodIdentity pod) {
        return roles.stream().filter(r -> r.selector().covers(pod)).findFirst();
    }
}

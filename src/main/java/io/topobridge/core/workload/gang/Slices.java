package io.topobridge.core.workload.gang;

import io.topobridge.core.Topobridge;
import io.topobridge.core.resources.PodRequests;
import java.util.List;
import java.util.Map;

/**
 * A gang cut into slices (other schedulers' slices and segments): its pods, by their index, into subgroups of a size.
 * Volcano forms subgroups from equal label values, so admission gives each pod the label {@value #LABEL} with its
 * index divided by the size; the policy selects pods that carry both their index and that label.
 */
public final class Slices {

    /** The label admission gives each pod of a sliced gang: its slice number. */
    public static final String LABEL = Topobridge.PREFIX + "slice";

    private static final String NAME = "slices";

    /**
     * The plan with its pods cut into slices of {@code size} by their index under {@code indexLabel}, in place of its
     * own subgroups; subgroups it already has of exactly that size (a LeaderWorkerSet's own) already are the slices.
     */
    public static GangPlan cut(GangPlan plan, int size, String indexLabel) {
        if (!plan.subGroups().isEmpty()
                && plan.subGroups().stream().allMatch(s -> s.size() == size && !s.wholeRole())) {
            return plan;
        }
        boolean bestEffort = plan.roles().stream()
                .allMatch(r -> r.count() == 0 || r.spec() == null || PodRequests.isBestEffort(r.spec()));
        var slices = new SubGroupPlan(
                        NAME, Map.of(), List.of(indexLabel, LABEL), Map.of(), List.of(LABEL), size, false, false)
                .bestEffort(bestEffort);
        return plan.withSubGroups(List.of(slices));
    }

    /**
     * The slice label admission gives a pod of {@code plan}: its index (its index label, else the index its workload's
     * controller gives it) divided by the slice size. Empty when the plan is not sliced or the index is unknown.
     */
    public static Map<String, String> podLabels(GangPlan plan, Map<String, String> podLabels, PodIdentity pod) {
        for (SubGroupPlan sub : plan.subGroups()) {
            if (!NAME.equals(sub.name()) || !sub.matchLabelKeys().equals(List.of(LABEL))) {
                continue;
            }
            String raw = podLabels.get(sub.existsKeys().get(0));
            String value = raw != null ? raw : pod.get(PodIdentity.INDEX);
            long index = value != null && value.matches("[0-9]{1,9}") ? Long.parseLong(value) : -1;
            return index < 0 ? Map.of() : Map.of(LABEL, String.valueOf(index / sub.size()));
        }
        return Map.of();
    }
}

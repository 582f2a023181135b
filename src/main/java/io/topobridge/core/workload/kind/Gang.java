package io.topobridge.core.workload.kind;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.workload.annotation.AnnotationSource;
import io.topobridge.core.workload.gang.GangPlan;
import io.topobridge.core.workload.gang.PodIdentity;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * One set of annotation sources and the PodGroups they govern, as an adapter hands it to the translator: a
 * workload, a group, one RoleSet of a StormService. {@code subjects} are the workloads findings are reported on;
 * {@code covers} holds the facts shared by every pod of the gang (so admission picks the gang of a pod);
 * a {@code preview} gang is checked like the others but its PodGroups are not made (the RoleSet AIBrix will make
 * next from a StormService's template). Plans are computed only once the annotations are known to be valid.
 */
public record Gang(
        List<AnnotationSource> sources, List<ObjectRef> subjects, PodIdentity covers, Plans plans, boolean preview) {

    public Gang {
        sources = List.copyOf(sources);
        subjects = List.copyOf(subjects);
        Objects.requireNonNull(covers, "covers");
        Objects.requireNonNull(plans, "plans");
    }

    /**
     * Plans from one function of a pod known to exist: listing passes none; admission passes the pod's facts, so
     * the plan that counts the pod is computed the same way even where the cache lags behind the pod (a group
     * index beyond the replicas it shows, a workload it still shows scaled to zero).
     */
    public static Plans keyed(BiFunction<PodIdentity, List<Finding>, List<GangPlan>> plans) {
        return (present, onlyPresent, notes) -> plans.apply(present, notes);
    }

    /** The first gang that is made (not a preview) and whose shared facts a pod with these facts has. */
    public static Optional<Gang> covering(List<Gang> gangs, PodIdentity pod) {
        return gangs.stream()
                .filter(g -> !g.preview() && g.covers().covers(pod))
                .findFirst();
    }

    /**
     * The PodGroups of a gang, from one function that builds either every plan ({@code onlyPresent} false) or only
     * the plan of the pod given ({@code onlyPresent} true): for gangs keyed by a pod's place (LWS groups, slices)
     * admission then costs one plan, however many the workload has.
     */
    @FunctionalInterface
    public interface Plans {
        /**
         * @param present a pod known to exist, or {@link PodIdentity#NONE}
         * @param onlyPresent whether only the plan counting {@code present} is wanted (where its place is known)
         * @param notes collects what was noticed while planning
         */
        List<GangPlan> plans(PodIdentity present, boolean onlyPresent, List<Finding> notes);

        default List<GangPlan> all(List<Finding> notes) {
            return plans(PodIdentity.NONE, false, notes);
        }

        /** The plan whose role counts a pod with these facts. */
        default Optional<GangPlan> of(PodIdentity pod, List<Finding> notes) {
            return plans(pod, true, notes).stream()
                    .filter(p -> p.roleOf(pod).isPresent())
                    .findFirst();
        }
    }
}

package io.topobridge.core.workload.kind;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.resources.ResourceSum;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.GangScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The parts of a gang an autoscaler grows: a Deployment or StatefulSet of the gang (alone or in a
 * {@code topobridge.io/group}), a LeaderWorkerSet in a group, a DisaggregatedSet role with {@code scaling.mode:
 * External} (its HorizontalPodAutoscaler targets the role's {@code DisaggregatedSetRoleScaler}, named
 * {@code <set>-<role>}, LWS v0.10), or an AIBrix StormService role a PodAutoscaler scales inside each RoleSet. Each
 * comes with what one more replica adds to every PodGroup of the gang and how many replicas it has now. An
 * autoscaler that adds gangs rather than growing one (of a LeaderWorkerSet of its own: one gang per group; of a
 * StormService's RoleSets) grows no gang and is not listed.
 */
public final class ScaledRoles {

    /**
     * One scaled part of a gang.
     *
     * @param autoscaler what scales it
     * @param subject the workload findings about it are reported on
     * @param what the part, for messages ({@code Deployment decode}, {@code role decode})
     * @param perReplica the requests one more replica adds
     * @param current its replicas now (what the gang's PodGroups count)
     */
    public record Unit(Autoscaler autoscaler, ObjectRef subject, String what, Amounts perReplica, long current) {
        public Unit {
            Objects.requireNonNull(autoscaler, "autoscaler");
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(what, "what");
            Objects.requireNonNull(perReplica, "perReplica");
        }
    }

    /** The parts of the scope's gangs the given autoscalers (of the scope's namespace) scale. */
    public static List<Unit> of(GangScope scope, List<Autoscaler> autoscalers, Snapshot snapshot) {
        List<Unit> out = new ArrayList<>();
        for (Autoscaler autoscaler : autoscalers) {
            try {
                // at most one kind is the autoscaler's target
                snapshot.adapters()
                        .first(adapter -> adapter.scaledPart(autoscaler, scope, snapshot))
                        .ifPresent(out::add);
            } catch (RuntimeException e) {
                // an unreadable workload is reported by its own translation
            }
        }
        return out;
    }

    public static ResourceSum requests(PodTemplateSpec template) {
        return PodRequests.of(template == null ? null : template.getSpec());
    }

    /** {@code times} pods of {@code one} as amounts. */
    public static Amounts amounts(ResourceSum one, long times) {
        return Amounts.parse(new ResourceSum().add(one, times).canonical());
    }
}

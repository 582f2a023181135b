package io.topobridge.core.expand;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.finding.Finding;
import java.util.List;

/**
 * Workloads expanded, offline, into the objects their controllers make: an AIBrix StormService into its RoleSets,
 * a RoleSet into its PodSets and pods, a PodSet into its pods (AIBrix v0.7.0); a LeaderWorkerSet into its leader
 * StatefulSet, leader pods, worker StatefulSets and worker pods, and a DisaggregatedSet into its LeaderWorkerSets
 * (LWS v0.9.0, with its pod webhook's labels); a Deployment into its ReplicaSet and pods, and a StatefulSet or
 * ReplicaSet into its pods (Kubernetes v1.35). Names, labels, annotations and owner references are the controllers'
 * own; values they pick at random or hash from Go structures are deterministic stand-ins of the same shape, listed
 * in {@link Result#generated()} and named in a note.
 *
 * <p>Objects already in the input are kept and never made twice: a controller only makes what it does not see. The
 * output is bounded by {@link Limits}: a workload's objects are made gang by gang until its cap (or the total cap)
 * is reached, with a note naming it; every other workload is still expanded.
 */
public final class Expansion {

    /**
     * Caps on the objects made: per input workload (counting everything below it) and in total. A gang (a RoleSet,
     * an LWS group) is made whole or not at all.
     */
    public record Limits(long objectsPerWorkload, long objectsTotal) {

        public static final Limits DEFAULT = new Limits(1000, 10_000);

        public Limits {
            if (objectsPerWorkload < 0 || objectsTotal < 0) {
                throw new IllegalArgumentException("expansion limits must be 0 or more: per workload "
                        + objectsPerWorkload + ", in total " + objectsTotal);
            }
        }
    }

    /**
     * What the expansion made: the created objects in the order the controllers make them (parents before their
     * children), the notes (generated values, caps, what could not be expanded) and the generated values the created
     * objects hold.
     */
    public record Result(List<HasMetadata> created, List<Finding> notes, List<Generated> generated) {
        public Result {
            created = List.copyOf(created);
            notes = List.copyOf(notes);
            generated = List.copyOf(generated);
        }
    }

    private final List<Controller> controllers;
    private final List<PodDefaulter> podDefaulters;

    /**
     * @param controllers the controllers that reconcile workloads and what they make (at most one acts on an object)
     * @param podDefaulters the admission webhooks every created pod passes, in order
     */
    public Expansion(List<Controller> controllers, List<PodDefaulter> podDefaulters) {
        this.controllers = List.copyOf(controllers);
        this.podDefaulters = List.copyOf(podDefaulters);
    }

    /** Expands every input workload; never throws for any input (what cannot be expanded is a note). */
    public Result expand(List<? extends HasMetadata> inputs, Limits limits) {
        Context ctx = new Context(limits, controllers, podDefaulters);
        List<HasMetadata> usable = inputs == null
                ? List.of()
                : inputs.stream()
                        .filter(Expansion::usable)
                        .map(o -> (HasMetadata) o)
                        .toList();
        usable.forEach(ctx.index::add);
        usable.forEach(ctx::expandRoot);
        return ctx.result();
    }

    private static boolean usable(HasMetadata object) {
        return object != null
                && object.getKind() != null
                && object.getMetadata() != null
                && object.getMetadata().getName() != null
                && !object.getMetadata().getName().isEmpty();
    }
}

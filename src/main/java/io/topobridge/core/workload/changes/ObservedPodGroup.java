package io.topobridge.core.workload.changes;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.Topobridge;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.PodGroupWithSpec;
import io.topobridge.volcano.model.PodGroupSpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A PodGroup as the cache shows it, reduced to what the planner decides on: whether the bridge made it
 * ({@code ours}), the gang scope it belongs to ({@code gang}, null when no scope claims it), and whether the bridge
 * still owns fields on it (a foreign PodGroup it adopted); {@code placement} holds the achieved-tier annotations it
 * carries now; {@code reserved} what it reserves ({@code minResources}, and its {@code minMember} as {@code pods})
 * with its priority class.
 */
public record ObservedPodGroup(
        String namespace,
        String name,
        boolean ours,
        GangScope gang,
        boolean ownsFields,
        String queue,
        Map<String, String> placement,
        Reservations.Reserved reserved) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public ObservedPodGroup {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        placement = placement == null ? Map.of() : Map.copyOf(placement);
        reserved = reserved == null ? new Reservations.Reserved(Amounts.NONE, null) : reserved;
    }

    /**
     * A PodGroup object as the planner sees it.
     *
     * @param ours whether the bridge made it ({@link Topobridge#managed(HasMetadata)})
     * @param owns whether the bridge holds fields on it though another controller made it
     * @param gang the scope it belongs to, or null
     */
    public static ObservedPodGroup of(HasMetadata pg, boolean ours, boolean owns, GangScope gang) {
        PodGroupSpec spec = spec(pg);
        return new ObservedPodGroup(
                pg.getMetadata().getNamespace(),
                pg.getMetadata().getName(),
                ours,
                gang,
                owns,
                spec == null ? null : spec.getQueue(),
                placement(pg.getMetadata().getAnnotations()),
                reserved(spec));
    }

    /**
     * A PodGroup an earlier scope of the same pass plans to write, as the planner will find it once written: what
     * later scopes of the pass count (a namespace's limit and reservations) before the writer has carried it out.
     */
    public static ObservedPodGroup planned(DesiredPodGroup desired, GangScope gang) {
        boolean owned = desired.ownership() == DesiredPodGroup.Ownership.OWNED;
        return new ObservedPodGroup(
                desired.namespace(),
                desired.name(),
                owned,
                gang,
                !owned,
                desired.spec().getQueue(),
                placement(desired.annotations()),
                owned
                        ? reserved(desired.spec())
                        : new Reservations.Reserved(Amounts.NONE, desired.spec().getPriorityClassName()));
    }

    /** Whether the bridge holds fields on the PodGroup (a server-side apply of its field manager). */
    public static boolean ownsFields(HasMetadata pg) {
        var managed = pg.getMetadata().getManagedFields();
        return managed != null
                && managed.stream()
                        .anyMatch(m ->
                                Topobridge.FIELD_MANAGER.equals(m.getManager()) && "Apply".equals(m.getOperation()));
    }

    /** The spec of a typed or generic PodGroup; null when it has none or it cannot be read. */
    static PodGroupSpec spec(HasMetadata pg) {
        return spec(pg, PodGroupWithSpec.class, PodGroupWithSpec::getSpec, PodGroupSpec.class);
    }

    /** The spec of an object of a {@code typed} class or a generic one; null when it has none or it cannot be read. */
    static <T, S> S spec(HasMetadata object, Class<T> typed, Function<T, S> typedSpec, Class<S> specType) {
        if (typed.isInstance(object)) {
            return typedSpec.apply(typed.cast(object));
        }
        if (object instanceof GenericKubernetesResource generic) {
            Object spec = generic.getAdditionalProperties().get("spec");
            try {
                return spec == null ? null : JSON.convertValue(spec, specType);
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return null;
    }

    /**
     * What a PodGroup reserves: its minResources, and its minMember as {@code pods} (unreadable amounts count as none),
     * with its priority class.
     */
    static Reservations.Reserved reserved(PodGroupSpec spec) {
        if (spec == null) {
            return new Reservations.Reserved(Amounts.NONE, null);
        }
        Map<String, BigDecimal> out = new TreeMap<>();
        if (spec.getMinResources() != null) {
            spec.getMinResources().forEach((resource, value) -> {
                try {
                    out.put(resource, io.topobridge.core.resources.Quantities.amount(value));
                } catch (IllegalArgumentException e) {
                    // a quantity no one can read reserves nothing the planner could count
                }
            });
        }
        if (spec.getMinMember() != null) {
            out.put(Reservations.PODS, BigDecimal.valueOf(spec.getMinMember()));
        }
        return new Reservations.Reserved(new Amounts(out), spec.getPriorityClassName());
    }

    private static Map<String, String> placement(Map<String, String> annotations) {
        Map<String, String> out = new TreeMap<>();
        for (String key : List.of(Topobridge.ACHIEVED_TIER, Topobridge.ACHIEVED_SUBGROUP_TIERS)) {
            if (annotations != null && annotations.containsKey(key)) {
                out.put(key, annotations.get(key));
            }
        }
        return out;
    }
}

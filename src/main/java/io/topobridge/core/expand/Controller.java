package io.topobridge.core.expand;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.workload.WorkloadKind;

/**
 * What one workload controller does to one object, offline: the children it creates for it (only those missing from
 * what it sees), as the controller's own reconcile would at the pinned version.
 */
public abstract class Controller {

    private final WorkloadKind kind;
    private final boolean divisible;

    /**
     * A controller of the objects of {@code kind} (any version of its group; null for one that overrides
     * {@link #actsOn}), whose children are a useful preview in part when {@code divisible}: a ReplicaSet's pods, a
     * StormService's RoleSets, but not a gang that is all or nothing (a RoleSet's pods, an LWS group).
     */
    protected Controller(WorkloadKind kind, boolean divisible) {
        this.kind = kind;
        this.divisible = divisible;
    }

    public boolean actsOn(HasMetadata object) {
        return WorkloadKind.of(object.getApiVersion(), object.getKind()).orElse(null) == kind;
    }

    /**
     * Creates the missing children of {@code object} through {@code sink}, stopping when the sink says no. A field it
     * cannot read is an {@link IllegalArgumentException} naming the field.
     */
    public abstract void reconcile(HasMetadata object, Context ctx, Sink sink);

    /**
     * How many objects this controller and those below it would create for {@code object} when nothing exists yet
     * (saturating at {@link Long#MAX_VALUE}): an upper bound of what {@link #reconcile} makes.
     */
    public abstract long weight(HasMetadata object, Context ctx);

    /** Whether part of this object's children is still a useful preview. */
    public final boolean divisible() {
        return divisible;
    }

    /** Where a controller hands the objects it creates. */
    public interface Sink {
        /** Creates {@code child}; false when no more may be created (the cap is reached): the controller stops. */
        boolean create(HasMetadata child);
    }
}

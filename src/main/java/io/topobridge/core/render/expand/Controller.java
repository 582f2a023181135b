package io.topobridge.core.render.expand;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * What one workload controller does to one object, offline: the children it creates for it (only those missing from
 * what it sees), as the controller's own reconcile would at the pinned version.
 */
public interface Controller {

    /** Whether this controller reconciles {@code object}. */
    boolean actsOn(HasMetadata object);

    /**
     * Creates the missing children of {@code object} through {@code sink}, stopping when the sink says no. A field it
     * cannot read is an {@link IllegalArgumentException} naming the field.
     */
    void reconcile(HasMetadata object, Context ctx, Sink sink);

    /**
     * How many objects this controller and those below it would create for {@code object} when nothing exists yet
     * (saturating at {@link Long#MAX_VALUE}): an upper bound of what {@link #reconcile} makes.
     */
    long weight(HasMetadata object, Context ctx);

    /**
     * Whether part of this object's children is still a useful preview (a ReplicaSet's pods, a StormService's
     * RoleSets); false for a gang that is all or nothing (a RoleSet's pods, an LWS group).
     */
    boolean divisible();

    /** Where a controller hands the objects it creates. */
    public interface Sink {
        /** Creates {@code child}; false when no more may be created (the cap is reached): the controller stops. */
        boolean create(HasMetadata child);
    }
}

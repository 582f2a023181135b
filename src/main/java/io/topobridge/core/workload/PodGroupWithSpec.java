package io.topobridge.core.workload;

import io.topobridge.volcano.model.PodGroupSpec;

/** A PodGroup object that hands out its spec typed (the controller's cached PodGroups are). */
public interface PodGroupWithSpec {

    /** The spec, or null. */
    PodGroupSpec getSpec();
}

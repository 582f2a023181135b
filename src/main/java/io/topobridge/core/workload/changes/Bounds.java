package io.topobridge.core.workload.changes;

import io.topobridge.core.capacity.Amounts;

/**
 * What bounds the PodGroups the bridge makes, so that whoever may create a workload cannot make it reserve what no
 * one could use, nor flood the API server.
 *
 * @param clusterAllocatable the allocatable resources of every node together, or null while unknown (nothing is
 *     judged then); a resource no node offers counts as zero
 * @param maxPerNamespace how many PodGroups the bridge may own in one namespace
 * @param reservations what the namespace's PodGroups may reserve together
 */
public record Bounds(Amounts clusterAllocatable, int maxPerNamespace, Reservations reservations) {

    public static final Bounds NONE = new Bounds(null, Integer.MAX_VALUE, Reservations.NONE);

    public Bounds {
        reservations = reservations == null ? Reservations.NONE : reservations;
        if (maxPerNamespace < 1) {
            throw new IllegalArgumentException("maxPerNamespace must be at least 1, not " + maxPerNamespace);
        }
    }
}

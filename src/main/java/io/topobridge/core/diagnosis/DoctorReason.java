package io.topobridge.core.diagnosis;

import io.topobridge.core.finding.Reason;

/** The reason of each doctor finding (one per kind of problem a check can find). */
public enum DoctorReason implements Reason {
    /** A Volcano CRD the bridge writes is missing. */
    VOLCANO_CRD_MISSING,
    /** A Volcano CRD lacks a field the bridge writes: Volcano is older than v1.14. */
    VOLCANO_CRD_TOO_OLD,
    /** The scheduler configuration lacks a plugin or flag topology-aware gangs need. */
    SCHEDULER_PLUGIN_MISSING,
    /**
     * The scheduler's actions lack one the installation guide recommends for gangs (enqueue, allocate, backfill), run
     * enqueue after allocate, or are unknown or absent, so Volcano refuses the whole configuration.
     */
    SCHEDULER_ACTION_MISSING,
    /** The scheduler configuration cannot be found or read. */
    SCHEDULER_CONFIG_UNKNOWN,
    /** Volcano's own label discovery makes HyperNodes from labels the bridge reads too. */
    LABEL_DISCOVERY_OVERLAP,
    /** A queue that workloads name does not exist. */
    QUEUE_NOT_FOUND,
    /** A queue that workloads name is not Open. */
    QUEUE_CLOSED,
    /** The HyperNode forest has a node or HyperNode with two parents, a cycle or mixed depth. */
    HYPER_NODE_FOREST_BROKEN,
    /** A webhook configuration of the bridge is missing or does not carry the current CA. */
    WEBHOOK_CONFIGURATION_STALE
}

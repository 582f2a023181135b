package io.topobridge.controller;

import java.util.Map;

/**
 * A part of the controller process with its own informers and work queue (topology, workloads). The
 * lifecycle bean starts each one once the API client, CRD discovery and configuration are ready.
 */
public interface ManagedController {

    /** Short name for logs and health details. */
    String name();

    /** Starts informers and workers; must not block for long. */
    void start();

    void stop();

    /** True once the first full reconciliation has been done (or there is nothing to do). */
    boolean ready();

    /** Details for the readiness check and the status API. */
    default Map<String, Object> details() {
        return Map.of();
    }
}

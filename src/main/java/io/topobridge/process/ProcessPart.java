package io.topobridge.process;

import java.util.Map;

/**
 * A long-running part of the controller process. Parts that only read and serve (the caches admission reads, the
 * webhook server and its certificate, the tiers followers learn from the HyperNodes) run on every replica, since
 * the webhook Service sends pods to any of them; parts that write (the topology and workload reconcilers) run
 * only on the replica holding the Lease.
 */
public interface ProcessPart {

    /** Where a part runs. */
    enum Role {
        /** On every replica, from start-up. */
        EVERY_REPLICA,
        /** Only on the leader, from the moment it wins the Lease (or at start-up without leader election). */
        LEADER_ONLY
    }

    /** Short name for logs and health details. */
    String name();

    /** Where the part runs: on every replica unless it writes. */
    default Role role() {
        return Role.EVERY_REPLICA;
    }

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

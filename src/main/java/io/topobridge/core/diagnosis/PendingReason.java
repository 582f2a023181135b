package io.topobridge.core.diagnosis;

import com.fasterxml.jackson.annotation.JsonValue;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.finding.Reason;

/** Why a gang waits, as far as capacity tells: the {@code reason} label of the pending-gangs metric. */
public enum PendingReason implements Reason {
    /** Fewer pods exist than the gang's minimum: their workload has not made them yet. */
    PODS_MISSING,
    /** The cluster has the resources, but no single domain at or below the allowed tier does. */
    NO_DOMAIN_FITS,
    /**
     * A hard gang needs more than any domain of its tier holds even empty, counting the nodes that take its pods: it
     * can never start there (the bridge refuses such a gang: {@code GangExceedsDomain}).
     */
    GANG_EXCEEDS_DOMAIN,
    /** Not even the whole cluster has the free resources the gang needs. */
    INSUFFICIENT_CAPACITY,
    /** Capacity suffices: the wait is Volcano's (queue, predicates, its cycle); its conditions say more. */
    WAITING_FOR_SCHEDULER,
    /**
     * A running hard-tier gang is short of pods (a replacement pending, a pod on a node gone or down) and the domain it
     * occupies could hold it on its usable nodes, but not now: Volcano keeps the replacement inside that domain.
     */
    NO_ROOM_IN_DOMAIN,
    /**
     * A running hard-tier gang is short of pods and none is pending: a member is Terminating on a node gone or not
     * Ready, and its controller makes no replacement under a name still taken until that pod is gone.
     */
    REPLACEMENT_BLOCKED,
    /**
     * A running hard-tier gang is short of pods and the usable nodes of the domain it occupies cannot hold it even when
     * empty (nodes gone, down, cordoned): only a repair, or the whole gang moving, brings it back.
     */
    DOMAIN_LOST;

    /** Why a running hard-tier gang whose domain does not hold it waits. */
    public static PendingReason of(GangDomain.Verdict verdict) {
        return switch (verdict) {
            case DOMAIN_LOST -> DOMAIN_LOST;
            case NO_ROOM_IN_DOMAIN -> NO_ROOM_IN_DOMAIN;
            case REPLACEMENT_BLOCKED -> REPLACEMENT_BLOCKED;
            default -> WAITING_FOR_SCHEDULER;
        };
    }

    /** Shown as the metric label and in JSON: {@code NoDomainFits}. */
    @Override
    @JsonValue
    public String reason() {
        return Reason.super.reason();
    }
}

package io.topobridge.core.recovery;

import io.topobridge.core.finding.Reason;

/** Why the bridge reported something about a running gang that lost pods or the room for them. */
public enum RecoveryReason implements Reason {
    /**
     * A running hard-tier gang is short of pods and the usable nodes of the domain it occupies cannot hold it even when
     * empty (nodes gone, not ready, cordoned or tainted): its replacements wait until the nodes come back or the gang
     * is moved whole. The message names the domain, the pods waiting and since when.
     */
    DOMAIN_LOST,
    /**
     * A running hard-tier gang is short of pods and the domain it occupies could hold it, but its usable nodes have no
     * room for the replacements now: Volcano keeps them inside the domain, so they wait for room there. The message
     * names the domain, the pods waiting and since when.
     */
    NO_ROOM_IN_DOMAIN,
    /**
     * A running hard-tier gang is short of pods and none is pending: a member is Terminating on a node gone or not
     * Ready (evicted from a node that stopped answering), and its controller (a StatefulSet, a LeaderWorkerSet group's
     * StatefulSet, a RoleSet) makes no replacement under that name until the pod is gone. Nothing is restarted (it
     * would not help); the message names the pod, its node and the remedies: the node back or deleted, the pod
     * force-deleted or the node tainted {@code node.kubernetes.io/out-of-service} once it is known to be down.
     */
    REPLACEMENT_BLOCKED,
    /**
     * A gang with {@code topobridge.io/on-domain-loss: restart} whose domain had been lost for its grace was restarted
     * through its own controller: the bridge deleted its pods (the leader of a LeaderWorkerSet group), so that the
     * controller makes them again and Volcano places the whole gang afresh in a domain with room. The message names
     * what was deleted, the domain, the nodes lost and since when; it stays for one grace window after the restart.
     */
    GANG_RESTARTED,
    /**
     * A gang the bridge restarted did not run whole again within its grace: it is not restarted again until it has run
     * whole once (no restart loop), and waits for room or for its nodes.
     */
    RESTART_DID_NOT_HELP,
    /**
     * A gang with {@code on-domain-loss: restart} whose domain has been lost for its grace is not restarted: no other
     * domain of its tier has room for the whole gang now (a restart would leave it nowhere to go), or the cluster's
     * limit of restarts under way at once ({@code topobridge.workloads.max-concurrent-restarts}) is reached.
     */
    RESTART_HELD
}

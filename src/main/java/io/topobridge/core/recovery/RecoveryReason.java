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
    NO_ROOM_IN_DOMAIN
}

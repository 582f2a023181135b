package io.topobridge.core.topology;

import io.topobridge.core.finding.Reason;

/** Why the topology side reported something: the Event reason and metric label of each topology finding. */
public enum TopologyReason implements Reason {
    /**
     * A node lacks a tier label its tree needs: a required tier of its scheme, an optional tier that at least half the
     * nodes of its tree carry, or its NVLink partition where most of its domain name theirs. It is left out of the tree.
     */
    MISSING_TIER_LABELS,
    /**
     * A node names an NVLink partition in a domain where most nodes name none: the domain is one partition, as most
     * of its nodes say, and the node is left out until the labels agree.
     */
    MINORITY_PARTITION_LABEL,
    /** An optional tier was dropped from a scheme's tree because fewer than half of its nodes carry it. */
    TIER_LEFT_OUT,
    /** One label value (domain) appears under several parents: kept as separate HyperNodes, reported. */
    DOMAIN_PARENT_CONFLICT,
    /** One NVLink partition (GPU clique) appears under two NVLink domains: the labels disagree; kept apart. */
    PARTITION_IN_TWO_DOMAINS,
    /** A node's GPU clique names an NVLink domain whose nodes carry different domain labels of their scheme. */
    CLIQUE_DOMAIN_MISMATCH,
    /** The nodes of one NVLink partition sit under different switches of the tier above: kept apart. */
    PARTITION_SPANS_LEAVES,
    /** A tier has exactly one domain across the cluster, so naming it as highest tier allows any placement. */
    SINGLE_DOMAIN_TIER,
    /** The configured preset or tiers match no node. */
    NO_MATCHING_NODES,
    /** A node's name cannot be written in a HyperNode's {@code exactMatch}: it is left out of the tree. */
    UNMATCHABLE_NODE_NAME,
    /** A HyperNode would be too large for the API server: it and its nodes are left out. */
    OVERSIZED_DOMAIN,
    /** A HyperNode of another source covers nodes or HyperNodes of the bridge's tree. */
    FOREIGN_HYPER_NODE_OVERLAP,
    /** The Volcano scheduler configuration does not list the network-topology-aware plugin. */
    NETWORK_TOPOLOGY_PLUGIN_DISABLED,
    /** The Volcano scheduler ConfigMap does not exist. */
    SCHEDULER_CONFIG_MISSING,
    /** The Volcano scheduler ConfigMap cannot be read or parsed. */
    SCHEDULER_CONFIG_UNREADABLE,
    /** The API server refused a HyperNode write (e.g. Volcano's admission policy); retried with backoff. */
    HYPER_NODE_WRITE_FAILED,
    /** Volcano's HyperNode CRD is not installed: the bridge writes no HyperNodes until it is. */
    HYPER_NODE_CRD_MISSING,
    /** A GPU node is in no topology tree, so a hard-topology gang can never use it. */
    GPU_NODE_OUTSIDE_TOPOLOGY,
    /**
     * The network-topology-aware plugin does not bin-pack GPUs across HyperNodes, in a cluster with GPU nodes: Volcano
     * ranks the domains a gang could take by CPU and memory only.
     */
    GPU_NOT_BIN_PACKED
}

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
    /**
     * On a HyperNode: one label value sits under different parents (e.g. one {@code layer-3} value under two
     * {@code layer-2} values); kept as separate HyperNodes. An NVLink domain is kept whole instead
     * ({@link #PARTITION_SPANS_LEAVES}).
     */
    DOMAIN_PARENT_CONFLICT,
    /**
     * On a HyperNode: one NVLink partition (GPU clique) sits in two NVLink domains (e.g. topograph domains {@code a}
     * and {@code b}): the labels disagree; kept as separate HyperNodes, each named.
     */
    PARTITION_IN_TWO_DOMAINS,
    /**
     * On each Node concerned: the nodes of one clique UUID (one physical NVLink domain) carry different topograph
     * domain labels; the message gives the values and nodes on each side; the tree follows topograph's label.
     */
    CLIQUE_DOMAIN_MISMATCH,
    /**
     * On a HyperNode: the nodes of one NVLink domain (a rail-cabled rack) sit under different switches of the tier
     * above ({@code leaf}, {@code layer-3}…); the domain is kept whole as one HyperNode, hung from the lowest tier that
     * holds all of it through a HyperNode of its own at each tier it skips; the message names that tier and the skipped
     * ones.
     */
    PARTITION_SPANS_LEAVES,
    /**
     * On a HyperNode: its tier has one domain in the whole cluster, so naming it as highest tier allows any placement.
     */
    SINGLE_DOMAIN_TIER,
    /**
     * On {@code TopologyScheme/<preset>}: the configured preset or tiers match none of the nodes (info for
     * {@code auto}).
     */
    NO_MATCHING_NODES,
    /**
     * On a Node: its name cannot be an {@code exactMatch} member of a HyperNode (upper case, longer than 63
     * characters); it is left out of the tree.
     */
    UNMATCHABLE_NODE_NAME,
    /** On a HyperNode: it would be too large for the API server (about 1 MB); it is left out with its nodes. */
    OVERSIZED_DOMAIN,
    /**
     * On the other HyperNode: a HyperNode of another source (e.g. {@code volcano.sh/network-topology-source=label}, or
     * none) lists nodes or HyperNodes of the bridge's tree, which would then have two parents.
     */
    FOREIGN_HYPER_NODE_OVERLAP,
    /**
     * On the scheduler ConfigMap: its configuration does not list the {@code network-topology-aware} plugin, so hard
     * topology is not enforced.
     */
    NETWORK_TOPOLOGY_PLUGIN_DISABLED,
    /** On the scheduler ConfigMap: it does not exist. */
    SCHEDULER_CONFIG_MISSING,
    /**
     * On the scheduler ConfigMap: it cannot be read (permissions) or parsed (no such key, not YAML, no {@code tiers}).
     */
    SCHEDULER_CONFIG_UNREADABLE,
    /** On a HyperNode: the API server refused its write (e.g. Volcano's admission policy); retried with backoff. */
    HYPER_NODE_WRITE_FAILED,
    /**
     * On the CustomResourceDefinition: Volcano's HyperNode CRD is not installed; the bridge stays ready and writes
     * HyperNodes as soon as it is.
     */
    HYPER_NODE_CRD_MISSING,
    /**
     * On a Node with GPUs (allocatable {@code nvidia.com/gpu}, or GPU feature discovery's
     * {@code nvidia.com/gpu.present}, {@code .count} or {@code .product} labels) that is in no HyperNode tree of any
     * source: a gang with a hard highest tier can never use it ({@code render} prints it too).
     */
    GPU_NODE_OUTSIDE_TOPOLOGY,
    /**
     * On the scheduler ConfigMap, in a cluster with GPU nodes: {@code network-topology-aware} does not bin-pack
     * {@code nvidia.com/gpu} across HyperNodes ({@code hypernode.binpack.resources}), so Volcano ranks the domains a
     * gang could take by CPU and memory only.
     */
    GPU_NOT_BIN_PACKED
}

package io.topobridge.core;

/** Names Volcano defines and the bridge must use verbatim (groups, versions, keys, labels). */
public final class VolcanoApi {
    public static final String SCHEDULING_GROUP = "scheduling.volcano.sh";
    public static final String SCHEDULING_VERSION = "v1beta1";
    public static final String TOPOLOGY_GROUP = "topology.volcano.sh";
    public static final String TOPOLOGY_VERSION = "v1alpha1";

    public static final String PODGROUP_API_VERSION = SCHEDULING_GROUP + "/" + SCHEDULING_VERSION;
    public static final String HYPERNODE_API_VERSION = TOPOLOGY_GROUP + "/" + TOPOLOGY_VERSION;
    public static final String PODGROUP_CRD = "podgroups." + SCHEDULING_GROUP;
    public static final String PODGROUP_KIND = "PodGroup";
    public static final String QUEUE_CRD = "queues." + SCHEDULING_GROUP;
    public static final String HYPERNODE_CRD = "hypernodes." + TOPOLOGY_GROUP;

    /** The only pod-to-gang link the scheduler reads (an annotation, despite the key's look). */
    public static final String GROUP_NAME_ANNOTATION = "scheduling.k8s.io/group-name";
    /** Pods with equal task-spec are assumed identical by the scheduler; roles need distinct values. */
    public static final String TASK_SPEC_ANNOTATION = "volcano.sh/task-spec";
    /** Volcano's own pod-template knobs, honoured by the bridge. */
    public static final String NETWORK_TOPOLOGY_MODE_ANNOTATION = "volcano.sh/network-topology-mode";

    public static final String NETWORK_TOPOLOGY_TIER_ANNOTATION = "volcano.sh/network-topology-highest-tier";
    /** Queue annotation LWS and Volcano's job controller read. */
    public static final String QUEUE_NAME_ANNOTATION = "scheduling.volcano.sh/queue-name";

    /** Label marking which discoverer owns a HyperNode; Volcano deletes {@code label}-sourced ones. */
    public static final String NETWORK_TOPOLOGY_SOURCE_LABEL = "volcano.sh/network-topology-source";

    public static final String NETWORK_TOPOLOGY_PLUGIN = "network-topology-aware";
}

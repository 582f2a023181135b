package io.topobridge.core;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;

/** The bridge's own vocabulary: annotation keys users write, labels and field manager it stamps. */
public final class Topobridge {
    public static final String PREFIX = "topobridge.io/";

    public static final String HIGHEST_TIER = PREFIX + "highest-tier";
    public static final String MODE = PREFIX + "mode";
    public static final String SUBGROUP_HIGHEST_TIER = PREFIX + "subgroup-highest-tier";
    public static final String SUBGROUP_MODE = PREFIX + "subgroup-mode";
    public static final String GROUP = PREFIX + "group";
    public static final String QUEUE = PREFIX + "queue";
    public static final String MIN_MEMBER = PREFIX + "min-member";
    /** What the bridge does with a gang whose domain can no longer hold it: {@code wait} (default) or {@code restart}. */
    public static final String ON_DOMAIN_LOSS = PREFIX + "on-domain-loss";
    /** How long a gang's domain must have been lost before {@code on-domain-loss: restart} acts ({@code 10s}, {@code 5m}). */
    public static final String DOMAIN_LOSS_GRACE = PREFIX + "domain-loss-grace";
    /**
     * Namespace annotation only admins can set: the Volcano queues workloads of the namespace may use, comma
     * separated, {@code *} for any.
     */
    public static final String ALLOWED_QUEUES = PREFIX + "allowed-queues";

    /** Written on a placed gang's PodGroup: the lowest tier whose one HyperNode holds all its pods, or {@code none}. */
    public static final String ACHIEVED_TIER = PREFIX + "achieved-tier";
    /** Written beside it for a gang with subgroups: each subgroup instance's tier, {@code name/key=tier,...}. */
    public static final String ACHIEVED_SUBGROUP_TIERS = PREFIX + "achieved-subgroup-tiers";
    /** On a PodGroup whose gang asked for {@code highest-tier: auto}: the tier chosen and why, in one sentence. */
    public static final String CHOSEN_TIER = PREFIX + "chosen-tier";
    /** The same for {@code subgroup-highest-tier: auto}: the subgroups' tier and why. */
    public static final String CHOSEN_SUBGROUP_TIER = PREFIX + "chosen-subgroup-tier";
    /**
     * On a PodGroup whose pods claim devices through DRA: the devices counted, as the resources their DeviceClasses map
     * to ({@code nvidia.com/gpu=8}); they size the gang for {@code auto} and explain and are not in its
     * {@code minResources}.
     */
    public static final String DRA_DEVICES = PREFIX + "dra-devices";

    /** Server-side-apply field manager of every write. */
    public static final String FIELD_MANAGER = "topobridge";
    /** {@code volcano.sh/network-topology-source} value on the bridge's HyperNodes. */
    public static final String SOURCE = "topobridge";

    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY = "topobridge";

    /** Whether the bridge made the object: it carries the bridge's managed-by label. */
    public static boolean managed(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels != null && MANAGED_BY.equals(labels.get(MANAGED_BY_LABEL));
    }

    /** Whether the HyperNode is one the bridge keeps: its network-topology-source label is the bridge's. */
    public static boolean ours(HasMetadata hyperNode) {
        Map<String, String> labels = hyperNode.getMetadata().getLabels();
        return labels != null && SOURCE.equals(labels.get(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL));
    }
}

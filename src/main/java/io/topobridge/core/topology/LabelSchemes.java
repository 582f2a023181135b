package io.topobridge.core.topology;

import io.topobridge.core.topology.LabelScheme.DynamicTiers;
import io.topobridge.core.topology.LabelScheme.TierSpec;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The node label schemes clusters really carry, and the presets built from them. Tier names are what users
 * write in {@code topobridge.io/highest-tier}, so one concept has one name everywhere: {@code nvlink} for an
 * NVLink partition (the GPUs that can talk over NVLink), {@code nvlink-domain} for the physical NVLink domain
 * above it where a domain is split, {@code leaf}/{@code spine}/{@code core} for switch tiers counted from the
 * nodes; cloud tiers whose physical role the provider does not state keep the provider's own word.
 */
public final class LabelSchemes {

    /**
     * NVIDIA GPU feature discovery: {@code <clusterUUID>.<cliqueId>}. The UUID part is the NVLink domain (the
     * physical system), the whole value the NVLink partition: only GPUs with equal values can talk over NVLink.
     */
    public static final String GPU_CLIQUE = "nvidia.com/gpu.clique";

    public static final String TOPOGRAPH_ACCELERATOR = "accelerator.topograph.run/domain";
    /** topograph 1.0's NVLink partition, named within its {@link #TOPOGRAPH_ACCELERATOR} domain. */
    public static final String TOPOGRAPH_SUB_DOMAIN = "accelerator.topograph.run/sub-domain";
    /** Tier of the GPUs that can talk over NVLink: what users name to keep a tensor-parallel gang on NVLink. */
    public static final String NVLINK_TIER = "nvlink";
    /** Tier of the physical NVLink domain, above its partitions; only present where some domain is split. */
    public static final String NVLINK_DOMAIN_TIER = "nvlink-domain";

    static final List<String> PARTITION_KEYS = List.of(TOPOGRAPH_SUB_DOMAIN, GPU_CLIQUE);

    public static final String TOPOGRAPH_FABRIC_PREFIX = "fabric.topograph.run/tier-";
    static final String TOPOGRAPH_V0 = "network.topology.nvidia.com/";
    static final String AWS_LAYER = "topology.k8s.aws/network-node-layer-";
    static final String GKE = "cloud.google.com/gce-topology-";
    static final String OCI = "oci.oraclecloud.com/rdma.";

    /** Fabric tiers numbered beyond this are ignored (a stray label must not make the tree absurdly deep). */
    static final int MAX_FABRIC_TIER = 15;

    public static final LabelScheme TOPOGRAPH = new LabelScheme(
            "topograph",
            "NVIDIA topograph (>= 1.0)",
            List.of(TierSpec.nvlinkTier(false, TOPOGRAPH_ACCELERATOR, GPU_CLIQUE)),
            List.of(),
            new DynamicTiers(TOPOGRAPH_FABRIC_PREFIX, MAX_FABRIC_TIER, LabelSchemes::fabricTierName));

    public static final LabelScheme TOPOGRAPH_V03 =
            topographV0("topograph-v0.3", "NVIDIA topograph 0.3-0.5", TOPOGRAPH_V0 + "leaf", TOPOGRAPH_V0 + "core");

    /**
     * topograph 0.1 called the leaf switch tier {@code block} and the top one {@code datacenter}. Its
     * {@code spine} and {@code accelerator} keys are shared with 0.3, so only the keys unique to each generation
     * decide which one a node carries.
     */
    public static final LabelScheme TOPOGRAPH_V01 =
            topographV0("topograph-v0.1", "NVIDIA topograph 0.1", TOPOGRAPH_V0 + "block", TOPOGRAPH_V0 + "datacenter");

    /** AWS numbers from the top (layer-1 is the broadest); layer-4 exists on some instance types only. */
    public static final LabelScheme AWS = new LabelScheme(
            "aws",
            "AWS EC2 instance topology",
            List.of(
                    TierSpec.nvlinkTier(false, GPU_CLIQUE),
                    TierSpec.optional("layer-4", AWS_LAYER + "4"),
                    TierSpec.required("layer-3", AWS_LAYER + "3"),
                    TierSpec.required("layer-2", AWS_LAYER + "2"),
                    TierSpec.required("layer-1", AWS_LAYER + "1")),
            List.of(AWS_LAYER + "1", AWS_LAYER + "2", AWS_LAYER + "3", AWS_LAYER + "4"),
            null);

    /**
     * GKE's finest tier is the physical host, not a switch, and its sub-block already is the NVLink rack on
     * NVLink machine types, so GKE trees take no NVLink tier from the GPU clique label.
     */
    public static final LabelScheme GKE_SCHEME = new LabelScheme(
            "gke",
            "GKE compact placement topology",
            List.of(
                    TierSpec.optional("host", GKE + "host"),
                    TierSpec.required("subblock", GKE + "subblock"),
                    TierSpec.required("block", GKE + "block")),
            List.of(GKE + "block", GKE + "subblock", GKE + "host"),
            null);

    public static final LabelScheme OCI_SCHEME = new LabelScheme(
            "oci",
            "OCI RDMA cluster network",
            List.of(
                    TierSpec.nvlinkTier(false, GPU_CLIQUE),
                    TierSpec.required("local-block", OCI + "local_block_id"),
                    TierSpec.required("network-block", OCI + "network_block_id"),
                    TierSpec.required("hpc-island", OCI + "hpc_island_id")),
            List.of(OCI + "hpc_island_id", OCI + "network_block_id", OCI + "local_block_id"),
            null);

    public static final LabelScheme VOLCANO = new LabelScheme(
            "volcano",
            "Volcano example labels",
            List.of(
                    TierSpec.nvlinkTier(false, GPU_CLIQUE),
                    TierSpec.required("leaf", "volcano.sh/hypernode", "volcano.sh/tor"),
                    TierSpec.optional("spine", "volcano.sh/hypercluster")),
            List.of("volcano.sh/hypernode", "volcano.sh/tor", "volcano.sh/hypercluster"),
            null);

    /** NVLink alone, for nodes that carry no fabric scheme (or topograph's accelerator labels only). */
    public static final LabelScheme NVLINK = new LabelScheme(
            "nvlink",
            "NVLink domains (GPU feature discovery)",
            List.of(TierSpec.nvlinkTier(true, TOPOGRAPH_ACCELERATOR, TOPOGRAPH_V0 + "accelerator", GPU_CLIQUE)),
            List.of(TOPOGRAPH_ACCELERATOR, TOPOGRAPH_V0 + "accelerator", GPU_CLIQUE),
            null);

    /** Preset name to its schemes, in precedence order: a node belongs to the first scheme it carries. */
    private static final Map<String, List<LabelScheme>> PRESETS = presets();

    /** A topograph 0.x generation: its leaf and core keys name it, the accelerator and spine keys are shared. */
    private static LabelScheme topographV0(String name, String description, String leaf, String core) {
        return new LabelScheme(
                name,
                description,
                List.of(
                        TierSpec.nvlinkTier(false, TOPOGRAPH_V0 + "accelerator", GPU_CLIQUE),
                        TierSpec.required("leaf", leaf),
                        TierSpec.optional("spine", TOPOGRAPH_V0 + "spine"),
                        TierSpec.optional("core", core)),
                List.of(leaf, core),
                null);
    }

    private static Map<String, List<LabelScheme>> presets() {
        var out = new LinkedHashMap<String, List<LabelScheme>>();
        out.put("auto", List.of(TOPOGRAPH, TOPOGRAPH_V03, TOPOGRAPH_V01, AWS, GKE_SCHEME, OCI_SCHEME, VOLCANO, NVLINK));
        out.put("topograph", List.of(TOPOGRAPH, TOPOGRAPH_V03, TOPOGRAPH_V01, NVLINK));
        out.put("aws", List.of(AWS));
        out.put("gke", List.of(GKE_SCHEME));
        out.put("oci", List.of(OCI_SCHEME));
        out.put("nvidia-gfd", List.of(NVLINK));
        out.put("volcano", List.of(VOLCANO));
        return out;
    }

    /**
     * For each tier name the schemes give, the node label keys whose whole values group nodes as that tier does, in
     * the schemes' order. A GPU clique's whole value is the NVLink partition ({@code nvlink}); a domain label is the
     * NVLink domain ({@code nvlink-domain}), which is the {@code nvlink} tier too when {@code nvlinkFolded}. A
     * topograph sub-domain is named only within its domain, so no tier is its values alone.
     */
    static Map<String, Set<String>> keysByTierName(List<LabelScheme> schemes, boolean nvlinkFolded) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (LabelScheme scheme : schemes) {
            for (TierSpec tier : scheme.tiersUpTo(Integer.MAX_VALUE)) {
                if (!tier.nvlink()) {
                    out.computeIfAbsent(tier.name(), k -> new LinkedHashSet<>()).addAll(tier.keys());
                    continue;
                }
                List<String> domainKeys =
                        tier.keys().stream().filter(k -> !GPU_CLIQUE.equals(k)).toList();
                var nvlink = out.computeIfAbsent(NVLINK_TIER, k -> new LinkedHashSet<>());
                if (nvlinkFolded) {
                    nvlink.addAll(domainKeys);
                }
                nvlink.add(GPU_CLIQUE);
                out.computeIfAbsent(NVLINK_DOMAIN_TIER, k -> new LinkedHashSet<>())
                        .addAll(domainKeys);
            }
        }
        return out;
    }

    /**
     * How nodes get a tier of this name under the schemes: {@code key or key (scheme title)} per scheme that has one,
     * in the schemes' order ({@code nvlink-domain} as the NVLink tier, which a split domain makes two).
     */
    public static List<String> labelsMaking(List<LabelScheme> schemes, String name) {
        Set<String> out = new LinkedHashSet<>();
        for (LabelScheme scheme : schemes) {
            for (TierSpec tier : scheme.tiersUpTo(Integer.MAX_VALUE)) {
                boolean nvlink = tier.nvlink() && (name.equals(NVLINK_TIER) || name.equals(NVLINK_DOMAIN_TIER));
                if (nvlink || (!tier.nvlink() && tier.name().equals(name))) {
                    out.add(String.join(" or ", tier.keys()) + " (" + scheme.title() + ")");
                }
            }
        }
        return List.copyOf(out);
    }

    /** Known preset names, in documentation order. */
    public static List<String> presetNames() {
        return List.copyOf(PRESETS.keySet());
    }

    public static Optional<List<LabelScheme>> preset(String name) {
        return Optional.ofNullable(PRESETS.get(name));
    }

    /** The single scheme of an explicit tier list (every tier required). */
    public static LabelScheme explicit(List<TopologySettings.TierLabel> tiers) {
        return new LabelScheme(
                "tiers",
                "configured tier",
                tiers.stream()
                        .map(t -> TierSpec.required(t.name(), t.labelKey()))
                        .toList(),
                tiers.stream().map(TopologySettings.TierLabel::labelKey).toList(),
                null);
    }

    /** Fabric tier N counted from the nodes: 0 the leaf switch, 1 the spine, 2 the core. */
    static String fabricTierName(int n) {
        return switch (n) {
            case 0 -> "leaf";
            case 1 -> "spine";
            case 2 -> "core";
            default -> "fabric-" + n;
        };
    }

    /**
     * The keys that may name an NVLink partition inside a domain read from {@code domainKey}, in order (first
     * present wins). topograph's sub-domain only means something within topograph's own domain; a GPU clique
     * names its partition globally, so it can sit under any scheme's domain label.
     */
    static List<String> partitionKeys(String domainKey) {
        return TOPOGRAPH_ACCELERATOR.equals(domainKey) ? PARTITION_KEYS : List.of(GPU_CLIQUE);
    }

    /**
     * The NVLink domain an NVLink tier's label value stands for. A GPU clique is {@code <clusterUUID>.<cliqueId>}
     * and its domain is the part before the last dot (a value without a dot is taken whole); every other value
     * is the domain itself.
     */
    static String domainValue(String key, String value) {
        if (GPU_CLIQUE.equals(key)) {
            int dot = value.lastIndexOf('.');
            if (dot > 0) {
                return value.substring(0, dot);
            }
        }
        return value;
    }
}

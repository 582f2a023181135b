package io.topobridge.core.topology;

/** The node label keys the topology tests write, as the tools and clouds that set them spell them. */
final class NodeLabels {

    static final String ZONE = "topology.kubernetes.io/zone";
    static final String RACK = "example.com/rack";
    /** topograph's fabric tiers: {@code FABRIC_TIER + n}. */
    static final String FABRIC_TIER = "fabric.topograph.run/tier-";

    static final String T0 = FABRIC_TIER + "0";
    static final String T1 = FABRIC_TIER + "1";
    static final String T2 = FABRIC_TIER + "2";
    static final String CLIQUE = "nvidia.com/gpu.clique";
    static final String DOMAIN = "accelerator.topograph.run/domain";
    static final String SUB_DOMAIN = "accelerator.topograph.run/sub-domain";
    /** topograph v0.3's keys: {@code V0 + "leaf"}, {@code V0 + "accelerator"}. */
    static final String V0 = "network.topology.nvidia.com/";
    /** AWS's network layers: {@code AWS + n}. */
    static final String AWS = "topology.k8s.aws/network-node-layer-";
    /** GKE's topology keys: {@code GKE + "block"}. */
    static final String GKE = "cloud.google.com/gce-topology-";

    private NodeLabels() {}
}

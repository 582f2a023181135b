package io.topobridge.core.kinds.lws;

/** The keys LeaderWorkerSet v0.9.0 writes (api/leaderworkerset/v1) that WorkloadLabels does not hold. */
final class LwsKeys {

    static final String LWS_SUBGROUP_KEY = "leaderworkerset.sigs.k8s.io/subgroup-key";
    static final String LWS_SIZE = "leaderworkerset.sigs.k8s.io/size";
    static final String LWS_REPLICAS = "leaderworkerset.sigs.k8s.io/replicas";
    static final String LWS_LEADER_NAME = "leaderworkerset.sigs.k8s.io/leader-name";
    static final String LWS_EXCLUSIVE = "leaderworkerset.sigs.k8s.io/exclusive-topology";
    static final String LWS_SUBGROUP_EXCLUSIVE = "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology";
    static final String LWS_SUBGROUP_SIZE = "leaderworkerset.sigs.k8s.io/subgroup-size";
    static final String LWS_SUBGROUP_POLICY_TYPE = "leaderworkerset.sigs.k8s.io/subgroup-policy-type";
    static final String LWS_SUBDOMAIN_POLICY = "leaderworkerset.sigs.k8s.io/subdomainPolicy";
    static final String LWS_LEADER_REQUESTS_TPUS = "leaderworkerset.sigs.k8s.io/leader-requests-tpus";
    static final String TPU_RESOURCE = "google.com/tpu";

    private LwsKeys() {}
}

package io.topobridge.core.workload;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The workload kinds the bridge reads, with the API coordinates it needs to watch and name them. */
public enum WorkloadKind {
    STORM_SERVICE("orchestration.aibrix.ai", "v1alpha1", "StormService", "stormservices", true),
    ROLE_SET("orchestration.aibrix.ai", "v1alpha1", "RoleSet", "rolesets", true),
    POD_SET("orchestration.aibrix.ai", "v1alpha1", "PodSet", "podsets", true),
    LEADER_WORKER_SET("leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet", "leaderworkersets", true),
    DISAGGREGATED_SET("disaggregatedset.x-k8s.io", "v1", "DisaggregatedSet", "disaggregatedsets", true),
    DEPLOYMENT("apps", "v1", "Deployment", "deployments", false),
    STATEFUL_SET("apps", "v1", "StatefulSet", "statefulsets", false),
    /** Read only to follow a pod to its Deployment. */
    REPLICA_SET("apps", "v1", "ReplicaSet", "replicasets", false);

    private final String group;
    private final String version;
    private final String kind;
    private final String plural;
    private final boolean custom;

    WorkloadKind(String group, String version, String kind, String plural, boolean custom) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.plural = plural;
        this.custom = custom;
    }

    public String group() {
        return group;
    }

    public String version() {
        return version;
    }

    public String kind() {
        return kind;
    }

    public String plural() {
        return plural;
    }

    public String apiVersion() {
        return group + "/" + version;
    }

    /** True for kinds defined by a CRD that may be absent from a cluster. */
    public boolean custom() {
        return custom;
    }

    /** {@code plural.group}, the CRD name of a custom kind. */
    public String crdName() {
        return plural + "." + group;
    }

    private static final Map<String, Optional<WorkloadKind>> BY_GROUP_KIND = new HashMap<>();

    static {
        for (WorkloadKind k : values()) {
            BY_GROUP_KIND.put(k.group + "/" + k.kind, Optional.of(k));
        }
    }

    /** The kind of an object by its apiVersion group and kind (any version of the group). */
    public static Optional<WorkloadKind> of(String apiVersion, String kind) {
        if (apiVersion == null || kind == null) {
            return Optional.empty();
        }
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        return BY_GROUP_KIND.getOrDefault(group + "/" + kind, Optional.empty());
    }
}

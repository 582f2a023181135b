package io.topobridge.core.workload;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The workload kinds the bridge reads, with the API coordinates it needs to watch and name them. */
public enum WorkloadKind {
    STORM_SERVICE("orchestration.aibrix.ai", "v1alpha1", "StormService", "stormservices", null),
    ROLE_SET("orchestration.aibrix.ai", "v1alpha1", "RoleSet", "rolesets", null),
    POD_SET("orchestration.aibrix.ai", "v1alpha1", "PodSet", "podsets", null),
    LEADER_WORKER_SET("leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet", "leaderworkersets", null),
    DISAGGREGATED_SET("disaggregatedset.x-k8s.io", "v1", "DisaggregatedSet", "disaggregatedsets", null),
    DEPLOYMENT("apps", "v1", "Deployment", "deployments", Deployment.class),
    STATEFUL_SET("apps", "v1", "StatefulSet", "statefulsets", StatefulSet.class),
    /** Read only to follow a pod to its Deployment. */
    REPLICA_SET("apps", "v1", "ReplicaSet", "replicasets", ReplicaSet.class);

    private final String group;
    private final String version;
    private final String kind;
    private final String plural;
    private final Class<? extends HasMetadata> type;

    WorkloadKind(String group, String version, String kind, String plural, Class<? extends HasMetadata> type) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.plural = plural;
        this.type = type;
    }

    /** The class objects of this kind are read as: the typed model of a built-in kind, else a generic resource. */
    public Class<? extends HasMetadata> type() {
        return type != null ? type : GenericKubernetesResource.class;
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
        return type == null;
    }

    /** {@code plural.group}, the CRD name of a custom kind. */
    public String crdName() {
        return plural + "." + group;
    }

    private static final Map<String, WorkloadKind> BY_KIND =
            Arrays.stream(values()).collect(Collectors.toMap(WorkloadKind::kind, k -> k));

    /** The kind of a name such as {@code Deployment} (kind names are unique among the kinds the bridge reads). */
    public static Optional<WorkloadKind> byKind(String kind) {
        return Optional.ofNullable(BY_KIND.get(kind));
    }

    /** The kind of an object by its apiVersion group and kind (any version of the group). */
    public static Optional<WorkloadKind> of(String apiVersion, String kind) {
        if (apiVersion == null || kind == null) {
            return Optional.empty();
        }
        WorkloadKind k = BY_KIND.get(kind);
        int slash = apiVersion.indexOf('/');
        // the group is what comes before the first slash ("" for the core group's "v1"); no string is made per call
        boolean sameGroup = k != null
                && (k.group.isEmpty() ? slash < 0 : slash == k.group.length() && apiVersion.startsWith(k.group));
        return sameGroup ? Optional.of(k) : Optional.empty();
    }
}

package io.topobridge.core.workload.kind;

import io.topobridge.core.Topobridge;

/** Pod and object labels the workloads' own controllers stamp (and the one the bridge's admission adds). */
public final class WorkloadLabels {

    /** LeaderWorkerSet: on every pod and on the StatefulSets. */
    public static final String LWS_NAME = "leaderworkerset.sigs.k8s.io/name";

    public static final String LWS_GROUP_INDEX = "leaderworkerset.sigs.k8s.io/group-index";
    /** 0 on the leader pod. */
    public static final String LWS_WORKER_INDEX = "leaderworkerset.sigs.k8s.io/worker-index";
    /** The ordinal the StatefulSet controller gives each of its pods (Kubernetes 1.28 and later). */
    public static final String POD_INDEX = "apps.kubernetes.io/pod-index";
    /** The LWS template revision; LWS's Volcano provider names a group's PodGroup {@code <lws>-<group>-<revision>}. */
    public static final String LWS_REVISION = "leaderworkerset.sigs.k8s.io/template-revision-hash";
    /**
     * The key LWS's pod webhook gives a group's leader (and the worker StatefulSet copies to the workers). With
     * {@code groupIdentity: Hash} it is the group's identity: a random 40-hex-digit key, also written as the group-index
     * label, since the leaders are a Deployment's pods with no ordinal.
     */
    public static final String LWS_GROUP_KEY = "leaderworkerset.sigs.k8s.io/group-key";
    /** Only when the LWS sets {@code subGroupPolicy.subGroupSize}. */
    public static final String LWS_SUBGROUP_INDEX = "leaderworkerset.sigs.k8s.io/subgroup-index";

    /** DisaggregatedSet: on its LWSs and on both of their pod templates. */
    public static final String DS_NAME = "disaggregatedset.x-k8s.io/name";

    public static final String DS_SLICE = "disaggregatedset.x-k8s.io/slice";
    public static final String DS_ROLE = "disaggregatedset.x-k8s.io/role";

    /** AIBrix: on RoleSets (StormService name) and on every pod (all of them). */
    public static final String AIBRIX_STORM_SERVICE = "storm-service-name";

    public static final String AIBRIX_ROLE_SET = "roleset-name";
    public static final String AIBRIX_ROLE = "role-name";
    /** AIBrix: on pods of a role with {@code podGroupSize > 1}, one value per PodSet. */
    public static final String AIBRIX_POD_SET = "stormservice.orchestration.aibrix.ai/podset-name";

    /** Deployment: the ReplicaSet name is {@code <deployment>-<pod-template-hash>}. */
    public static final String POD_TEMPLATE_HASH = "pod-template-hash";

    /**
     * The bridge's own pod label for members of a {@code topobridge.io/group} (two Deployments stamp no label
     * that tells them apart); added by admission, selected on by the group's subGroupPolicy.
     */
    public static final String MEMBER = Topobridge.PREFIX + "member";
}

package io.topobridge.core.kinds.aibrix;

import io.topobridge.core.workload.kind.WorkloadLabels;

/** The label and annotation keys AIBrix v0.7.0 writes (pkg/controller/constants) and the PodGroup keys it reads. */
final class AibrixKeys {

    static final String AIBRIX_STORM_SERVICE = WorkloadLabels.AIBRIX_STORM_SERVICE;
    static final String AIBRIX_REVISION_LABEL = "storm-service-revision";
    static final String AIBRIX_ROLE_SET = WorkloadLabels.AIBRIX_ROLE_SET;
    static final String AIBRIX_ROLE = WorkloadLabels.AIBRIX_ROLE;
    static final String AIBRIX_TEMPLATE_HASH = "role-template-hash";
    static final String AIBRIX_ROLE_REPLICA_INDEX = "stormservice.orchestration.aibrix.ai/role-replica-index";
    static final String AIBRIX_POD_SET = WorkloadLabels.AIBRIX_POD_SET;
    static final String AIBRIX_POD_GROUP_INDEX = "stormservice.orchestration.aibrix.ai/pod-group-index";
    static final String AIBRIX_ROLE_REVISION = "stormservice.orchestration.aibrix.ai/role-revision";
    static final String AIBRIX_ROLE_REVISION_NAME = "stormservice.orchestration.aibrix.ai/role-revision-name";
    static final String AIBRIX_ROLE_SET_INDEX = "stormservice.orchestration.aibrix.ai/roleset-index";
    static final String AIBRIX_REVISION_ANNOTATION = "stormservice.orchestration.aibrix.ai/revision";
    static final String GODEL_POD_GROUP = "godel.bytedance.com/pod-group-name";
    static final String COSCHEDULING_POD_GROUP = "scheduling.x-k8s.io/pod-group";
    static final String VOLCANO_POD_GROUP = "scheduling.k8s.io/group-name";

    private AibrixKeys() {}
}

package io.topobridge.core.workload.kind;

import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.gang.PodGroupNames;
import java.util.Optional;

/**
 * StatefulSet: its pods are owned by it directly. The StatefulSets LWS makes (owned by the LWS or by a leader
 * pod, labelled with the LWS's name) belong to the LWS and are no gang of their own.
 */
final class StatefulSetAdapter extends ReplicatedAdapter {

    @Override
    public WorkloadKind kind() {
        return WorkloadKind.STATEFUL_SET;
    }

    @Override
    String podGroupName(Workload w) {
        return PodGroupNames.statefulSet(w.name());
    }

    @Override
    String memberTag() {
        return "sts";
    }

    private static boolean ofLeaderWorkerSet(Workload sts) {
        return sts.owner(WorkloadKind.LEADER_WORKER_SET).isPresent()
                || sts.metadata().getOwnerReferences() != null && sts.metadata().getOwnerReferences().stream()
                        .anyMatch(o -> o != null && "Pod".equals(o.getKind()) && "v1".equals(o.getApiVersion()));
    }

    @Override
    public Optional<GangScope> scopeOf(Workload sts, Snapshot snapshot) {
        return ofLeaderWorkerSet(sts) ? Optional.empty() : super.scopeOf(sts, snapshot);
    }

    @Override
    public Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot) {
        return Pods.controller(pod, "StatefulSet")
                .flatMap(owner -> snapshot.get(kind(), Pods.namespace(pod), owner.getName()))
                .filter(sts -> !sts.labels().containsKey(WorkloadLabels.LWS_NAME))
                .map(sts -> new PodOrigin(sts, selector(sts)));
    }
}

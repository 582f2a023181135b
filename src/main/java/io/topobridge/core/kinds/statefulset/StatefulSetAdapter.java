package io.topobridge.core.kinds.statefulset;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.kind.PodOrigin;
import io.topobridge.core.workload.kind.Pods;
import io.topobridge.core.workload.kind.ReplicatedAdapter;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.List;
import java.util.Optional;

/**
 * StatefulSet: its pods are owned by it directly. The StatefulSets LWS makes (owned by the LWS or by a leader
 * pod, labelled with the LWS's name) belong to the LWS and are no gang of their own.
 */
public final class StatefulSetAdapter extends ReplicatedAdapter {

    public StatefulSetAdapter() {
        super(WorkloadKind.STATEFUL_SET, "sts", PodGroupNames::statefulSet);
    }

    /**
     * {@code OrderedReady} (the default) creates pod {@code n+1} only once pod {@code n} is Running and Ready: the
     * gang starts with one pod, or it would wait for the others for ever while its {@code minResources} stay
     * reserved in the queue. Each pod is still placed within the tier (Volcano keeps a running gang's pods in the
     * domain it chose); {@code Parallel} makes the set all-or-nothing.
     */
    @Override
    public PodRole atStart(Workload sts, PodRole role, List<Finding> notes) {
        if (role.count() <= 1 || PARALLEL.equals(podManagementPolicy(sts))) {
            return role;
        }
        notes.add(Finding.warning(
                WorkloadReason.ORDERED_READY_START,
                sts.ref(),
                sts.ref() + ": podManagementPolicy "
                        + "OrderedReady creates the " + role.count()
                        + " pods one after another, so the gang starts with one"
                        + " pod and is not all-or-nothing (each pod is still placed within the tier); set"
                        + " podManagementPolicy: Parallel to place the whole set at once"));
        return role.startingWith(1);
    }

    private static final String PARALLEL = "Parallel";

    private static String podManagementPolicy(Workload sts) {
        if (sts.object() instanceof StatefulSet typed) {
            return typed.getSpec() == null || typed.getSpec().getPodManagementPolicy() == null
                    ? "OrderedReady"
                    : typed.getSpec().getPodManagementPolicy();
        }
        return Workload.text(sts.spec().get("podManagementPolicy"), "spec.podManagementPolicy", "OrderedReady");
    }

    /** LWS's leader StatefulSet (owned by the LWS) and its worker StatefulSets (owned by a leader pod). */
    @Override
    protected boolean ofLeaderWorkerSet(Workload sts) {
        return sts.owner(WorkloadKind.LEADER_WORKER_SET).isPresent()
                || sts.metadata().getOwnerReferences() != null
                        && sts.metadata().getOwnerReferences().stream()
                                .anyMatch(
                                        o -> o != null && "Pod".equals(o.getKind()) && "v1".equals(o.getApiVersion()));
    }

    @Override
    public Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot) {
        return Pods.controller(pod, "StatefulSet")
                .flatMap(owner -> snapshot.get(kind(), Pods.namespace(pod), owner.getName()))
                .filter(sts -> !sts.labels().containsKey(WorkloadLabels.LWS_NAME))
                .map(sts -> new PodOrigin(
                        sts, selector(sts).with(PodIdentity.INDEX, Pods.index(pod, WorkloadLabels.POD_INDEX))));
    }

    /** A StatefulSet's pods are indexed by their ordinal. */
    @Override
    public Optional<String> podIndexLabel() {
        return Optional.of(WorkloadLabels.POD_INDEX);
    }
}

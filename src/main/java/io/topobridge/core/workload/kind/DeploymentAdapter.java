package io.topobridge.core.workload.kind;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.gang.PodGroupNames;
import java.util.Optional;

/** Deployment: its pods are owned by a ReplicaSet {@code <deployment>-<pod-template-hash>} it controls. */
final class DeploymentAdapter extends ReplicatedAdapter {

    @Override
    public WorkloadKind kind() {
        return WorkloadKind.DEPLOYMENT;
    }

    @Override
    String podGroupName(Workload w) {
        return PodGroupNames.deployment(w.name());
    }

    @Override
    String memberTag() {
        return "deploy";
    }

    /** A RollingUpdate whose {@code maxUnavailable} is 0 (the default is 25%). */
    @Override
    boolean surgeOnlyRollout(Workload d) {
        JsonNode strategy = d.spec().path("strategy");
        return !"Recreate".equals(strategy.path("type").asText())
                && Workload.takesNothingDown(strategy.path("rollingUpdate").get("maxUnavailable"));
    }

    @Override
    public Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot) {
        String ns = Pods.namespace(pod);
        return Pods.controller(pod, "ReplicaSet")
                .flatMap(rs -> deploymentName(
                        ns, rs.getName(), Pods.labels(pod).get(WorkloadLabels.POD_TEMPLATE_HASH), snapshot))
                .flatMap(name -> snapshot.get(kind(), ns, name))
                .map(d -> new PodOrigin(d, selector(d)));
    }

    /** A Deployment's name from its ReplicaSet: the cached owner, else the name minus the template hash. */
    private static Optional<String> deploymentName(String ns, String replicaSet, String hash, Snapshot snapshot) {
        Optional<Workload> rs = snapshot.get(WorkloadKind.REPLICA_SET, ns, replicaSet);
        if (rs.isPresent()) {
            Optional<OwnerReference> owner = Workload.controller(rs.get().metadata());
            return owner.filter(o -> "Deployment".equals(o.getKind())).map(OwnerReference::getName);
        }
        // the ReplicaSet informer may not have seen a ReplicaSet created a moment ago
        if (hash != null && replicaSet.endsWith("-" + hash)) {
            return Optional.of(replicaSet.substring(0, replicaSet.length() - hash.length() - 1));
        }
        return Optional.empty();
    }
}

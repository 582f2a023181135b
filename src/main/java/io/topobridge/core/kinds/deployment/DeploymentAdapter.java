package io.topobridge.core.kinds.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategy;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.gang.PodGroupNames;
import io.topobridge.core.workload.kind.PodOrigin;
import io.topobridge.core.workload.kind.Pods;
import io.topobridge.core.workload.kind.ReplicatedAdapter;
import io.topobridge.core.workload.kind.Snapshot;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.Optional;

/**
 * Deployment: its pods are owned by a ReplicaSet {@code <deployment>-<pod-template-hash>} it controls. The leader
 * Deployment of a LeaderWorkerSet with {@code groupIdentity: Hash} (owned by the LWS, named after it, carrying the LWS's
 * annotations) belongs to the LWS and is no gang of its own.
 */
public final class DeploymentAdapter extends ReplicatedAdapter {

    @Override
    public WorkloadKind kind() {
        return WorkloadKind.DEPLOYMENT;
    }

    @Override
    public String podGroupName(Workload w) {
        return PodGroupNames.deployment(w.name());
    }

    @Override
    public String memberTag() {
        return "deploy";
    }

    /** A RollingUpdate whose {@code maxUnavailable} is 0 (the default is 25%). */
    @Override
    public boolean surgeOnlyRollout(Workload d) {
        if (d.object() instanceof Deployment typed) {
            // read the typed strategy: turning the whole Deployment into a JSON tree costs more than the rest of its
            // translation
            DeploymentStrategy strategy =
                    typed.getSpec() == null ? null : typed.getSpec().getStrategy();
            if (strategy == null) {
                return false;
            }
            IntOrString maxUnavailable = strategy.getRollingUpdate() == null
                    ? null
                    : strategy.getRollingUpdate().getMaxUnavailable();
            return !"Recreate".equals(strategy.getType())
                    && maxUnavailable != null
                    && Workload.takesNothingDown(
                            maxUnavailable.getIntVal() != null
                                    ? String.valueOf(maxUnavailable.getIntVal())
                                    : maxUnavailable.getStrVal());
        }
        JsonNode strategy = d.spec().path("strategy");
        return !"Recreate".equals(strategy.path("type").asText())
                && Workload.takesNothingDown(strategy.path("rollingUpdate").get("maxUnavailable"));
    }

    /** LWS's leader Deployment belongs to its LWS, which is the group's member. */
    @Override
    public boolean joins(Workload d) {
        return !ofLeaderWorkerSet(d);
    }

    private static boolean ofLeaderWorkerSet(Workload d) {
        return d.owner(WorkloadKind.LEADER_WORKER_SET).isPresent();
    }

    /** A Deployment of its own is a gang (or a group's member); LWS's leader Deployment belongs to its LWS's gang. */
    @Override
    public Optional<GangScope> scopeOf(Workload d, Snapshot snapshot) {
        Optional<OwnerReference> lws = d.owner(WorkloadKind.LEADER_WORKER_SET);
        if (lws.isEmpty()) {
            return super.scopeOf(d, snapshot);
        }
        return snapshot.get(
                        WorkloadKind.LEADER_WORKER_SET, d.namespace(), lws.get().getName())
                .flatMap(snapshot::scopeOf);
    }

    @Override
    public Optional<PodOrigin> originOf(Pod pod, Snapshot snapshot) {
        String ns = Pods.namespace(pod);
        return Pods.controller(pod, "ReplicaSet")
                .flatMap(rs -> deploymentName(
                        ns, rs.getName(), Pods.labels(pod).get(WorkloadLabels.POD_TEMPLATE_HASH), snapshot))
                .flatMap(name -> snapshot.get(kind(), ns, name))
                .filter(d -> !ofLeaderWorkerSet(d))
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

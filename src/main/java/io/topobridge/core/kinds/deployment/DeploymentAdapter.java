package io.topobridge.core.kinds.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpec;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategy;
import io.fabric8.kubernetes.api.model.apps.RollingUpdateDeployment;
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

    public DeploymentAdapter() {
        super(WorkloadKind.DEPLOYMENT, "deploy", PodGroupNames::deployment);
    }

    /**
     * A RollingUpdate that takes no pod down first, with the Deployment's defaults (25 % unavailable, 25 % surge): so
     * also a Deployment of one to three replicas that sets neither.
     */
    @Override
    public boolean surgeOnlyRollout(Workload d) {
        if (d.object() instanceof Deployment typed) {
            // read the typed strategy: turning the whole Deployment into a JSON tree costs more than the rest of its
            // translation
            DeploymentSpec spec = typed.getSpec();
            DeploymentStrategy strategy = spec == null ? null : spec.getStrategy();
            if (strategy != null && "Recreate".equals(strategy.getType())) {
                return false;
            }
            RollingUpdateDeployment rolling = strategy == null ? null : strategy.getRollingUpdate();
            return Workload.surgeOnly(
                    text(rolling == null ? null : rolling.getMaxUnavailable()),
                    text(rolling == null ? null : rolling.getMaxSurge()),
                    spec == null || spec.getReplicas() == null ? 1 : spec.getReplicas(),
                    DEFAULT_ROLLOUT,
                    DEFAULT_ROLLOUT);
        }
        JsonNode strategy = d.spec().path("strategy");
        JsonNode replicas = d.spec().path("replicas");
        return !"Recreate".equals(strategy.path("type").asText())
                && Workload.surgeOnly(
                        strategy.path("rollingUpdate").get("maxUnavailable"),
                        strategy.path("rollingUpdate").get("maxSurge"),
                        replicas.canConvertToLong() ? replicas.asLong() : 1,
                        DEFAULT_ROLLOUT,
                        DEFAULT_ROLLOUT);
    }

    /** The Deployment's default maxUnavailable and maxSurge. */
    private static final String DEFAULT_ROLLOUT = "25%";

    private static String text(IntOrString value) {
        if (value == null) {
            return null;
        }
        return value.getIntVal() != null ? String.valueOf(value.getIntVal()) : value.getStrVal();
    }

    /** LWS's leader Deployment (owned by the LWS). */
    @Override
    protected boolean ofLeaderWorkerSet(Workload d) {
        return d.owner(WorkloadKind.LEADER_WORKER_SET).isPresent();
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

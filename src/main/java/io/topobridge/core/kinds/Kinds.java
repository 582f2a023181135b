package io.topobridge.core.kinds;

import io.topobridge.core.expand.Controller;
import io.topobridge.core.expand.Expansion;
import io.topobridge.core.expand.PodDefaulter;
import io.topobridge.core.kinds.aibrix.PodSetAdapter;
import io.topobridge.core.kinds.aibrix.PodSetController;
import io.topobridge.core.kinds.aibrix.RoleSetAdapter;
import io.topobridge.core.kinds.aibrix.RoleSetController;
import io.topobridge.core.kinds.aibrix.StormServiceAdapter;
import io.topobridge.core.kinds.aibrix.StormServiceController;
import io.topobridge.core.kinds.deployment.DeploymentAdapter;
import io.topobridge.core.kinds.deployment.DeploymentController;
import io.topobridge.core.kinds.deployment.ReplicaSetController;
import io.topobridge.core.kinds.disaggregatedset.DisaggregatedSetAdapter;
import io.topobridge.core.kinds.disaggregatedset.DisaggregatedSetController;
import io.topobridge.core.kinds.lws.LeaderPodController;
import io.topobridge.core.kinds.lws.LeaderWorkerSetAdapter;
import io.topobridge.core.kinds.lws.LeaderWorkerSetController;
import io.topobridge.core.kinds.lws.LwsPodWebhook;
import io.topobridge.core.kinds.statefulset.StatefulSetAdapter;
import io.topobridge.core.kinds.statefulset.StatefulSetController;
import io.topobridge.core.workload.kind.KindAdapter;
import io.topobridge.core.workload.kind.WorkloadAdapters;
import java.util.List;

/**
 * Every workload kind the bridge manages, each with its adapter (its gangs), the controllers {@code render} emulates
 * for it and the pod webhooks it brings: the only place that lists kinds. Adding a kind means one folder beside this
 * class and one line here.
 */
public final class Kinds {

    /** One kind: its adapter, the controllers that expand it and what it makes, and the webhooks its pods pass. */
    private record Kind(KindAdapter adapter, List<Controller> controllers, List<PodDefaulter> podDefaulters) {}

    /** In the order pods are matched: labels a workload's own controller stamps before owner chains. */
    private static final List<Kind> ALL = List.of(
            new Kind(new DisaggregatedSetAdapter(), List.of(new DisaggregatedSetController()), List.of()),
            new Kind(
                    new LeaderWorkerSetAdapter(),
                    List.of(new LeaderWorkerSetController(), new LeaderPodController()),
                    List.of(LwsPodWebhook::admit)),
            new Kind(new RoleSetAdapter(), List.of(new RoleSetController()), List.of()),
            new Kind(new PodSetAdapter(), List.of(new PodSetController()), List.of()),
            new Kind(
                    new DeploymentAdapter(),
                    List.of(new DeploymentController(), new ReplicaSetController()),
                    List.of()),
            new Kind(new StatefulSetAdapter(), List.of(new StatefulSetController()), List.of()),
            new Kind(new StormServiceAdapter(), List.of(new StormServiceController()), List.of()));

    private static final WorkloadAdapters ADAPTERS =
            new WorkloadAdapters(ALL.stream().map(Kind::adapter).toList());

    private static final Expansion EXPANSION = new Expansion(
            ALL.stream().flatMap(k -> k.controllers().stream()).toList(),
            ALL.stream().flatMap(k -> k.podDefaulters().stream()).toList());

    public static WorkloadAdapters adapters() {
        return ADAPTERS;
    }

    public static Expansion expansion() {
        return EXPANSION;
    }
}

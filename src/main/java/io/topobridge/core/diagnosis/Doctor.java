package io.topobridge.core.diagnosis;

import java.util.List;
import java.util.function.Function;

/**
 * Checks an installation before it bites: Volcano's CRDs new enough for what the bridge writes, the scheduler
 * plugins that enforce topology and sub-gangs, Volcano's own label discovery not fighting the bridge over nodes,
 * the queues workloads name, a HyperNode forest Volcano can use, the bridge's webhook configurations with the
 * current CA, accelerator nodes that lie in no topology tree, and nodes that take no new pods (their resources are no
 * room for gangs), with the running gangs whose domain lost capacity that way, and the optional Kubernetes APIs the
 * cluster does not serve. Pure: the same checks serve
 * {@code /api/doctor}, the {@code doctor} command, findings, metrics and readiness.
 */
public final class Doctor {

    /**
     * One check: its name (what {@code doctor} prints, the metric's {@code check} label), when it warns or fails and
     * the finding reasons it raises (the manual's table of checks is generated from these), and how it runs.
     */
    public record Check(
            String name, String failsWhen, String reasons, Function<DoctorInputs, DoctorCheck.Result> run) {}

    /** Every check, in the order they run and are shown. */
    private static final List<Check> CHECKS = List.of(
            new Check(
                    "volcano-crds",
                    "the PodGroup CRD lacks `spec.networkTopology` or `spec.subGroupPolicy`, the HyperNode CRD lacks"
                            + " `spec.tierName`, or either is absent: **Volcano v1.14 or later** is needed",
                    "`VolcanoCrdTooOld`, `VolcanoCrdMissing`",
                    VolcanoCrdsCheck::check),
            new Check(
                    "scheduler-config",
                    "the scheduler configuration does not enable `network-topology-aware` (hard topology is not"
                            + " enforced) or `gang` (gangs and subgroups are not all-or-nothing), or sets"
                            + " `enabledHyperNodeGradient: false` on `network-topology-aware`; a warning when the"
                            + " ConfigMap is missing or unreadable",
                    "`SchedulerPluginMissing`, `SchedulerConfigUnknown`",
                    SchedulerConfigCheck::check),
            new Check(
                    "scheduler-actions",
                    "the scheduler configuration's `actions` lack one that"
                            + " [Install](install.md#enable-network-topology-aware-in-volcano) recommends for gangs —"
                            + " `enqueue` (without it `allocate` admits every PodGroup at once, whether or not its queue"
                            + " has room for its `minResources`), `allocate` (no pod is placed: a failure), `backfill`"
                            + " (pods that request nothing are never placed) — or run `enqueue` after `allocate`"
                            + " (warnings); a failure when `actions` is absent or names an action Volcano does not know"
                            + " (v1.15: `enqueue`, `allocate`, `backfill`, `preempt`, `reclaim`, `gangpreempt`,"
                            + " `gangreclaim`, `shuffle`), since Volcano then refuses the whole file and keeps the"
                            + " configuration it had. A warning also when it names `gangpreempt` or `gangreclaim`,"
                            + " which Volcano before v1.15 does not know (it would refuse the file;"
                            + " [Compatibility](compatibility.md)). The message names what is missing; `preempt` and"
                            + " `reclaim` are not part of the recommendation and are only named",
                    "`SchedulerActionMissing`",
                    SchedulerActionsCheck::check),
            new Check(
                    "label-discovery",
                    "Volcano's own HyperNode label discovery (key `volcano-controller.conf`,"
                            + " `networkTopologyDiscovery[]` with `source: label`, enabled) makes HyperNodes from a"
                            + " label the bridge's tiers read: two sources fight over nodes. Volcano's HyperNode"
                            + " controller reads `<release>-controller-configmap` in its namespace; the bridge reads"
                            + " the one of the release its scheduler ConfigMap names (`<release>-scheduler-configmap`,"
                            + " e.g. `vc-scheduler-configmap` → `vc-controller-configmap`) and"
                            + " `volcano-controller-configmap` (the chart grants `get` on just those); the `doctor`"
                            + " command, run with your rights, also lists the namespace for any other"
                            + " `*-controller-configmap`. Each overlap names its ConfigMap",
                    "`LabelDiscoveryOverlap`",
                    LabelDiscoveryCheck::check),
            new Check(
                    "queues",
                    "a queue that managed workloads (`topobridge.io/queue`, `scheduling.volcano.sh/queue-name`, else"
                            + " their namespace's default queue — the Namespace's `scheduling.volcano.sh/queue-name` —"
                            + " else the configured default queue) or the bridge's PodGroups name does not exist or is"
                            + " not Open",
                    "`QueueNotFound`, `QueueClosed`",
                    QueuesCheck::check),
            new Check(
                    "hypernode-forest",
                    "across every source, a node or HyperNode has two parents, HyperNodes form a cycle, a HyperNode"
                            + " above tier 1 has Node members, or a member is not exactly one tier below its parent",
                    "`HyperNodeForestBroken`",
                    HyperNodeForestCheck::check),
            new Check(
                    "webhooks",
                    "admission is on and the Mutating or Validating webhook configuration is missing, or a webhook's"
                            + " `caBundle` is not the certificate Secret's `ca.crt`; configurations the bridge may not"
                            + " read are a warning only where it writes them itself (`manage-configurations=true`),"
                            + " and not checked where their installer keeps them (OLM names them itself and grants"
                            + " the bridge no access to them)",
                    "`WebhookConfigurationStale`",
                    WebhooksCheck::check),
            new Check(
                    "gpu-nodes",
                    "(a warning) GPU nodes are in no topology tree; they are named",
                    "each node is the topology's `GpuNodeOutsideTopology` finding",
                    GpuNodesCheck::check),
            new Check(
                    "node-room",
                    "(a warning) nodes are not ready, or a running hard-tier gang's domain lost the room to run it"
                            + " again (`DomainLost`, `ReplacementBlocked`, with the domain and what it lost); cordoned"
                            + " nodes and accelerator nodes with NoSchedule/NoExecute taints are named (their resources"
                            + " are no room for a gang's new pods, so `auto` and explain leave them out) but are no"
                            + " problem on their own",
                    "none of its own: a lost domain is the workloads' `DomainLost` finding",
                    NodeRoomCheck::check),
            new Check(
                    "kubernetes-apis",
                    "(a warning) the cluster does not serve an optional Kubernetes API (its discovery answers 404):"
                            + " `resource.k8s.io/v1` (Kubernetes 1.34 and later; without it the bridge does not cache"
                            + " ResourceClaims and ResourceClaimTemplates, so DRA devices are not counted) or"
                            + " `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicies (1.30 and later; the"
                            + " chart's `nodeLabelPolicy`). The bridge says the same in one line when it starts",
                    "none: nothing in the cluster is wrong, a feature is off",
                    KubernetesApisCheck::check));

    private Doctor() {}

    /** Every check, in a fixed order. */
    public static List<DoctorCheck> run(DoctorInputs in) {
        return CHECKS.stream()
                .map(check -> {
                    DoctorCheck.Result found = check.run().apply(in);
                    return new DoctorCheck(check.name(), found.status(), found.message(), found.findings());
                })
                .toList();
    }

    /** Every check's name, description and reasons, in the order they run. */
    public static List<Check> checks() {
        return CHECKS;
    }
}

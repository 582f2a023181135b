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

    /** One check: its name (what {@code doctor} prints, the metric's {@code check} label) and how it runs. */
    public record Check(String name, Function<DoctorInputs, DoctorCheck.Result> run) {}

    /** Every check, in the order they run. */
    public static final List<Check> CHECKS = List.of(
            new Check("volcano-crds", VolcanoCrdsCheck::check),
            new Check("scheduler-config", SchedulerConfigCheck::check),
            new Check("scheduler-actions", SchedulerActionsCheck::check),
            new Check("label-discovery", LabelDiscoveryCheck::check),
            new Check("queues", QueuesCheck::check),
            new Check("hypernode-forest", HyperNodeForestCheck::check),
            new Check("webhooks", WebhooksCheck::check),
            new Check("gpu-nodes", GpuNodesCheck::check),
            new Check("node-room", NodeRoomCheck::check),
            new Check("kubernetes-apis", KubernetesApisCheck::check));

    /** Every check, in a fixed order. */
    public static List<DoctorCheck> run(DoctorInputs in) {
        return CHECKS.stream()
                .map(check -> {
                    DoctorCheck.Result found = check.run().apply(in);
                    return new DoctorCheck(check.name(), found.status(), found.message(), found.findings());
                })
                .toList();
    }
}

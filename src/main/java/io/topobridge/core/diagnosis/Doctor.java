package io.topobridge.core.diagnosis;

import java.util.List;
import java.util.function.Function;

/**
 * Checks an installation before it bites: Volcano's CRDs new enough for what the bridge writes, the scheduler
 * plugins that enforce topology and sub-gangs, Volcano's own label discovery not fighting the bridge over nodes,
 * the queues workloads name, a HyperNode forest Volcano can use, the bridge's webhook configurations with the
 * current CA, accelerator nodes that lie in no topology tree, and nodes that take no new pods (their resources are no
 * room for gangs), with the running gangs whose domain lost capacity that way. Pure: the same checks serve
 * {@code /api/doctor}, the {@code doctor} command, findings, metrics and readiness.
 */
public final class Doctor {

    /** Every check, in the order they run and are shown. */
    private static final List<Function<DoctorInputs, DoctorCheck>> CHECKS = List.of(
            VolcanoCrdsCheck::check,
            SchedulerConfigCheck::check,
            SchedulerActionsCheck::check,
            LabelDiscoveryCheck::check,
            QueuesCheck::check,
            HyperNodeForestCheck::check,
            WebhooksCheck::check,
            GpuNodesCheck::check,
            NodeRoomCheck::check);

    private Doctor() {}

    /** Every check, in a fixed order. */
    public static List<DoctorCheck> run(DoctorInputs in) {
        return CHECKS.stream().map(check -> check.apply(in)).toList();
    }
}

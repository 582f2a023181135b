package io.topobridge.core.workload.reconcile;

import io.topobridge.core.recovery.DomainLossRestarts;
import java.time.Duration;
import java.util.Objects;

/**
 * How the reconciler treats namespaces and groups.
 *
 * @param requireNamespaceOptIn whether only namespaces labelled {@code namespaceLabel=true} get PodGroups (the pod
 *     webhook sees only their pods)
 * @param groupAssembly how long the first PodGroup of a {@code topobridge.io/group} waits for the group's other
 *     members, counted from the creation of its oldest member (zero: no wait)
 * @param restarts the default grace and the cluster's limit of restarts of gangs whose domain is lost
 */
public record ReconcileSettings(
        boolean requireNamespaceOptIn,
        String namespaceLabel,
        Duration groupAssembly,
        DomainLossRestarts.Settings restarts) {

    public static final String GROUP_ASSEMBLY_KEY = "topobridge.workloads.group-assembly";

    public ReconcileSettings {
        Objects.requireNonNull(namespaceLabel, "namespaceLabel");
        Objects.requireNonNull(groupAssembly, "groupAssembly");
        Objects.requireNonNull(restarts, "restarts");
        if (groupAssembly.isNegative()) {
            throw new IllegalArgumentException(GROUP_ASSEMBLY_KEY + "=" + groupAssembly + ": must not be negative");
        }
    }
}

package io.topobridge.core.workload.dra;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.volcano.model.NetworkTopologySpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * GB200 ComputeDomains as a gang's pods claim them. NVIDIA's DRA driver gives the pods of one ComputeDomain an IMEX
 * channel each ({@code compute-domain-default-channel.nvidia.com}; its own daemons claim
 * {@code compute-domain-daemon.nvidia.com}), through the ResourceClaimTemplate the ComputeDomain names (or one shared
 * ResourceClaim); IMEX shares GPU memory over NVLink only, so the pods of one ComputeDomain must run in one NVLink
 * domain. Such claims are no accelerators ({@link DraDevices} neither counts nor lists them); a gang whose pods share
 * one, held to no tier or to a tier above the one named {@value #NVLINK}, may be placed across NVLink domains, and is
 * warned about ({@link WorkloadReason#COMPUTE_DOMAIN_SPANS_NVLINK}). Where no tier is named {@value #NVLINK}, nothing is
 * judged.
 */
public final class ComputeDomains {

    /** The DeviceClasses of ComputeDomain channels and daemons (NVIDIA's DRA driver for GPUs). */
    public static final Set<String> CHANNEL_CLASSES =
            Set.of("compute-domain-default-channel.nvidia.com", "compute-domain-daemon.nvidia.com");

    /** The tier name that stands for one NVLink domain. */
    public static final String NVLINK = "nvlink";

    /**
     * A warning on every subject when two or more of the gang's pods claim a ComputeDomain channel through the same
     * object and the PodGroup's tier lets Volcano place them across NVLink domains; none otherwise.
     */
    public static List<Finding> findings(
            DraDevices.GangDevices devices, DesiredPodGroup podGroup, TierCatalog tiers, List<ObjectRef> subjects) {
        Optional<Integer> nvlink = tiers.number(NVLINK);
        if (nvlink.isEmpty() || devices.channels().isEmpty()) {
            return List.of();
        }
        NetworkTopologySpec topology = podGroup.spec().getNetworkTopology();
        Integer tier = topology == null ? null : topology.getHighestTierAllowed();
        if (tier != null && tier <= nvlink.get()) {
            return List.of();
        }
        List<String> shared = devices.channels().entrySet().stream()
                .filter(e -> e.getValue() > 1)
                .map(e -> e.getKey() + " (" + e.getValue() + " pods)")
                .toList();
        if (shared.isEmpty()) {
            return List.of();
        }
        String mode = topology == null || topology.getMode() == null
                ? "hard"
                : topology.getMode().value();
        String placed = tier == null
                ? "PodGroup " + podGroup.name() + " has no tier, so Volcano may place them on any nodes"
                : "its " + mode + " tier " + tier + label(tiers, tier) + " lets Volcano place them across NVLink"
                        + " domains";
        String message = "the pods of gang " + podGroup.name() + " share a ComputeDomain (IMEX) channel through "
                + String.join(", ", shared) + ", which works only among the nodes of one NVLink domain; " + placed
                + "; topobridge.io/highest-tier: " + NVLINK + " (tier " + nvlink.get() + ") keeps them in one";
        return WorkloadReason.warnings(WorkloadReason.COMPUTE_DOMAIN_SPANS_NVLINK, subjects, podGroup.name(), message);
    }

    /** {@code " (leaf)"}: the names of a tier number, or nothing. */
    private static String label(TierCatalog tiers, int tier) {
        List<String> names = tiers.names().stream()
                .filter(n -> tiers.numbers(n).contains(tier))
                .toList();
        return names.isEmpty() ? "" : " (" + String.join(", ", names) + ")";
    }
}

package io.topobridge.core.workload;

import io.topobridge.core.finding.UserText;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Validated workload configuration for the translator and the PodGroup planner.
 *
 * @param defaultQueue the queue of a gang whose workload names none, in a namespace that names no default queue
 * @param unlistedQueues which queues workloads may use in a namespace without an allow-list annotation
 * @param maxPodGroupsPerNamespace how many PodGroups the bridge makes at most in one namespace
 * @param autoTierMinDomains for {@code highest-tier: auto}, how many domains of a tier must be able to hold a gang
 *     for that tier to be chosen
 * @param autoWaitForRoom for {@code highest-tier: auto} without a written mode, how long a new gang whose chosen tier
 *     has no room today stays {@code hard} (waiting for room there) before it turns {@code soft}; zero: soft at once
 * @param maxGangsPerWorkload how many gangs (LWS groups, DisaggregatedSet slices) the bridge plans at most for one
 *     workload; one asking for more is refused before any is planned
 * @param deviceClasses which DRA DeviceClasses count as which accelerator when a gang is sized
 */
public record WorkloadSettings(
        String defaultQueue,
        UnlistedQueues unlistedQueues,
        int maxPodGroupsPerNamespace,
        int autoTierMinDomains,
        Duration autoWaitForRoom,
        int maxGangsPerWorkload,
        io.topobridge.core.node.DeviceClasses deviceClasses) {

    public static final String UNLISTED_QUEUES_KEY = "topobridge.workloads.queues-without-allow-list";
    public static final String MAX_POD_GROUPS_KEY = "topobridge.workloads.max-podgroups-per-namespace";
    public static final String AUTO_TIER_MIN_DOMAINS_KEY = "topobridge.workloads.auto-tier-min-domains";
    public static final String AUTO_WAIT_FOR_ROOM_KEY = "topobridge.workloads.auto-wait-for-room";
    public static final Duration MAX_AUTO_WAIT_FOR_ROOM = Duration.ofHours(24);
    public static final String MAX_GANGS_KEY = "topobridge.workloads.max-gangs-per-workload";

    /** Which queues a namespace without {@code topobridge.io/allowed-queues} may use. */
    public enum UnlistedQueues {
        /** Only its default queue: the namespace's own (Volcano's namespace annotation) or the configured one. */
        DEFAULT_ONLY,
        ANY;

        /** The configuration value, e.g. {@code default-only}. */
        public String value() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** Parses a configuration value; the exception names the key and the value. */
        public static UnlistedQueues parse(String value) {
            for (UnlistedQueues v : values()) {
                if (v.value().equals(value == null ? "" : value.trim())) {
                    return v;
                }
            }
            throw new IllegalArgumentException(
                    UNLISTED_QUEUES_KEY + "=" + UserText.quote(value) + ": must be default-only or any");
        }
    }

    public WorkloadSettings {
        Objects.requireNonNull(defaultQueue, "defaultQueue");
        Objects.requireNonNull(unlistedQueues, "unlistedQueues");
        if (maxPodGroupsPerNamespace < 1) {
            throw new IllegalArgumentException(
                    MAX_POD_GROUPS_KEY + "=" + maxPodGroupsPerNamespace + ": must be at least 1");
        }
        if (autoTierMinDomains < 1) {
            throw new IllegalArgumentException(
                    AUTO_TIER_MIN_DOMAINS_KEY + "=" + autoTierMinDomains + ": must be at least 1");
        }
        Objects.requireNonNull(autoWaitForRoom, "autoWaitForRoom");
        if (autoWaitForRoom.isNegative() || autoWaitForRoom.compareTo(MAX_AUTO_WAIT_FOR_ROOM) > 0) {
            throw new IllegalArgumentException(AUTO_WAIT_FOR_ROOM_KEY + "=" + autoWaitForRoom
                    + ": must be between 0s and " + MAX_AUTO_WAIT_FOR_ROOM.toHours() + "h");
        }
        if (maxGangsPerWorkload < 1) {
            throw new IllegalArgumentException(MAX_GANGS_KEY + "=" + maxGangsPerWorkload + ": must be at least 1");
        }
        Objects.requireNonNull(deviceClasses, "deviceClasses");
    }

    /**
     * When a gang whose PodGroup was created at {@code creationTimestamp} (RFC 3339, as the API server writes it) has
     * waited {@link #autoWaitForRoom} for room; empty when the time cannot be read (such a gang has waited enough).
     */
    public Optional<Instant> roomWaitEnd(String creationTimestamp) {
        return timestamp(creationTimestamp).map(created -> created.plus(autoWaitForRoom));
    }

    /** A timestamp as the API server writes it (RFC 3339); empty when absent or unreadable. */
    public static Optional<Instant> timestamp(String rfc3339) {
        try {
            return rfc3339 == null ? Optional.empty() : Optional.of(Instant.parse(rfc3339));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}

package io.topobridge.perf.placement;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.e2e.RealCluster;
import io.topobridge.perf.placement.Gangs.Arrival;
import java.util.List;
import java.util.Map;

/**
 * One system the placement benchmark offers the same arrivals to: how it is started, how a gang of the benchmark
 * arrives and leaves as that system's objects, and which hard tiers the gang then claims. Its pods carry the
 * benchmark's gang and role labels ({@link PlacementBenchmark#GANG_LABEL}, {@link PlacementBenchmark#ROLE_LABEL}), so
 * that every run is observed and judged the same way, against the bridge's HyperNodes.
 */
interface PlacementSystem extends AutoCloseable {

    /** What a system works with: the real cluster and the example GPU nodes the gangs may use. */
    record Context(RealCluster cluster, List<String> gpuNodes) {}

    /** The run's name in {@code bench.placementRuns} ({@code hand}, {@code kueue}…). */
    String label();

    /** The start of its figures' names. */
    default String prefix() {
        return "placement_" + label().replace('-', '_') + "_";
    }

    /** What the run is, for its figures' notes. */
    String what();

    /** The label of the run its figures are compared with, or null. */
    String comparedWith();

    /** Starts what the run needs (the bridge, a scheduler…); the default bridge may be stopped. */
    void open(Context context);

    /** The client of the API server its pods live on. */
    default KubernetesClient client(Context context) {
        return context.cluster().client();
    }

    /** The labels of the run's namespace (the bridge's opt-in…). */
    default Map<String, String> namespaceLabels() {
        return Map.of();
    }

    /** Prepares the run's namespace once it exists and its default ServiceAccount is there (queues…). */
    default void prepare(Context context, String namespace) {}

    void arrive(Context context, String namespace, Arrival arrival);

    void depart(Context context, String namespace, Arrival arrival);

    /**
     * The hard tiers the gang claims, read from what the system was given: "" for the whole gang, a role's name for
     * the role's pods; tier numbers of {@link Gangs#TIERS}.
     */
    Map<String, Integer> hardTiers(Context context, String namespace, Arrival arrival);

    /**
     * Whether the system enforces the hard tiers {@link #hardTiers} reports (the unaware run reports the examples'
     * tiers only to see whether they were kept by chance).
     */
    default boolean enforcesHardTiers() {
        return true;
    }

    /** Stops what {@link #open} started. */
    @Override
    default void close() {}
}

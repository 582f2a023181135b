package io.topobridge.config;

import io.smallrye.config.ConfigMapping;

/**
 * The one configuration root, {@code topobridge.*}. Every key has a default and a one-line description;
 * {@code io.topobridge.wiring.SettingsProducer} rejects invalid combinations at start-up with one message.
 */
@ConfigMapping(prefix = "topobridge")
public interface TopobridgeConfig {

    /** How node labels become HyperNode tiers. */
    TopologyConfig topology();

    /** Which workloads become PodGroups, and their defaults. */
    WorkloadConfig workloads();

    /** The pod and workload admission webhooks and their TLS. */
    AdmissionConfig admission();

    /** Facts about the Volcano installation the bridge works with. */
    VolcanoConfig volcano();

    /** Explaining pending gangs. */
    DiagnosisConfig diagnosis();

    /** How many findings are kept per object. */
    FindingsConfig findings();

    /** How fast the Events of findings are written. */
    EventsConfig events();

    /** The HTTP port: who may read the REST API, the topology page and the metrics. */
    HttpConfig http();

    /** Leader election among replicas. */
    LeaderElectionConfig leaderElection();

    /** The in-process demo API server used by {@code quarkus:dev} when no cluster is configured. */
    DevClusterConfig devCluster();
}

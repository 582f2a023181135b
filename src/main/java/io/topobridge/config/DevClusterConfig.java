package io.topobridge.config;

import io.smallrye.config.WithDefault;

/** {@code topobridge.dev-cluster.*}: the embedded demo API server of {@code quarkus:dev}. */
public interface DevClusterConfig {

    /** Start the embedded API server in dev mode when no kubeconfig or API server URL is configured. */
    @WithDefault("true")
    boolean enabled();

    /** Folder of YAML files (searched recursively) seeded into the embedded API server. */
    @WithDefault("examples")
    String seed();
}

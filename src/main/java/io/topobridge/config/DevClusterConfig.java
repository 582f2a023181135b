package io.topobridge.config;

import io.smallrye.config.WithDefault;

/** {@code topobridge.dev-cluster.*}: the embedded demo API server of {@code quarkus:dev}. */
public interface DevClusterConfig {

    /** Start the embedded API server in dev mode when no kubeconfig or API server URL is configured. */
    @WithDefault("true")
    boolean enabled();

    /**
     * Which cluster dev mode starts: {@code mock}, the embedded API server (seconds, no Go), or {@code real}, the
     * real-cluster test tier's kube-apiserver, Volcano, LWS and AIBrix built from their Go modules, where Volcano
     * really places the demo gangs (needs {@code ./mvnw -B test-compile} once and Go 1.26 or newer).
     */
    @WithDefault("mock")
    Kind kind();

    /** The kinds of dev cluster. */
    enum Kind {
        MOCK,
        REAL
    }

    /** Folder of YAML files (searched recursively) seeded into the embedded API server. */
    @WithDefault("examples")
    String seed();
}

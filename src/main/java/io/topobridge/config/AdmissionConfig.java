package io.topobridge.config;

import io.smallrye.config.WithDefault;

/** {@code topobridge.admission.*}: the pod mutating and workload validating webhooks. */
public interface AdmissionConfig {

    /** Serve and register the admission webhooks. */
    @WithDefault("true")
    boolean enabled();

    /** Namespace label that opts a namespace in to pod admission (value {@code true}). */
    @WithDefault("topobridge.io/enabled")
    String namespaceLabel();

    /** Scheduler name set on admitted pods that name none or {@code default-scheduler}. */
    @WithDefault("volcano")
    String schedulerName();
}

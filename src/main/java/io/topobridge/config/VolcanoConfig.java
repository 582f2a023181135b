package io.topobridge.config;

import io.smallrye.config.WithDefault;

/** {@code topobridge.volcano.*}: where the Volcano scheduler's configuration lives. */
public interface VolcanoConfig {

    /** Namespace of the Volcano scheduler's ConfigMap (read to check that hard topology is enforced). */
    @WithDefault("volcano-system")
    String schedulerConfigNamespace();

    /** Name of the Volcano scheduler's ConfigMap. */
    @WithDefault("volcano-scheduler-configmap")
    String schedulerConfigName();

    /** Key of the ConfigMap that holds the scheduler configuration YAML. */
    @WithDefault("volcano-scheduler.conf")
    String schedulerConfigKey();
}

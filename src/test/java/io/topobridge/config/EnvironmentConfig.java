package io.topobridge.config;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.topobridge.wiring.SettingsProducer;
import java.time.Duration;
import java.util.Map;

/**
 * The configuration a process would read from {@code environment} (e.g. the environment the Helm chart gives the
 * controller), through the real {@code topobridge.*} mapping, as {@link SettingsProducer} and its start-up check.
 */
public final class EnvironmentConfig {

    private EnvironmentConfig() {}

    public static SettingsProducer settings(Map<String, String> environment) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(TopobridgeConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new EnvConfigSource(environment, 300))
                .build();
        return new SettingsProducer(config.getConfigMapping(TopobridgeConfig.class));
    }

    /** Fails with the controller's own start-up message when the configuration is invalid. */
    public static SettingsProducer validated(Map<String, String> environment) {
        SettingsProducer settings = settings(environment);
        settings.validate();
        return settings;
    }
}

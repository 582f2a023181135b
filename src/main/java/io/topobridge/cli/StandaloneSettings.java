package io.topobridge.cli;

import io.smallrye.config.PropertiesConfigSourceLoader;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.topobridge.config.TopobridgeConfig;
import io.topobridge.wiring.SettingsProducer;

/**
 * The {@code topobridge.*} configuration read without booting Quarkus, from the sources the application reads (its
 * {@code application.properties}, {@code config/application.properties} in the working directory, environment
 * variables, system properties; profile {@code prod}), mapped by the same {@link SettingsProducer}.
 */
final class StandaloneSettings {

    private StandaloneSettings() {}

    static SettingsProducer load() {
        ClassLoader loader = StandaloneSettings.class.getClassLoader();
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder()
                .withProfile("prod")
                .addDefaultSources()
                .addDefaultInterceptors()
                .addDiscoveredConverters()
                .withSources(PropertiesConfigSourceLoader.inClassPath("application.properties", 250, loader))
                .withSources(PropertiesConfigSourceLoader.inFileSystem("config/application.properties", 260, loader))
                .withMapping(TopobridgeConfig.class);
        SmallRyeConfig config = builder.build();
        return new SettingsProducer(config.getConfigMapping(TopobridgeConfig.class));
    }
}

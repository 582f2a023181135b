package io.topobridge.wiring;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.topobridge.config.CliMode;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Refuses to start the controller on invalid configuration, with one message naming the key and value.
 * (Type errors are already reported by the config mapping itself; this checks what types cannot.)
 */
@ApplicationScoped
public class ConfigValidator {

    private final SettingsProducer settings;

    public ConfigValidator(SettingsProducer settings) {
        this.settings = settings;
    }

    void onStart(@Observes @Priority(1) StartupEvent event) {
        if (CliMode.active()) {
            return; // the CLI validates its own overrides and answers with a usage error
        }
        validate();
    }

    public void validate() {
        try {
            settings.mapAll();
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("Invalid topobridge configuration: " + e.getMessage());
        }
    }
}

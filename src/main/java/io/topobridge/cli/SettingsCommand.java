package io.topobridge.cli;

import io.topobridge.wiring.SettingsProducer;
import jakarta.inject.Inject;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A sub-command that reads the {@code topobridge.*} settings: {@link OfflineMain} gives them, Quarkus injects them
 * where it runs the command.
 */
abstract class SettingsCommand {

    @Spec
    CommandSpec spec;

    @Inject
    SettingsProducer settings;

    /** A usage error (exit code 2) saying {@code message}. */
    ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}

package io.topobridge.cli;

import org.eclipse.microprofile.config.ConfigProvider;
import picocli.CommandLine.IVersionProvider;

/** Prints the application version from the Quarkus configuration. */
public class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"topobridge " + ConfigProvider.getConfig()
                .getOptionalValue("quarkus.application.version", String.class).orElse("unknown")};
    }
}

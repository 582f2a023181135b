package io.topobridge.cli;

import org.eclipse.microprofile.config.ConfigProvider;
import picocli.CommandLine.IVersionProvider;

/** The application version from the Quarkus configuration, and the Java runtime it runs on. */
public class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {
            "topobridge "
                    + ConfigProvider.getConfig()
                            .getOptionalValue("quarkus.application.version", String.class)
                            .orElse("unknown"),
            "java " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vendor") + ", "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ")"
        };
    }
}

package io.topobridge.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The application version the build wrote next to this class, and the Java runtime it runs on. */
public class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {
            "topobridge " + version(),
            "java " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vendor") + ", "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ")"
        };
    }

    /** The project version; read from a resource so that {@code version} needs no framework to start. */
    static String version() {
        Properties properties = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return properties.getProperty("version", "unknown");
    }
}

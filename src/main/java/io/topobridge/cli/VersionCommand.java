package io.topobridge.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code version}: the application version and the Java runtime, one per line; also what {@code --version} prints.
 */
@Command(
        name = "version",
        mixinStandardHelpOptions = true,
        description = "Prints the topobridge version and the Java runtime it runs on.")
public class VersionCommand implements Callable<Integer>, IVersionProvider {

    @Override
    public Integer call() {
        Arrays.stream(getVersion()).forEach(System.out::println);
        return 0;
    }

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
        try (InputStream in = VersionCommand.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return properties.getProperty("version", "unknown");
    }
}

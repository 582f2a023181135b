package io.topobridge.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code version}: the application version and the Java runtime, one per line (the same as {@code --version}). */
@Command(
        name = "version",
        mixinStandardHelpOptions = true,
        description = "Prints the topobridge version and the Java runtime it runs on.")
public class VersionCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        for (String line : new VersionProvider().getVersion()) {
            System.out.println(line);
        }
        return 0;
    }
}

package io.topobridge.cli;

import io.smallrye.config.PropertiesConfigSourceLoader;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.topobridge.config.TopobridgeConfig;
import io.topobridge.wiring.SettingsProducer;
import java.util.Set;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import picocli.CommandLine;

/**
 * The commands that need neither the controller nor the framework ({@code version}, {@code render}, {@code doctor},
 * {@code explain} and the top-level help), run from a plain {@code main}: the JVM starts them without booting
 * Quarkus, which costs more than a small {@code render} itself. {@code cleanup} and the controller boot Quarkus.
 */
public final class OfflineMain {

    private static final Set<String> OFFLINE =
            Set.of("version", "render", "doctor", "explain", "--version", "-V", "--help", "-h");

    /** True when {@code args} name a command this class runs. */
    public static boolean handles(String... args) {
        return args.length > 0 && OFFLINE.contains(args[0]);
    }

    /** Runs the command line and exits the JVM with its exit code; the entry point of the plugin and the jar. */
    public static void main(String... args) {
        quietLogging();
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code. */
    public static int run(String... args) {
        CommandLine commandLine = new CommandLine(TopobridgeCommand.class);
        commandLine.setExecutionStrategy(parsed -> {
            Object command = parsed.asCommandLineList()
                    .get(parsed.asCommandLineList().size() - 1)
                    .getCommand();
            try {
                giveSettings(command);
            } catch (IllegalArgumentException | io.smallrye.config.ConfigValidationException e) {
                // an invalid topobridge.* value, or a key that maps to none: the message names it
                System.err.println("error: invalid configuration: " + firstLine(e.getMessage()));
                return 2;
            }
            return new CommandLine.RunLast().execute(parsed);
        });
        return commandLine.execute(args);
    }

    /**
     * The settings, read only for the command that runs and only if it reads them, and mapped once here so that an
     * invalid value is one line naming its key (the tiers are left to the command: its options may override them).
     * They are read without booting Quarkus, from the sources the application reads (its
     * {@code application.properties}, {@code config/application.properties} in the working directory, environment
     * variables, system properties; profile {@code prod}), and mapped by the same {@link SettingsProducer}.
     */
    private static void giveSettings(Object command) {
        if (!(command instanceof SettingsCommand reads)) {
            return;
        }
        ClassLoader loader = OfflineMain.class.getClassLoader();
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withProfile("prod")
                .addDefaultSources()
                .addDefaultInterceptors()
                .addDiscoveredConverters()
                .withSources(PropertiesConfigSourceLoader.inClassPath("application.properties", 250, loader))
                .withSources(PropertiesConfigSourceLoader.inFileSystem("config/application.properties", 260, loader))
                .withMapping(TopobridgeConfig.class)
                .build();
        SettingsProducer settings = new SettingsProducer(config.getConfigMapping(TopobridgeConfig.class));
        settings.workloads();
        settings.reservations();
        settings.reconcile();
        settings.accelerators();
        settings.admission();
        reads.settings = settings;
    }

    /**
     * Warnings and errors of the libraries, one line each on stderr; nothing below. Without Quarkus nobody configures
     * logging, and a log manager left as the jar's launcher set it would print everything, debug included.
     */
    private static void quietLogging() {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler console = new ConsoleHandler();
        console.setLevel(Level.WARNING);
        console.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord record) {
                return record.getLevel() + " " + record.getLoggerName() + ": " + formatMessage(record)
                        + System.lineSeparator();
            }
        });
        root.addHandler(console);
        root.setLevel(Level.WARNING);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        String trimmed = message.strip();
        int nl = trimmed.indexOf('\n');
        return nl < 0
                ? trimmed
                : trimmed.substring(0, nl) + " "
                        + trimmed.substring(nl + 1).strip().replace('\n', ' ');
    }
}

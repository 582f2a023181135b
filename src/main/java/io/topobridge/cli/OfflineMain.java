package io.topobridge.cli;

import io.topobridge.wiring.SettingsProducer;
import java.util.Set;
import picocli.CommandLine;

/**
 * The commands that need neither the controller nor the framework ({@code version}, {@code render}, {@code doctor},
 * {@code explain} and the top-level help), run from a plain {@code main}: the JVM starts them without booting
 * Quarkus, which costs more than a small {@code render} itself. {@code cleanup} and the controller boot Quarkus.
 */
public final class OfflineMain {

    private static final Set<String> OFFLINE =
            Set.of("version", "render", "doctor", "explain", "--version", "-V", "--help", "-h");

    private OfflineMain() {}

    /** True when {@code args} name a command this class runs. */
    public static boolean handles(String... args) {
        return args.length > 0 && OFFLINE.contains(args[0]);
    }

    /** Runs the command line and exits the JVM with its exit code; the entry point of the plugin and the jar. */
    public static void main(String... args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code. */
    public static int run(String... args) {
        return new CommandLine(TopobridgeCommand.class, new Factory()).execute(args);
    }

    /** Makes the commands and hands those that read the configuration the settings, read once and only if asked. */
    private static final class Factory implements CommandLine.IFactory {
        private SettingsProducer settings;

        @Override
        public <K> K create(Class<K> type) throws Exception {
            K made = CommandLine.defaultFactory().create(type);
            if (made instanceof RenderCommand render) {
                render.settings = settings();
            } else if (made instanceof DoctorCommand doctor) {
                doctor.settings = settings();
            } else if (made instanceof ExplainCommand explain) {
                explain.settings = settings();
            }
            return made;
        }

        private SettingsProducer settings() {
            if (settings == null) {
                settings = StandaloneSettings.load();
            }
            return settings;
        }
    }
}

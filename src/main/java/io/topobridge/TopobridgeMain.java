package io.topobridge;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.topobridge.cli.OfflineMain;
import io.topobridge.cli.TopobridgeCommand;
import io.topobridge.config.CliMode;
import jakarta.inject.Inject;
import picocli.CommandLine;

/**
 * One jar, two modes: without arguments it runs the controller; with a sub-command it runs that command and exits.
 * The choice is made before Quarkus boots: {@code version}, {@code render}, {@code doctor}, {@code explain} and the
 * help run from {@link OfflineMain} without booting it at all; {@code cleanup} boots it without the HTTP port or the
 * operator.
 */
@QuarkusMain
public class TopobridgeMain implements QuarkusApplication {

    @Inject
    CommandLine.IFactory factory;

    public static void main(String... args) {
        if (OfflineMain.handles(args)) {
            OfflineMain.main(args);
        }
        if (args.length > 0 && (CliMode.isCommand(args[0]) || args[0].startsWith("-"))) {
            CliMode.activate();
            System.setProperty("quarkus.log.console.stderr", "true");
            System.setProperty("quarkus.log.level", "WARN");
            System.setProperty("quarkus.banner.enabled", "false");
            System.setProperty("quarkus.http.host-enabled", "false");
            System.setProperty("quarkus.http.port", "0");
        }
        Quarkus.run(TopobridgeMain.class, args);
    }

    @Override
    public int run(String... args) {
        if (CliMode.active()) {
            return new CommandLine(TopobridgeCommand.class, factory).execute(args);
        }
        Quarkus.waitForExit();
        return 0;
    }
}

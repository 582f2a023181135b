package io.topobridge.config;

import java.util.Set;

/**
 * Whether this process runs a command-line sub-command instead of the controller. Decided in {@code main}
 * before Quarkus boots, so the controller, HTTP server and API client never start for a CLI run.
 */
public final class CliMode {

    static final Set<String> COMMANDS = Set.of("render", "version", "cleanup", "doctor", "explain");
    private static volatile boolean active;

    public static boolean active() {
        return active;
    }

    public static boolean isCommand(String arg) {
        return COMMANDS.contains(arg);
    }

    public static void activate() {
        active = true;
    }
}

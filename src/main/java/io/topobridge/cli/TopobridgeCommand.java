package io.topobridge.cli;

import picocli.CommandLine.Command;

/** The command-line face of the jar; without a sub-command the jar runs the controller instead. */
@Command(
        name = "topobridge",
        mixinStandardHelpOptions = true,
        versionProvider = VersionCommand.class,
        description =
                "Topology-aware gangs for LLM inference under Volcano. Without a sub-command the jar runs the controller.",
        subcommands = {
            RenderCommand.class,
            VersionCommand.class,
            CleanupCommand.class,
            DoctorCommand.class,
            ExplainCommand.class
        })
public class TopobridgeCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.err);
    }
}

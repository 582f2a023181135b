package io.topobridge.cli;

import io.topobridge.testing.StandardStreams;

/** One in-process run of the offline command line, its standard streams captured (standard input given). */
record CliRun(int exit, String out, String err) {

    static CliRun withInput(String stdin, String... args) {
        var run = StandardStreams.capture(stdin, () -> OfflineMain.run(args));
        return new CliRun(run.exit(), run.out(), run.err());
    }

    static CliRun of(String... args) {
        return withInput("", args);
    }
}

package io.topobridge.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;

/** Runs a command line in this JVM with its standard streams captured, for tests of what the CLI prints. */
public final class StandardStreams {

    /** What one run returned and printed. */
    public record Captured(int exit, String out, String err) {}

    private StandardStreams() {}

    /**
     * Runs {@code command} with standard output and error captured and, unless {@code stdin} is null, standard input
     * reading {@code stdin}; one run at a time, since the streams are the JVM's.
     */
    public static synchronized Captured capture(String stdin, IntSupplier command) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        InputStream in = System.in;
        var stdout = new ByteArrayOutputStream();
        var stderr = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
            if (stdin != null) {
                System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
            }
            int exit = command.getAsInt();
            return new Captured(exit, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
            System.setIn(in);
        }
    }
}

package io.topobridge.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One process of the real cluster (etcd, kube-apiserver, a controller…), its output appended to a log file
 * that outlives the run under {@code target/e2e/}.
 */
public final class Component {

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path log;
    private volatile Process process;
    private Instant startedAt;
    private volatile Integer lastExit;

    Component(String name, List<String> command, Map<String, String> environment, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.log = log;
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    public List<String> command() {
        return command;
    }

    /** Starts the process (appending to its log, so a restart keeps what the previous run printed). */
    public synchronized Component start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running");
        }
        try {
            Files.createDirectories(log.getParent());
            Files.writeString(
                    log,
                    "=== " + Instant.now() + " starting: " + String.join(" ", command) + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            lastExit = null;
            process = builder.start();
            startedAt = Instant.now();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
        return this;
    }

    public boolean alive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    public long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }

    public Instant startedAt() {
        return startedAt;
    }

    /** The exit code of the process's last run, or null while it runs (or if it never ended). */
    public Integer exitValue() {
        Process p = process;
        if (p != null && !p.isAlive()) {
            return p.exitValue();
        }
        return p == null ? lastExit : null;
    }

    private void ended(Process p) {
        lastExit = p.isAlive() ? null : p.exitValue();
    }

    /** Asks the process to stop (SIGTERM), and kills it if it has not exited within {@code grace}. */
    public synchronized void stop(Duration grace) {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        ended(p);
        process = null;
    }

    /** Kills the process at once (SIGKILL), as a crashed node would. */
    public synchronized void kill() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ended(p);
        }
        process = null;
    }

    /** Fails when the process died, quoting the end of its log. */
    public void assertAlive() {
        if (!alive()) {
            throw new IllegalStateException(name + " is not running; end of " + log + ":\n" + tail(40));
        }
    }

    /** The last {@code lines} lines of the log. */
    public String tail(int lines) {
        try {
            List<String> all = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
            return String.join("\n", new ArrayList<>(all.subList(Math.max(0, all.size() - lines), all.size())));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    @Override
    public String toString() {
        return name + (alive() ? " (pid " + pid() + ")" : " (stopped)");
    }
}

package io.topobridge.process;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A pass run on a daemon thread of its own at a fixed delay, started and stopped with the part that owns it. A pass
 * that fails is handed to the owner (to log) and the next one still comes: a periodic part must not die of one bad
 * pass.
 */
public final class PeriodicTask {

    /** When the passes run: on a daemon thread of that name, the first after a delay, then each a period later. */
    public record Schedule(String threadName, long firstDelaySeconds, long periodSeconds) {}

    private final Schedule schedule;
    private final Runnable before;
    private final Runnable pass;
    private final Consumer<RuntimeException> failed;
    private ScheduledExecutorService timer;

    /** {@code before} runs once as the passes start (e.g. starting the caches they read). */
    public PeriodicTask(Schedule schedule, Runnable before, Runnable pass, Consumer<RuntimeException> failed) {
        this.schedule = schedule;
        this.before = before;
        this.pass = pass;
        this.failed = failed;
    }

    /** Starts the passes unless they run already. */
    public synchronized void start() {
        if (timer != null) {
            return;
        }
        before.run();
        timer = daemonTimer(schedule.threadName());
        timer.scheduleWithFixedDelay(
                this::passQuietly, schedule.firstDelaySeconds(), schedule.periodSeconds(), TimeUnit.SECONDS);
    }

    /** A scheduler on one daemon thread of that name: it never keeps the process alive. */
    public static ScheduledExecutorService daemonTimer(String threadName) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    public synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    private void passQuietly() {
        try {
            pass.run();
        } catch (RuntimeException e) {
            failed.accept(e);
        }
    }
}

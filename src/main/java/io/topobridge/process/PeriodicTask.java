package io.topobridge.process;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * A pass run on a daemon thread of its own at a fixed delay, started and stopped with the part that owns it. A pass
 * that fails is logged and the next one still comes: a periodic part must not die of one bad pass.
 */
public final class PeriodicTask {

    private final String threadName;
    private final long firstDelaySeconds;
    private final long periodSeconds;
    private final Runnable before;
    private final Runnable pass;
    private final Logger log;
    private final String failure;
    private ScheduledExecutorService timer;

    /**
     * @param before what runs once before the passes start, e.g. starting the caches they read
     * @param failure what the owner's log says when a pass fails
     */
    public PeriodicTask(
            String threadName,
            long firstDelaySeconds,
            long periodSeconds,
            Runnable before,
            Runnable pass,
            Logger log,
            String failure) {
        this.threadName = threadName;
        this.firstDelaySeconds = firstDelaySeconds;
        this.periodSeconds = periodSeconds;
        this.before = before;
        this.pass = pass;
        this.log = log;
        this.failure = failure;
    }

    /** Starts the passes unless they run already. */
    public synchronized void start() {
        if (timer != null) {
            return;
        }
        before.run();
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::passQuietly, firstDelaySeconds, periodSeconds, TimeUnit.SECONDS);
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
            log.warn(failure, e);
        }
    }
}

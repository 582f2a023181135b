package io.topobridge.controller;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.topobridge.process.PeriodicTask;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Coalesces keyed events and hands them, as one batch, to a single worker thread once no new key has
 * arrived for the quiet period (or the maximum delay since the first pending key has passed). A failed
 * batch is retried with exponential backoff, merged with whatever arrived meanwhile. Work for one
 * debouncer never runs concurrently, so a reconciler needs no locking of its own.
 */
public final class Debouncer<K> implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Debouncer.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(60);

    private final String name;
    private final long quietNanos;
    private final long maxDelayNanos;
    private final Consumer<Set<K>> work;
    private final ScheduledExecutorService executor;

    private final Set<K> pending = new LinkedHashSet<>();
    private long firstPendingAt;
    private ScheduledFuture<?> scheduled;
    private long failures;

    public Debouncer(String name, Duration quiet, Duration maxDelay, Consumer<Set<K>> work) {
        this.name = name;
        this.quietNanos = quiet.toNanos();
        this.maxDelayNanos = Math.max(quiet.toNanos(), maxDelay.toNanos());
        this.work = work;
        this.executor = PeriodicTask.daemonTimer("topobridge-" + name);
    }

    /** Queues a key; the batch runs after the quiet period. */
    public synchronized void submit(K key) {
        if (executor.isShutdown()) {
            return;
        }
        long now = System.nanoTime();
        if (pending.isEmpty()) {
            firstPendingAt = now;
        }
        pending.add(key);
        schedule(Math.min(quietNanos, Math.max(0, firstPendingAt + maxDelayNanos - now)));
    }

    private void schedule(long delayNanos) {
        if (scheduled != null && !scheduled.isDone()) {
            scheduled.cancel(false);
        }
        scheduled = executor.schedule(this::drain, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void drain() {
        Set<K> batch;
        synchronized (this) {
            if (pending.isEmpty()) {
                return;
            }
            batch = new LinkedHashSet<>(pending);
            pending.clear();
        }
        long started = System.nanoTime();
        try {
            work.accept(batch);
            record(started, "ok");
            synchronized (this) {
                failures = 0;
            }
        } catch (RuntimeException e) {
            record(started, "error");
            long backoff;
            synchronized (this) {
                failures++;
                backoff =
                        Math.min(MAX_BACKOFF.toNanos(), TimeUnit.MILLISECONDS.toNanos(100L << Math.min(failures, 10)));
                if (pending.isEmpty()) {
                    firstPendingAt = System.nanoTime();
                }
                pending.addAll(batch);
                if (!executor.isShutdown()) {
                    schedule(backoff);
                }
            }
            LOG.warnf(
                    e,
                    "%s: batch of %d failed (attempt %d), retrying in %d ms",
                    name,
                    batch.size(),
                    failures,
                    TimeUnit.NANOSECONDS.toMillis(backoff));
        }
    }

    /**
     * {@code topobridge_reconcile_seconds{controller,result}}: one sample per batch, in Micrometer's global registry
     * (Quarkus adds its registries there; without one, as in plain unit tests, nothing is kept).
     */
    private void record(long startedNanos, String result) {
        Timer.builder("topobridge.reconcile")
                .description("Time one reconcile batch took, by controller and result")
                .tag("controller", name)
                .tag("result", result)
                .register(Metrics.globalRegistry)
                .record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
    }

    /** Keys waiting for the next batch (for tests and health). */
    public synchronized int pendingCount() {
        return pending.size();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}

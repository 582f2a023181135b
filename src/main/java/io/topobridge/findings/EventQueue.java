package io.topobridge.findings;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * The Events of findings, written by one background thread outside any lock the controllers take: {@link #record}
 * and {@link #forget} only queue (in memory, in constant time), so a slow or hanging API server never holds up a
 * reconcile.
 *
 * <p>What the queue bounds, with the effect of client-go's event broadcaster, correlator and spam filter:
 *
 * <ul>
 *   <li>Coalescing: one entry per finding identity; a newer message of a waiting finding replaces the older one
 *       (its Event shows the latest), and a finding that goes away before its Event is written is not written.
 *   <li>Rate: a token bucket for all Event writes together and one per involved object; an object whose bucket
 *       is empty waits its turn while the others are written, and its update is written (the latest one) once a
 *       token is back: nothing is lost to the rate limit.
 *   <li>Room: at most {@code queue-size} Events wait. When the queue is full, the namespace with the most waiting
 *       entries gives up its oldest one, so a flood in one namespace cannot keep another's Events out. Namespaces
 *       are served in turn.
 * </ul>
 *
 * Every Event not written is counted in {@code topobridge_events_dropped_total{reason}}: {@code superseded} (a
 * newer message replaced it), {@code resolved} (the finding went away first), {@code queue-full}, {@code failed}
 * (the API server refused it) and {@code shutdown}. {@code topobridge_events_queued} is the number waiting.
 */
@ApplicationScoped
public class EventQueue implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EventQueue.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    /** What waits for one finding identity: a forget to apply first, then the latest finding to write. */
    private static final class Pending {
        final Finding.Id id;
        boolean forget;
        Finding record;

        Pending(Finding.Id id) {
            this.id = id;
        }
    }

    private final EventRecorder recorder;
    private final FindingsSettings settings;
    private final MeterRegistry meters;
    private final LongSupplier clock;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Waiting entries by namespace ("" for cluster-scoped objects), each in the order they came. */
    private final LinkedHashMap<String, LinkedHashMap<Finding.Id, Pending>> byNamespace = new LinkedHashMap<>();

    /** Entries with a finding to write, by namespace. */
    private final Map<String, Integer> waiting = new HashMap<>();

    private final Map<String, TokenBucket> perObject = new HashMap<>();
    private TokenBucket global;
    /** Entries with a finding to write (forget-only entries take no room: they need no API call). */
    private int queued;
    /** The namespace served last, so that the next write serves the next one. */
    private String lastNamespace;

    private boolean dirty;
    private volatile boolean stopping;
    private volatile Thread writer;

    private final TokenBucket failureLog;
    private long failuresNotLogged;

    @Inject
    public EventQueue(EventRecorder recorder, FindingsSettings settings, MeterRegistry meters) {
        this(recorder, settings, meters, System::nanoTime);
    }

    /** A queue on {@code clock} (nanoseconds); nothing is written until {@link #start} or {@link #drain}. */
    EventQueue(EventRecorder recorder, FindingsSettings settings, MeterRegistry meters, LongSupplier clock) {
        this.recorder = recorder;
        this.settings = settings;
        this.meters = meters;
        this.clock = clock;
        long now = clock.getAsLong();
        this.global = new TokenBucket(settings.qps(), settings.burst(), now);
        this.failureLog = new TokenBucket(1.0 / 60, 5, now);
        Gauge.builder("topobridge.events.queued", this, EventQueue::queued)
                .description("Events of findings waiting to be written")
                .register(meters);
    }

    /** Starts the background writer (a daemon thread); {@link #close} stops it. */
    @PostConstruct
    public void start() {
        lock.lock();
        try {
            if (writer != null || stopping) {
                return;
            }
            writer = new Thread(this::run, "topobridge-events");
            writer.setDaemon(true);
            writer.start();
        } finally {
            lock.unlock();
        }
    }

    /** Queues the finding's Event (new, or a changed message); a waiting update of the same finding is replaced. */
    public void record(Finding finding) {
        lock.lock();
        try {
            Finding.Id id = finding.id();
            String namespace = namespace(finding.object());
            LinkedHashMap<Finding.Id, Pending> entries = byNamespace.get(namespace);
            Pending pending = entries == null ? null : entries.get(id);
            if (pending != null && pending.record != null) {
                pending.record = finding;
                counter("superseded").increment();
                return;
            }
            if (queued >= settings.queueSize() && !makeRoomFor(namespace)) {
                counter("queue-full").increment();
                return;
            }
            if (pending == null) {
                pending = new Pending(id);
                byNamespace
                        .computeIfAbsent(namespace, n -> new LinkedHashMap<>())
                        .put(id, pending);
            }
            pending.record = finding;
            queued++;
            waiting.merge(namespace, 1, Integer::sum);
            signal();
        } finally {
            lock.unlock();
        }
    }

    /** The finding went away: its next occurrence counts its Event up again; a waiting write of it is dropped. */
    public void forget(Finding.Id id) {
        lock.lock();
        try {
            String namespace = namespace(id.object());
            Pending pending = byNamespace
                    .computeIfAbsent(namespace, n -> new LinkedHashMap<>())
                    .computeIfAbsent(id, Pending::new);
            if (pending.record != null) {
                pending.record = null;
                queued--;
                waiting.merge(namespace, -1, Integer::sum);
                counter("resolved").increment();
            }
            pending.forget = true;
            signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * When the queue is full: the namespace with the most waiting Events gives up its oldest one, unless that is
     * {@code namespace} itself (then the new one is what is dropped). Returns whether there is room now.
     */
    private boolean makeRoomFor(String namespace) {
        String largest = waiting.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .filter(e -> e.getValue() > waiting.getOrDefault(namespace, 0))
                .map(Map.Entry::getKey)
                .orElse(null);
        if (largest == null) {
            return false;
        }
        LinkedHashMap<Finding.Id, Pending> entries = byNamespace.get(largest);
        for (Iterator<Pending> it = entries.values().iterator(); it.hasNext(); ) {
            Pending oldest = it.next();
            if (oldest.record != null) {
                oldest.record = null;
                if (!oldest.forget) {
                    it.remove();
                }
                break;
            }
        }
        queued--;
        waiting.merge(largest, -1, Integer::sum);
        counter("queue-full").increment();
        return true;
    }

    /**
     * Writes at most one Event that is due now, and applies the forgets before it. Returns 0 when it wrote one (more
     * may be due), otherwise how many nanoseconds until the next write could be due, or -1 when nothing waits.
     */
    long writeOne() {
        Finding next = null;
        long wait = -1;
        lock.lock();
        try {
            long now = clock.getAsLong();
            List<String> order = rotation();
            scan:
            for (String namespace : order) {
                LinkedHashMap<Finding.Id, Pending> entries = byNamespace.get(namespace);
                for (Iterator<Pending> it = entries.values().iterator(); it.hasNext(); ) {
                    Pending p = it.next();
                    if (p.forget) {
                        recorder.forget(p.id);
                        p.forget = false;
                    }
                    if (p.record == null) {
                        it.remove();
                        continue;
                    }
                    TokenBucket object = perObject.computeIfAbsent(
                            p.id.object() + "|"
                                    + Objects.requireNonNullElse(p.id.object().uid(), ""),
                            k -> new TokenBucket(settings.perObjectQps(), settings.perObjectBurst(), now));
                    if (!object.available(now)) {
                        long until = object.nanosUntilToken(now);
                        wait = wait < 0 ? until : Math.min(wait, until);
                        continue;
                    }
                    if (!global.tryTake(now)) {
                        long until = global.nanosUntilToken(now);
                        wait = wait < 0 ? until : Math.min(wait, until);
                        break scan;
                    }
                    object.tryTake(now);
                    next = p.record;
                    it.remove();
                    queued--;
                    waiting.merge(namespace, -1, Integer::sum);
                    lastNamespace = namespace;
                    break scan;
                }
            }
            byNamespace.values().removeIf(Map::isEmpty);
            waiting.values().removeIf(n -> n == 0);
            prune(now);
        } finally {
            lock.unlock();
        }
        if (next == null) {
            return wait;
        }
        Optional<String> failure;
        try {
            failure = recorder.write(next);
        } catch (RuntimeException e) {
            failure = Optional.of("cannot record event " + next.reason().reason() + " on " + next.object() + ": " + e);
        }
        if (failure.isPresent()) {
            counter("failed").increment();
            logFailure(failure.get());
        }
        return 0;
    }

    /** The namespaces in the order they are served: the one after the last served first. */
    private List<String> rotation() {
        List<String> names = new ArrayList<>(byNamespace.keySet());
        // a namespace no longer waiting (or none served yet) is not found: -1 leaves the order as it is
        Collections.rotate(names, -(names.indexOf(lastNamespace) + 1));
        return names;
    }

    /** Forgets the buckets of objects that have their full burst again (a new bucket would be the same). */
    private void prune(long now) {
        if (perObject.size() > 2 * settings.queueSize()) {
            perObject.values().removeIf(b -> b.full(now));
        }
    }

    private void logFailure(String failure) {
        long skipped;
        lock.lock();
        try {
            if (!failureLog.tryTake(clock.getAsLong())) {
                failuresNotLogged++;
                return;
            }
            skipped = failuresNotLogged;
            failuresNotLogged = 0;
        } finally {
            lock.unlock();
        }
        LOG.warn(
                skipped == 0
                        ? failure
                        : failure + " (and " + skipped + " more Event writes failed since the last line)");
    }

    /** Writes every Event that is due now, on the calling thread; returns as {@link #writeOne} when none is left. */
    long drain() {
        lock.lock();
        try {
            dirty = false;
        } finally {
            lock.unlock();
        }
        long wait;
        while ((wait = writeOne()) == 0) {
            // written one; look for the next
        }
        return wait;
    }

    private void run() {
        while (!stopping) {
            long wait = drain();
            lock.lock();
            try {
                if (stopping || dirty) {
                    continue;
                }
                if (wait < 0) {
                    changed.await();
                } else {
                    changed.awaitNanos(wait);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                lock.unlock();
            }
        }
    }

    private void signal() {
        dirty = true;
        changed.signalAll();
    }

    /** Whether the background writer runs. */
    boolean writing() {
        Thread thread = writer;
        return thread != null && thread.isAlive();
    }

    /** Events waiting to be written. */
    public int queued() {
        lock.lock();
        try {
            return queued;
        } finally {
            lock.unlock();
        }
    }

    /** Stops the writer: the write under way finishes (at most a few seconds); what still waits is dropped. */
    @PreDestroy
    @Override
    public void close() {
        Thread thread;
        lock.lock();
        try {
            stopping = true;
            signal();
            thread = writer;
        } finally {
            lock.unlock();
        }
        if (thread != null && thread != Thread.currentThread()) {
            try {
                thread.join(STOP_WAIT.toMillis());
                if (thread.isAlive()) {
                    thread.interrupt();
                    thread.join(STOP_WAIT.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        lock.lock();
        try {
            if (queued > 0) {
                LOG.infof("stopping: %d Events of findings not written", queued);
                counter("shutdown").increment(queued);
            }
            byNamespace.clear();
            waiting.clear();
            queued = 0;
        } finally {
            lock.unlock();
        }
    }

    private Counter counter(String reason) {
        return Counter.builder("topobridge.events.dropped")
                .tag("reason", reason)
                .description("Events of findings not written: superseded by a newer message, resolved first,"
                        + " no room in the queue, refused by the API server, or waiting at shutdown")
                .register(meters);
    }

    private static String namespace(ObjectRef object) {
        return Objects.requireNonNullElse(object.namespace(), "");
    }
}

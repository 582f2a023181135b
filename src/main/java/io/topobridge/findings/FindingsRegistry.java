package io.topobridge.findings;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.FindingLimit;
import io.topobridge.core.finding.ObjectRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The current findings of each part of the controller, one per {@link Finding#id() identity}. Publishing a new
 * set acts on transitions only: a new finding is logged once and its Event is queued, a finding whose message
 * changed (a count that moved) queues an update of that Event (it counts up and shows the latest message) and is
 * logged at DEBUG, a finding that went away is logged as resolved, an unchanged one does nothing.
 *
 * <p>Bounded whatever a tenant writes: one source keeps at most {@code topobridge.findings.max-per-object}
 * findings on one object, the others counted by one {@code TooManyFindings} finding there; Events are written by
 * the {@link EventQueue}'s own thread, never while a publisher waits; and the lines logged for findings follow a
 * token bucket ({@value #LOG_BURST} at once, then {@value #LOG_PER_SECOND} a second), the lines left out counted
 * in the next one. A publish holds the registry's lock only for the objects it names.
 *
 * <p>The metric {@code topobridge_findings{source,reason,severity}} counts the current findings as {@code GET
 * /api/findings} lists them; {@code topobridge_findings_not_listed{source}} counts those left out of that list and
 * counted by a {@code TooManyFindings} finding.
 */
@ApplicationScoped
public class FindingsRegistry {

    private static final Logger LOG = Logger.getLogger(FindingsRegistry.class);
    static final int LOG_BURST = 100;
    static final int LOG_PER_SECOND = 1;

    /** The findings one source has on one object, and how many more it had beyond the limit. */
    private record OnObject(Map<Finding.Id, Finding> findings, int dropped) {}

    /** A line to log once the lock is released. */
    private record Line(Logger.Level level, String text) {}

    private final EventQueue events;
    private final int maxPerObject;
    private final MeterRegistry meters;

    /** Findings by source, then by object ({@link ObjectRef#toString()}). */
    private final Map<String, Map<String, OnObject>> bySource = new ConcurrentHashMap<>();

    private final Map<List<String>, AtomicInteger> gauges = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> notListed = new ConcurrentHashMap<>();

    private final TokenBucket logBudget = new TokenBucket(LOG_PER_SECOND, LOG_BURST, System.nanoTime());
    private long linesNotLogged;

    /** Events are written by {@code events}' background thread. */
    @Inject
    public FindingsRegistry(EventQueue events, FindingsSettings settings, MeterRegistry meters) {
        this.events = events;
        this.maxPerObject = settings.maxPerObject();
        this.meters = meters;
    }

    /** Replaces all findings of {@code source} (e.g. "topology"). */
    public void publish(String source, Collection<Finding> current) {
        publish(source, null, current);
    }

    /**
     * Replaces the findings of {@code source} that concern objects in {@code scope} (e.g. one workload
     * or one namespace/group), leaving its other findings alone.
     */
    public void publish(String source, Set<String> scope, Collection<Finding> current) {
        // one finding per identity: a second one with the same identity is the same finding said again
        Map<String, Map<Finding.Id, Finding>> next = new LinkedHashMap<>();
        for (Finding f : current) {
            next.computeIfAbsent(f.object().toString(), o -> new LinkedHashMap<>())
                    .putIfAbsent(f.id(), f);
        }
        List<Line> lines = new ArrayList<>();
        synchronized (this) {
            Map<String, OnObject> objects = bySource.computeIfAbsent(source, s -> new ConcurrentHashMap<>());
            Set<String> touched = new LinkedHashSet<>(scope == null ? objects.keySet() : scope);
            touched.addAll(next.keySet());
            for (String object : touched) {
                OnObject before = objects.getOrDefault(object, new OnObject(Map.of(), 0));
                Map<Finding.Id, Finding> wanted = next.getOrDefault(object, Map.of());
                if (scope != null && !scope.contains(object)) {
                    // outside the scope: what it had stays, what is said of it now is added
                    Map<Finding.Id, Finding> merged = new LinkedHashMap<>(before.findings());
                    merged.putAll(wanted);
                    wanted = merged;
                }
                OnObject after = limit(wanted);
                transitions(source, before, after, lines);
                if (after.findings().isEmpty()) {
                    objects.remove(object);
                } else {
                    objects.put(object, after);
                }
            }
        }
        log(lines);
    }

    /** At most {@code maxPerObject} findings of one object, in a map by identity. */
    private OnObject limit(Map<Finding.Id, Finding> findings) {
        if (findings.size() <= maxPerObject) {
            return new OnObject(Map.copyOf(findings), 0);
        }
        ObjectRef object = findings.values().iterator().next().object();
        FindingLimit.Limited limited = FindingLimit.of(object, findings.values(), maxPerObject);
        Map<Finding.Id, Finding> kept = new LinkedHashMap<>();
        limited.kept().forEach(f -> kept.put(f.id(), f));
        return new OnObject(Map.copyOf(kept), limited.dropped());
    }

    /** Logs, queues Events and moves the gauges for what changed on one object (under the lock). */
    private void transitions(String source, OnObject before, OnObject after, List<Line> lines) {
        for (Finding old : before.findings().values()) {
            if (!after.findings().containsKey(old.id())) {
                lines.add(new Line(Logger.Level.INFO, "resolved: " + old.line()));
                events.forget(old.id());
                gauge(source, old).decrementAndGet();
            }
        }
        for (Finding finding : after.findings().values()) {
            Finding old = before.findings().get(finding.id());
            if (old == null) {
                lines.add(new Line(
                        switch (finding.severity()) {
                            case INFO -> Logger.Level.INFO;
                            case WARNING, REJECTED -> Logger.Level.WARN;
                        },
                        finding.line()));
                event(finding);
                gauge(source, finding).incrementAndGet();
            } else if (!old.equals(finding)) {
                if (LOG.isDebugEnabled()) {
                    lines.add(new Line(Logger.Level.DEBUG, "changed: " + finding.line()));
                }
                event(finding);
                if (old.severity() != finding.severity()) {
                    gauge(source, old).decrementAndGet();
                    gauge(source, finding).incrementAndGet();
                }
            }
        }
        if (before.dropped() != after.dropped()) {
            notListed(source).addAndGet(after.dropped() - before.dropped());
        }
    }

    private void event(Finding finding) {
        // a manifest file read by render is no object of the cluster
        if (!"File".equals(finding.object().kind())) {
            events.record(finding);
        }
    }

    /** Logs the lines within the budget; the first line after some were left out says how many. */
    private void log(List<Line> lines) {
        for (Line line : lines) {
            if (line.level() == Logger.Level.DEBUG) {
                LOG.debug(line.text());
                continue;
            }
            long skipped;
            synchronized (logBudget) {
                if (!logBudget.tryTake(System.nanoTime())) {
                    linesNotLogged++;
                    continue;
                }
                skipped = linesNotLogged;
                linesNotLogged = 0;
            }
            if (skipped > 0) {
                LOG.warnf(
                        "%d lines about findings were not logged (at most %d at once, then %d a second);"
                                + " GET /api/findings lists the current findings",
                        skipped, LOG_BURST, LOG_PER_SECOND);
            }
            LOG.log(line.level(), line.text());
        }
    }

    private AtomicInteger gauge(String source, Finding f) {
        List<String> key =
                List.of(source, f.reason().reason(), f.severity().name().toLowerCase(Locale.ROOT));
        return gauges.computeIfAbsent(key, k -> {
            var value = new AtomicInteger();
            Gauge.builder("topobridge.findings", value, AtomicInteger::get)
                    .tag("source", k.get(0))
                    .tag("reason", k.get(1))
                    .tag("severity", k.get(2))
                    .description("Current findings by source, reason and severity")
                    .register(meters);
            return value;
        });
    }

    private AtomicInteger notListed(String source) {
        return notListed.computeIfAbsent(source, s -> {
            var value = new AtomicInteger();
            Gauge.builder("topobridge.findings.not.listed", value, AtomicInteger::get)
                    .tag("source", s)
                    .description("Findings beyond the limit per object, counted by a TooManyFindings finding")
                    .register(meters);
            return value;
        });
    }

    /** Every current finding, sorted. */
    public List<Finding> all() {
        return sorted(bySource.values());
    }

    public List<Finding> of(String source) {
        return sorted(List.of(bySource.getOrDefault(source, Map.of())));
    }

    private static List<Finding> sorted(Collection<Map<String, OnObject>> sources) {
        List<Finding> out = new ArrayList<>();
        sources.forEach(
                objects -> objects.values().forEach(o -> out.addAll(o.findings().values())));
        out.sort(Finding.ORDER);
        return out;
    }
}

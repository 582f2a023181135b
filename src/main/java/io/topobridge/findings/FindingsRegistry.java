package io.topobridge.findings;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.finding.Finding;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The current findings of each part of the controller, one per {@link Finding#id() identity}. Publishing a new
 * set acts on transitions only: a new finding is logged once and becomes an Event on its object, a finding whose
 * message changed (a count that moved) updates that Event (it counts up and shows the latest message) and is
 * logged at DEBUG, a finding that went away is logged as resolved, an unchanged one does nothing. The metric
 * {@code topobridge_findings{source,reason,severity}} counts the current ones; {@code GET /api/findings} lists
 * them.
 */
@ApplicationScoped
public class FindingsRegistry {

    private static final Logger LOG = Logger.getLogger(FindingsRegistry.class);

    private final EventRecorder events;
    private final MeterRegistry meters;

    private final Map<String, Map<Finding.Id, Finding>> bySource = new ConcurrentHashMap<>();
    private final Map<List<String>, AtomicInteger> gauges = new ConcurrentHashMap<>();

    public FindingsRegistry(EventRecorder events, MeterRegistry meters) {
        this.events = events;
        this.meters = meters;
    }

    /** Replaces all findings of {@code source} (e.g. "topology"). */
    public synchronized void publish(String source, Collection<Finding> current) {
        replace(source, current, null);
    }

    /**
     * Replaces the findings of {@code source} that concern objects in {@code scope} (e.g. one workload
     * or one namespace/group), leaving its other findings alone.
     */
    public synchronized void publish(String source, Set<String> scope, Collection<Finding> current) {
        replace(source, current, scope);
    }

    private void replace(String source, Collection<Finding> current, Set<String> scope) {
        // one finding per identity: a second one with the same identity is the same finding said again
        Map<Finding.Id, Finding> next = new LinkedHashMap<>();
        current.forEach(f -> next.putIfAbsent(f.id(), f));
        Map<Finding.Id, Finding> previous = bySource.getOrDefault(source, Map.of());
        Map<Finding.Id, Finding> kept = new LinkedHashMap<>();
        for (Finding old : previous.values()) {
            boolean inScope = scope == null || scope.contains(old.object().toString());
            if (!inScope) {
                kept.put(old.id(), old);
            } else if (!next.containsKey(old.id())) {
                LOG.infof("resolved: %s", old.line());
                events.forget(old.id());
            }
        }
        for (Finding finding : next.values()) {
            Finding before = previous.get(finding.id());
            if (before == null) {
                log(finding);
                event(finding);
            } else if (!before.equals(finding)) {
                LOG.debugf("changed: %s", finding.line());
                event(finding);
            }
            kept.put(finding.id(), finding);
        }
        bySource.put(source, Map.copyOf(kept));
        updateGauges();
    }

    private void event(Finding finding) {
        // a manifest file read by render is no object of the cluster
        if (!"File".equals(finding.object().kind())) {
            events.record(finding);
        }
    }

    private static void log(Finding finding) {
        switch (finding.severity()) {
            case INFO -> LOG.info(finding.line());
            case WARNING, REJECTED -> LOG.warn(finding.line());
        }
    }

    private void updateGauges() {
        Map<List<String>, Integer> counts = new ConcurrentHashMap<>();
        bySource.forEach((source, findings) -> findings.values()
                .forEach(f -> counts.merge(
                        List.of(source, f.reason().reason(), f.severity().name().toLowerCase(java.util.Locale.ROOT)),
                        1,
                        Integer::sum)));
        Set<List<String>> seen = new HashSet<>(gauges.keySet());
        seen.addAll(counts.keySet());
        for (List<String> key : seen) {
            gauges.computeIfAbsent(key, k -> {
                        var value = new AtomicInteger();
                        Gauge.builder("topobridge.findings", value, AtomicInteger::get)
                                .tag("source", k.get(0))
                                .tag("reason", k.get(1))
                                .tag("severity", k.get(2))
                                .description("Current findings by source, reason and severity")
                                .register(meters);
                        return value;
                    })
                    .set(counts.getOrDefault(key, 0));
        }
    }

    /** Every current finding, sorted. */
    public List<Finding> all() {
        List<Finding> out = new ArrayList<>();
        bySource.values().forEach(findings -> out.addAll(findings.values()));
        out.sort(Finding.ORDER);
        return out;
    }

    public List<Finding> of(String source) {
        List<Finding> out =
                new ArrayList<>(bySource.getOrDefault(source, Map.of()).values());
        out.sort(Finding.ORDER);
        return out;
    }
}

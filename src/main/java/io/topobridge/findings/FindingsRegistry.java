package io.topobridge.findings;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Severity;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The current findings of each part of the controller. Publishing a new set acts on transitions only: a new
 * finding is logged once and becomes an Event on its object, a finding that went away is logged as resolved,
 * an unchanged one does nothing. The metric {@code topobridge_findings{source,reason,severity}} counts the
 * current ones; {@code GET /api/findings} lists them.
 */
@ApplicationScoped
public class FindingsRegistry {

    private static final Logger LOG = Logger.getLogger(FindingsRegistry.class);

    private final EventRecorder events;
    private final MeterRegistry meters;

    private final Map<String, Set<Finding>> bySource = new ConcurrentHashMap<>();
    private final Map<List<String>, AtomicInteger> gauges = new ConcurrentHashMap<>();

    public FindingsRegistry(EventRecorder events, MeterRegistry meters) {
        this.events = events;
        this.meters = meters;
    }

    /** Replaces all findings of {@code source} (e.g. "topology"). */
    public synchronized void publish(String source, Collection<Finding> current) {
        replace(source, new LinkedHashSet<>(current), null);
    }

    /**
     * Replaces the findings of {@code source} that concern objects in {@code scope} (e.g. one workload
     * or one namespace/group), leaving its other findings alone.
     */
    public synchronized void publish(String source, Set<String> scope, Collection<Finding> current) {
        replace(source, new LinkedHashSet<>(current), scope);
    }

    private void replace(String source, Set<Finding> next, Set<String> scope) {
        Set<Finding> previous = bySource.getOrDefault(source, Set.of());
        Set<Finding> kept = new LinkedHashSet<>();
        for (Finding old : previous) {
            boolean inScope = scope == null || scope.contains(old.object().toString());
            if (!inScope) {
                kept.add(old);
            } else if (!next.contains(old)) {
                LOG.infof("resolved: %s", old.line());
                events.forget(old.object(), old.reason(), old.message());
            }
        }
        for (Finding finding : next) {
            if (!previous.contains(finding)) {
                log(finding);
                if (!"File".equals(finding.object().kind())) {
                    if (finding.severity() == Severity.INFO) {
                        events.normal(finding.object(), finding.reason(), finding.message());
                    } else {
                        events.warning(finding.object(), finding.reason(), finding.message());
                    }
                }
            }
            kept.add(finding);
        }
        bySource.put(source, kept);
        updateGauges();
    }

    private static void log(Finding finding) {
        switch (finding.severity()) {
            case INFO -> LOG.info(finding.line());
            case WARNING, REJECTED -> LOG.warn(finding.line());
        }
    }

    private void updateGauges() {
        Map<List<String>, Integer> counts = new ConcurrentHashMap<>();
        bySource.forEach((source, findings) -> findings.forEach(f -> counts.merge(
                List.of(source, f.reason().reason(), f.severity().name().toLowerCase(java.util.Locale.ROOT)), 1, Integer::sum)));
        Set<List<String>> seen = new HashSet<>(gauges.keySet());
        seen.addAll(counts.keySet());
        for (List<String> key : seen) {
            gauges.computeIfAbsent(key, k -> {
                var value = new AtomicInteger();
                Gauge.builder("topobridge.findings", value, AtomicInteger::get)
                        .tag("source", k.get(0)).tag("reason", k.get(1)).tag("severity", k.get(2))
                        .description("Current findings by source, reason and severity")
                        .register(meters);
                return value;
            }).set(counts.getOrDefault(key, 0));
        }
    }

    /** Every current finding, sorted. */
    public List<Finding> all() {
        List<Finding> out = new ArrayList<>();
        bySource.values().forEach(out::addAll);
        out.sort(Finding.ORDER);
        return out;
    }

    public List<Finding> of(String source) {
        List<Finding> out = new ArrayList<>(bySource.getOrDefault(source, Set.of()));
        out.sort(Finding.ORDER);
        return out;
    }
}

package io.topobridge.diagnosis;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.topobridge.cache.ClusterView;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.diagnosis.DoctorCheck;
import io.topobridge.core.diagnosis.Explain;
import io.topobridge.core.diagnosis.Explanation;
import io.topobridge.process.PeriodicPart;
import io.topobridge.process.PeriodicTask;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Gauges of what the caches show, refreshed every {@value #PERIOD_SECONDS} s on every replica (reads only):
 * HyperNodes by tier, PodGroups by mode and tier, pending gangs by reason, placed gangs by achieved tier and the
 * doctor's checks.
 */
@ApplicationScoped
public class DiagnosisMetrics implements PeriodicPart {

    private static final Logger LOG = Logger.getLogger(DiagnosisMetrics.class);
    static final long PERIOD_SECONDS = 15;

    private final ClusterView view;
    private final Gangs gangs;
    private final DoctorService doctor;
    private final MultiGauge hyperNodes;
    private final MultiGauge podGroups;
    private final MultiGauge pending;
    private final MultiGauge achieved;
    private final MultiGauge checks;
    private final PeriodicTask passes;
    private volatile boolean refreshed;

    public DiagnosisMetrics(ClusterView view, Gangs gangs, DoctorService doctor, MeterRegistry meters) {
        this.view = view;
        this.passes = new PeriodicTask(
                new PeriodicTask.Schedule("topobridge-diagnosis-metrics", 2, PERIOD_SECONDS),
                view::start,
                this::refresh,
                e -> LOG.warn("diagnosis metrics: refresh failed", e));
        this.gangs = gangs;
        this.doctor = doctor;
        hyperNodes = gauge(meters, "topobridge.hypernodes", "HyperNodes by tier and source");
        podGroups =
                gauge(meters, "topobridge.podgroups", "PodGroups the bridge manages by topology mode and highest tier");
        pending = gauge(meters, "topobridge.gangs.pending", "Gangs waiting, by reason");
        achieved = gauge(
                meters,
                "topobridge.gangs.achieved.tier",
                "Placed gangs by namespace, kind, mode and the tier they achieved");
        checks = gauge(
                meters, "topobridge.doctor.checks", "Doctor checks by name and status (1 for the current status)");
    }

    @Override
    public String name() {
        return "diagnosis-metrics";
    }

    @Override
    public PeriodicTask passes() {
        return passes;
    }

    @Override
    public Map<String, Object> details() {
        return Map.of("refreshed", refreshed);
    }

    private static MultiGauge gauge(MeterRegistry meters, String name, String description) {
        return MultiGauge.builder(name).description(description).register(meters);
    }

    public void refresh() {
        if (!view.ready()) {
            return;
        }
        Map<Tags, Integer> byTier = new LinkedHashMap<>();
        for (HyperNodeView h : view.hyperNodes()) {
            byTier.merge(
                    Tags.of("tier", String.valueOf(h.tier()), "tier_name", h.tierName(), "source", h.source()),
                    1,
                    Integer::sum);
        }
        hyperNodes.register(rows(byTier), true);

        Capacity capacity = view.capacity();
        Map<Tags, Integer> groups = new LinkedHashMap<>();
        Map<Tags, Integer> waiting = new LinkedHashMap<>();
        Map<Tags, Integer> placed = new LinkedHashMap<>();
        for (Gangs.Managed m : gangs.all()) {
            var g = m.gang();
            String mode = g.highestTier() == null ? "none" : g.mode();
            String tier = g.highestTier() == null ? "none" : String.valueOf(g.highestTier());
            groups.merge(Tags.of("mode", mode, "tier", tier), 1, Integer::sum);
            Explanation e = Explain.of(g, capacity);
            if (e.pending()) {
                waiting.merge(Tags.of("reason", e.reason().reason()), 1, Integer::sum);
            } else {
                Tags at = Tags.of("namespace", g.namespace(), "kind", m.kind(), "mode", mode);
                placed.merge(at.and("tier", e.achieved().gang().value()), 1, Integer::sum);
            }
        }
        podGroups.register(rows(groups), true);
        pending.register(rows(waiting), true);
        achieved.register(rows(placed), true);

        Map<Tags, Integer> statuses = new LinkedHashMap<>();
        for (DoctorCheck c : doctor.run().checks()) {
            for (DoctorCheck.Status s : DoctorCheck.Status.values()) {
                statuses.put(
                        Tags.of("check", c.name(), "status", s.name().toLowerCase(Locale.ROOT)),
                        s == c.status() ? 1 : 0);
            }
        }
        checks.register(rows(statuses), true);
        refreshed = true;
    }

    private static List<MultiGauge.Row<?>> rows(Map<Tags, Integer> values) {
        return values.entrySet().stream()
                .<MultiGauge.Row<?>>map(e -> MultiGauge.Row.of(e.getKey(), e.getValue()))
                .toList();
    }
}

package io.topobridge.diagnosis;

import io.topobridge.cache.ClusterView;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.diagnosis.DoctorCheck;
import io.topobridge.core.diagnosis.Explain;
import io.topobridge.core.diagnosis.Explanation;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.findings.FindingsRegistry;
import io.topobridge.process.PeriodicPart;
import io.topobridge.process.PeriodicTask;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Leader work (it writes Events): every {@value #PERIOD_SECONDS} s, a gang pending longer than
 * {@code topobridge.diagnosis.pending-event-after} gets a {@code GangPending} finding on its workload whose message
 * is the explain sentence (its Event shows the sentence again only when it changed), and the doctor's problems become
 * findings (source {@code doctor}) once a problem has been seen on two passes in a row.
 */
@ApplicationScoped
public class GangEvents implements PeriodicPart {

    /** What it needs from configuration. */
    public record Options(Duration pendingEventAfter) {}

    private static final Logger LOG = Logger.getLogger(GangEvents.class);
    static final long PERIOD_SECONDS = 15;
    public static final String GANGS = "gangs";
    public static final String DOCTOR = "doctor";

    private final ClusterView view;
    private final Gangs gangs;
    private final DoctorService doctor;
    private final FindingsRegistry findings;
    private final Options options;
    private final PeriodicTask passes;
    private volatile long runs;
    private Set<Finding.Id> lastProblems = Set.of();

    public GangEvents(ClusterView view, Gangs gangs, DoctorService doctor, FindingsRegistry findings, Options options) {
        this.view = view;
        this.passes = new PeriodicTask(
                new PeriodicTask.Schedule("topobridge-gang-events", 5, PERIOD_SECONDS),
                view::start,
                () -> run(Instant.now()),
                e -> LOG.warn("gang events: pass failed", e));
        this.gangs = gangs;
        this.doctor = doctor;
        this.findings = findings;
        this.options = options;
    }

    @Override
    public String name() {
        return "gang-events";
    }

    @Override
    public Role role() {
        return Role.LEADER_ONLY;
    }

    @Override
    public PeriodicTask passes() {
        return passes;
    }

    @Override
    public Map<String, Object> details() {
        return Map.of(
                "runs", runs, "pendingEventAfter", options.pendingEventAfter().toString());
    }

    public void run(Instant now) {
        if (!view.ready()) {
            return;
        }
        Capacity capacity = view.capacity();
        List<Finding> pending = new ArrayList<>();
        for (Gangs.Managed m : gangs.all()) {
            Instant since = m.gang().created();
            if (since == null || Duration.between(since, now).compareTo(options.pendingEventAfter()) < 0) {
                continue;
            }
            Explanation e = Explain.of(m.gang(), capacity);
            // a running gang short of pods is no pending gang: the reconciler says DomainLost/NoRoomInDomain itself
            if (!e.pending() || e.domain() != null) {
                continue;
            }
            List<ObjectRef> subjects = gangs.workloads(m);
            if (subjects.isEmpty()) {
                subjects = List.of(ObjectRef.of(m.podGroup()));
            }
            String message = "gang " + e.podGroup() + " pending since " + since
                    + (e.reason() == null ? "" : " (" + e.reason().reason() + ")") + ": " + e.sentence();
            for (ObjectRef subject : subjects) {
                pending.add(Finding.warning(WorkloadReason.GANG_PENDING, subject, message)
                        .withKey(e.podGroup()));
            }
        }
        findings.publish(GANGS, pending);
        // a problem seen twice in a row: a replica starting up, or a change half applied, is not worth an Event
        List<Finding> problems = new ArrayList<>();
        Set<Finding.Id> seen = new HashSet<>();
        for (DoctorCheck c : doctor.run().checks()) {
            for (Finding f : c.findings()) {
                seen.add(f.id());
                if (lastProblems.contains(f.id())) {
                    problems.add(f);
                }
            }
        }
        lastProblems = seen;
        findings.publish(DOCTOR, problems);
        runs++;
    }
}

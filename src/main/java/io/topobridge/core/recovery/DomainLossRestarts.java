package io.topobridge.core.recovery;

import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Whether a running gang whose domain can no longer hold it is restarted whole ({@code topobridge.io/on-domain-loss:
 * restart}), decided from the pass's time: a gang whose domain has been {@link GangDomain.Verdict#DOMAIN_LOST lost}
 * (not merely full: there room comes back by itself) for at least its grace is restarted through its own controller
 * (its pods deleted, for a LeaderWorkerSet group its leader), once per grace window, only while fewer than the
 * configured number of restarts are under way in the cluster, and only when another domain of its tier has room for
 * the whole gang now. A restarted gang that does not run whole again within the grace is not restarted again until it
 * has ({@link RecoveryReason#RESTART_DID_NOT_HELP}). Pure: the {@link Ledger}, the memory of the replica that acts,
 * comes in as a value and what it remembers next comes out in the {@link Decision}.
 */
public final class DomainLossRestarts {

    /** The label LeaderWorkerSet puts on each pod of a group: its index, {@code 0} for the leader. */
    public static final String LWS_WORKER_INDEX = "leaderworkerset.sigs.k8s.io/worker-index";

    public static final String GRACE_KEY = "topobridge.workloads.domain-loss-grace";
    public static final String MAX_CONCURRENT_KEY = "topobridge.workloads.max-concurrent-restarts";

    /**
     * @param grace how long a domain must have been lost before a gang without {@code topobridge.io/domain-loss-grace}
     *     is restarted
     * @param maxConcurrent how many restarted gangs may be under way at once in the cluster (not yet running whole,
     *     within their grace)
     */
    public record Settings(Duration grace, int maxConcurrent) {
        public Settings {
            Objects.requireNonNull(grace, "grace");
            if (grace.compareTo(Duration.ofSeconds(1)) < 0 || grace.compareTo(Duration.ofHours(24)) > 0) {
                throw new IllegalArgumentException(GRACE_KEY + "=" + grace + ": must be between 1s and 24h");
            }
            if (maxConcurrent < 1 || maxConcurrent > 1000) {
                throw new IllegalArgumentException(
                        MAX_CONCURRENT_KEY + "=" + maxConcurrent + ": must be between 1 and 1000");
            }
        }

        /** The defaults: 5 minutes, one restart at a time. */
        public static final Settings DEFAULTS = new Settings(Duration.ofMinutes(5), 1);
    }

    /** A pod to delete, by its uid (the delete is refused if the name now belongs to another pod). */
    public record Victim(String name, String uid) {}

    /**
     * A restart to carry out: the pods to delete and what the Event says.
     *
     * @param message why, naming the pods, the domain, the nodes lost and since when
     */
    public record Restart(String namespace, String podGroup, List<Victim> pods, String message) {
        public Restart {
            pods = List.copyOf(pods);
        }

        public String key() {
            return namespace + "/" + podGroup;
        }
    }

    /**
     * What was decided for one gang: a restart to carry out (or none), the findings, when to look again though
     * nothing changes (the grace ends then; null when never), and what the ledger now remembers of the gang (null:
     * nothing, there is no ledger).
     */
    public record Decision(Optional<Restart> restart, List<Finding> findings, Duration recheckAfter, Entry remembered) {
        public Decision {
            findings = List.copyOf(findings);
        }

        public static final Decision NOTHING = nothing(null);

        static Decision nothing(Entry remembered) {
            return new Decision(Optional.empty(), List.of(), null, remembered);
        }
    }

    /** A restart made: when, its message, its grace, and whether the gang has run whole since. */
    public record Made(Instant at, String message, Duration grace, boolean settled) {
        /** Whether its window ({@code grace} after it was made) is over at {@code now}. */
        boolean over(Instant now) {
            return !now.isBefore(at.plus(grace));
        }
    }

    /**
     * What the ledger remembers of one gang: since when its domain has been lost without a break (null: not lost) and
     * the restart made (null: none). {@link #NONE}: nothing, the gang is forgotten.
     */
    public record Entry(Instant lostSince, Made made) {
        public static final Entry NONE = new Entry(null, null);
    }

    /**
     * The acting replica's memory of the gangs' domain losses and restarts, keyed {@code namespace/podGroup}: since
     * when each gang's domain has been lost without a break (as this replica saw it: a new leader counts the grace
     * afresh, so it restarts later, never sooner), and the restarts made. A value: a pass takes one in and says in its
     * outcomes what the next one remembers.
     */
    public record Ledger(Map<String, Entry> gangs) {

        public static final Ledger EMPTY = new Ledger(Map.of());

        public Ledger {
            gangs = Map.copyOf(gangs);
        }

        /** What is remembered of a gang ({@link Entry#NONE} when nothing). */
        public Entry of(String key) {
            return gangs.getOrDefault(key, Entry.NONE);
        }

        /** This ledger with the given gangs remembered as said ({@link Entry#NONE}: forgotten). */
        public Ledger with(Map<String, Entry> changes) {
            Map<String, Entry> out = new HashMap<>(gangs);
            changes.forEach((key, entry) -> out.compute(key, (k, was) -> entry.equals(Entry.NONE) ? null : entry));
            return new Ledger(out);
        }

        /** Without the restart of a gang that could not be carried out (it may be restarted on the next pass). */
        public Ledger forget(String key) {
            Entry entry = of(key);
            return entry.made() == null ? this : with(Map.of(key, new Entry(entry.lostSince(), null)));
        }

        /** Restarts under way: made within their grace, their gang not yet running whole. */
        int underWay(Instant now) {
            return (int) gangs.values().stream()
                    .filter(e ->
                            e.made() != null && !e.made().settled() && !e.made().over(now))
                    .count();
        }

        /**
         * Only the gangs named (a full pass's PodGroups): what was remembered of gangs since deleted goes, so a gang
         * deleted mid-restart counts no longer against the cluster's limit.
         */
        public Ledger retainOnly(Collection<String> keys) {
            Map<String, Entry> out = new HashMap<>(gangs);
            out.keySet().retainAll(new HashSet<>(keys));
            return new Ledger(out);
        }
    }

    /**
     * Decides for one gang in one pass.
     *
     * @param subjects the workloads its findings go to
     * @param domain the judgement of its domain (empty when it is not short of pods or not judged)
     * @param policy its {@code on-domain-loss} (null: wait)
     * @param capacity the capacity for its pods, asked only when a restart is due
     * @param maxConcurrent the cluster's limit of restarts under way
     * @param ledger the acting replica's memory (read only: what it remembers of the gang next comes in the decision)
     */
    public static Decision decide(
            String namespace,
            String podGroup,
            List<ObjectRef> subjects,
            GangView gang,
            Optional<GangDomain> domain,
            DomainLossPolicy policy,
            Duration grace,
            Supplier<Capacity> capacity,
            int maxConcurrent,
            Ledger ledger,
            Instant now) {
        String key = namespace + "/" + podGroup;
        boolean lost = domain.isPresent() && domain.get().verdict() == GangDomain.Verdict.DOMAIN_LOST;
        Entry was = ledger.of(key);
        Instant lostSince = lost ? was.lostSince() : null;
        Made made = was.made();
        if (made != null && !made.settled() && gang.allBound() && domain.isEmpty()) {
            // the restarted gang runs whole again (in its new domain): the restart is done
            made = new Made(made.at(), made.message(), made.grace(), true);
        }
        if (made != null && made.settled() && made.over(now)) {
            // no longer needed: a settled restart whose window is over
            made = null;
        }
        if (policy != DomainLossPolicy.RESTART) {
            return Decision.nothing(new Entry(lostSince, made));
        }
        List<Finding> findings = new ArrayList<>();
        Duration recheck = made == null ? null : madeFindings(made, namespace, podGroup, subjects, now, findings);
        if (!lost) {
            return new Decision(Optional.empty(), findings, recheck, new Entry(null, made));
        }
        Instant since = lostSince != null ? lostSince : now;
        Entry remembered = new Entry(since, made);
        Instant due = since.plus(grace);
        if (now.isBefore(due)) {
            Duration left = Duration.between(now, due);
            return new Decision(
                    Optional.empty(),
                    findings,
                    recheck == null || left.compareTo(recheck) < 0 ? left : recheck,
                    remembered);
        }
        if (made != null) {
            // at most one restart per gang per grace window, and none again until a restarted gang has run whole
            return new Decision(Optional.empty(), findings, recheck, remembered);
        }
        GangDomain d = domain.get();
        String where = d.domain() == null ? "its tier-" + d.tier() + " domain" : d.domain();
        String lostFor = where + " has been lost since " + since + " (" + grace.toSeconds() + "s grace)";
        List<String> room = GangDomain.otherDomainsWithRoom(gang, capacity.get(), d.domain());
        int underWay = ledger.underWay(now);
        List<Victim> victims = victims(gang);
        String held = room.isEmpty()
                ? "gang " + podGroup + " is not restarted though " + lostFor + ": no other tier-" + d.tier()
                        + " domain has room for its " + gang.livePods().size()
                        + " pods now, so a restart would leave it nowhere to go; it waits"
                : underWay >= maxConcurrent
                        ? "gang " + podGroup + " is not restarted yet though " + lostFor + ": " + underWay
                                + " restart(s) are under way in the cluster, the limit is " + maxConcurrent
                        : null;
        if (held != null) {
            findings.addAll(about(RecoveryReason.RESTART_HELD, namespace, podGroup, subjects, held));
        }
        if (held != null || victims.isEmpty()) {
            return new Decision(Optional.empty(), findings, recheck, remembered);
        }
        String message = restartMessage(podGroup, gang, d, victims, room, since, grace, now);
        findings.addAll(about(RecoveryReason.GANG_RESTARTED, namespace, podGroup, subjects, message));
        return new Decision(
                Optional.of(new Restart(namespace, podGroup, victims, message)),
                findings,
                grace,
                new Entry(since, new Made(now, message, grace, false)));
    }

    /** What a restart already made says while its window lasts, and when to look again (null: no need). */
    private static Duration madeFindings(
            Made made,
            String namespace,
            String podGroup,
            List<ObjectRef> subjects,
            Instant now,
            List<Finding> findings) {
        Instant windowEnd = made.at().plus(made.grace());
        if (now.isBefore(windowEnd)) {
            findings.addAll(about(RecoveryReason.GANG_RESTARTED, namespace, podGroup, subjects, made.message()));
            return Duration.between(now, windowEnd);
        } else if (!made.settled()) {
            findings.addAll(about(
                    RecoveryReason.RESTART_DID_NOT_HELP,
                    namespace,
                    podGroup,
                    subjects,
                    "gang " + podGroup + " was restarted at " + made.at() + " and has not run whole since, "
                            + made.grace().toSeconds() + "s later; it is not restarted again until it has run whole"
                            + " once (the restart: " + made.message() + ")"));
        }
        return null;
    }

    private static String restartMessage(
            String podGroup,
            GangView gang,
            GangDomain d,
            List<Victim> victims,
            List<String> room,
            Instant since,
            Duration grace,
            Instant now) {
        boolean leaders = gang.livePods().stream().anyMatch(p -> p.labels().containsKey(LWS_WORKER_INDEX));
        // the domain's own sentence names it, what it lacks, the nodes that take no pods and the pods lost or waiting
        return "gang " + podGroup + " restarted at " + now + ", its domain lost since " + since + " (past its "
                + grace.toSeconds() + "s grace): " + d.sentence() + "; deleted "
                + (!leaders
                        ? "its pods "
                        : victims.size() == 1 ? "its group's leader pod " : "its groups' leader pods ")
                + String.join(", ", victims.stream().map(Victim::name).toList())
                + " so its controller makes them again and Volcano places the whole gang in a domain with room ("
                + String.join(", ", room) + ")";
    }

    /**
     * What a running gang's domain state means, said on each of its workloads and on its PodGroup when the domain cannot
     * give it back its missing pods ({@link RecoveryReason#DOMAIN_LOST}, {@link RecoveryReason#NO_ROOM_IN_DOMAIN}), or
     * when no replacement can be made while a member is Terminating on a node that is down
     * ({@link RecoveryReason#REPLACEMENT_BLOCKED}), naming the domain, the pods and since when they have waited. Nothing
     * is said of a gang whose domain holds it or has room for its replacements (Volcano's turn).
     *
     * @param domain the judgement of its domain (empty when the gang is not judged: not running, not hard)
     */
    public static List<Finding> stuck(
            String namespace, String podGroup, List<ObjectRef> subjects, Optional<GangDomain> domain) {
        if (domain.isEmpty() || !domain.get().stuck()) {
            return List.of();
        }
        GangDomain d = domain.get();
        // the wait is said by when it began, so the message stays the same from one pass to the next
        String text = "gang " + podGroup + ": " + d.sentence();
        List<Finding> out = new ArrayList<>();
        for (ObjectRef subject : subjects) {
            out.add(stuck(d.verdict(), subject, subject + ": " + text).withKey(podGroup));
        }
        ObjectRef pg = podGroupRef(namespace, podGroup);
        out.add(stuck(d.verdict(), pg, pg + ": " + d.sentence()));
        return out;
    }

    private static Finding stuck(GangDomain.Verdict verdict, ObjectRef subject, String message) {
        return switch (verdict) {
            case DOMAIN_LOST -> Finding.warning(RecoveryReason.DOMAIN_LOST, subject, message);
            case REPLACEMENT_BLOCKED -> Finding.warning(RecoveryReason.REPLACEMENT_BLOCKED, subject, message);
            default -> Finding.warning(RecoveryReason.NO_ROOM_IN_DOMAIN, subject, message);
        };
    }

    /**
     * What is deleted: the leader of every LeaderWorkerSet group among the gang's pods (LeaderWorkerSet makes the whole
     * group again; a DisaggregatedSet's groups are LeaderWorkerSet groups too), else every live pod of the gang (its
     * controller makes them again; the PodGroup, short of its members, is placed afresh). Which it is, is read from
     * the pods (LeaderWorkerSet's worker-index label), not from the workload's kind. Pods whose uid is unknown are
     * left alone.
     */
    static List<Victim> victims(GangView gang) {
        List<PodView> live =
                gang.livePods().stream().filter(p -> p.uid() != null).toList();
        if (live.stream().anyMatch(p -> p.labels().containsKey(LWS_WORKER_INDEX))) {
            List<Victim> leaders = live.stream()
                    .filter(p -> "0".equals(p.labels().get(LWS_WORKER_INDEX)))
                    .map(p -> new Victim(p.name(), p.uid()))
                    .toList();
            if (!leaders.isEmpty()) {
                return leaders;
            }
        }
        return live.stream()
                .sorted(java.util.Comparator.comparing(PodView::name))
                .map(p -> new Victim(p.name(), p.uid()))
                .toList();
    }

    private static List<Finding> about(
            RecoveryReason reason, String namespace, String podGroup, List<ObjectRef> subjects, String text) {
        List<Finding> out = new ArrayList<>();
        boolean warning = reason != RecoveryReason.GANG_RESTARTED;
        for (ObjectRef subject : subjects) {
            String message = subject + ": " + text;
            out.add((warning ? Finding.warning(reason, subject, message) : Finding.info(reason, subject, message))
                    .withKey(podGroup));
        }
        ObjectRef pg = podGroupRef(namespace, podGroup);
        String message = pg + ": " + text;
        out.add(warning ? Finding.warning(reason, pg, message) : Finding.info(reason, pg, message));
        return out;
    }

    private static ObjectRef podGroupRef(String namespace, String podGroup) {
        return new ObjectRef("scheduling.volcano.sh/v1beta1", "PodGroup", namespace, podGroup, null);
    }
}

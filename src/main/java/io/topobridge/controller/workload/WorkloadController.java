package io.topobridge.controller.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.apply.Applier;
import io.topobridge.cache.ClusterView;
import io.topobridge.cache.KindRegistry;
import io.topobridge.cache.TierSource;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.controller.Debouncer;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.changes.Reservations;
import io.topobridge.core.workload.reconcile.Outcome;
import io.topobridge.core.workload.reconcile.ReconcileSettings;
import io.topobridge.core.workload.reconcile.ScopeReconciler;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.findings.FindingsRegistry;
import io.topobridge.process.PeriodicTask;
import io.topobridge.process.ProcessPart;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Keeps Volcano PodGroups in step with annotated workloads: the glue around the pure {@link ScopeReconciler}. Cache
 * events are mapped to the gang scopes they touch and recomputed after a short quiet period, one batch at a time:
 * the reconciler decides each scope's writes, findings and when to look again; this class carries the writes out
 * through the one writer, publishes the findings (events on transitions only) and keeps the timers. A change of
 * tiers, of installed CRDs, or the periodic resync recomputes every scope.
 */
@ApplicationScoped
public class WorkloadController implements ProcessPart {

    private static final Logger LOG = Logger.getLogger(WorkloadController.class);
    public static final String SOURCE = "workloads";

    /** How long after start a gang naming a tier waits for the first topology pass before "tiers unknown" is news. */
    static final Duration TIERS_GRACE = Duration.ofSeconds(30);

    /** What the controller needs from configuration: timing, and the namespace and group rules of the reconciler. */
    public record Options(
            boolean enabled, Duration debounce, Duration maxDelay, Duration resync, ReconcileSettings reconcile) {}

    /** What a batch asks for: one gang scope, or every scope. */
    private sealed interface Due {
        record All() implements Due {}

        record Scope(GangScope scope) implements Due {}

        Due ALL = new All();
    }

    private final WorkloadCaches lookup;
    private final FindingsRegistry findings;
    private final TierSource tiers;
    private final KindRegistry kinds;
    private final Options options;
    private final ScopeReconciler reconciler;
    private final ClusterView view;
    private final Clock clock;

    // set in start() before the listeners that use them are registered; volatile for stop() callers and tests
    volatile Debouncer<Due> debouncer;
    private volatile ScheduledExecutorService timer;
    private volatile boolean ready;
    /** Whether the cluster's lists were still missing when the grace was over (said once). */
    private volatile boolean viewLate;

    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong fullPasses = new AtomicLong();
    private volatile long lastFullPassMillis;
    private volatile boolean firstSubmitted;
    private volatile long startedAt;

    private final PodGroupWriter writer;
    /** The memory of domain losses and restarts (the debouncer's worker thread only; this replica leads). */
    private DomainLossRestarts.Ledger restarts = DomainLossRestarts.Ledger.EMPTY;
    /** The objects each scope with findings has them on, as last published (the debouncer's worker thread only). */
    private final Map<GangScope, Set<String>> published = new HashMap<>();
    /** When each scope is due again by a timer (worker thread only), so a scope has one timer at a time. */
    private final Map<GangScope, Instant> requeued = new HashMap<>();
    /** Whether some gang waits for room in its namespace: a PodGroup of the bridge going may make room. */
    private volatile boolean heldForRoom;

    /** {@code clock}: what "now" is for the waits the reconciler measures. */
    @Inject
    public WorkloadController(
            WorkloadCaches lookup,
            ClusterView view,
            Applier applier,
            FindingsRegistry findings,
            TierSource tiers,
            KindRegistry kinds,
            Options options,
            WorkloadSettings settings,
            Reservations.Settings reservations,
            Clock clock) {
        this.lookup = lookup;
        this.view = view;
        this.findings = findings;
        this.tiers = tiers;
        this.kinds = kinds;
        this.options = options;
        this.clock = clock;
        this.writer = new PodGroupWriter(lookup, applier, gang -> restarts = restarts.forget(gang));
        this.reconciler = new ScopeReconciler(
                new WorkloadTranslator(settings, io.topobridge.core.kinds.Kinds.adapters(), clock),
                options.reconcile(),
                reservations);
    }

    @Override
    public String name() {
        return "workloads";
    }

    @Override
    public Role role() {
        return Role.LEADER_ONLY;
    }

    @Override
    public void start() {
        if (!options.enabled()) {
            LOG.info("workload translation is disabled (topobridge.workloads.enabled=false)");
            ready = true;
            return;
        }
        startedAt = System.nanoTime();
        debouncer = new Debouncer<>("workloads", options.debounce(), options.maxDelay(), this::work);
        ScopeRouter router = new ScopeRouter(
                lookup, reconciler.translator(), tiers::current, this::submit, () -> debouncer.submit(Due.ALL));
        lookup.addListener(change -> {
            if (CacheChanges.matters(change)) {
                router.changed(change, heldForRoom);
            }
        });
        lookup.start();
        // a gang whose pods were bound (or one that lost a pod) may have a new achieved tier
        view.addPodListener(router::pod);
        // highest-tier: auto chooses from the domains' sizes, a gang held for room may fit now, and a running gang on
        // a node gone, cordoned or down may be short of a pod its domain cannot give back
        view.addTopologyListener(() -> debouncer.submit(Due.ALL));
        view.start();
        tiers.addListener(catalog -> debouncer.submit(Due.ALL));
        kinds.addListener(change -> debouncer.submit(Due.ALL));
        timer = PeriodicTask.daemonTimer("topobridge-workloads-resync");
        // the first full pass waits for the caches' initial lists, so nothing is deleted for want of a read
        timer.scheduleWithFixedDelay(this::firstPassWhenSynced, 0, 100, TimeUnit.MILLISECONDS);
        // tiers that never settle (nodes cannot be listed) are reported once the grace is over
        timer.schedule(() -> debouncer.submit(Due.ALL), TIERS_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        long resync = Math.max(1000, options.resync().toMillis());
        timer.scheduleWithFixedDelay(
                () -> {
                    if (ready) {
                        debouncer.submit(Due.ALL);
                    }
                },
                resync,
                resync,
                TimeUnit.MILLISECONDS);
    }

    private void firstPassWhenSynced() {
        if (!firstSubmitted && synced()) {
            firstSubmitted = true;
            debouncer.submit(Due.ALL);
        }
    }

    /**
     * Whether a pass may judge: the workloads and PodGroups are listed, and before the first full pass also the nodes,
     * pods and HyperNodes (a gang held to a tier its domains cannot hold is refused, which cannot be told from half a
     * picture), or {@link #TIERS_GRACE} is over (then passes go on without them, as the tiers do).
     */
    private boolean synced() {
        if (!lookup.synced()) {
            return false;
        }
        if (ready || view.ready()) {
            return true;
        }
        boolean over = System.nanoTime() - startedAt >= TIERS_GRACE.toNanos();
        if (over && !viewLate) {
            viewLate = true;
            LOG.warnf(
                    "the nodes, pods or HyperNodes are not listed %d s after start; workloads are judged without"
                            + " their domains until they are",
                    TIERS_GRACE.toSeconds());
        }
        return over;
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
        if (debouncer != null) {
            debouncer.close();
        }
    }

    @Override
    public boolean ready() {
        return ready;
    }

    @Override
    public Map<String, Object> details() {
        Map<String, Object> out = new TreeMap<>();
        out.put("enabled", options.enabled());
        out.put("passes", passes.get());
        out.put("fullPasses", fullPasses.get());
        out.put("lastFullPassMillis", lastFullPassMillis);
        out.put("recentWrites", lookup.recent().size());
        out.put(
                "cachedKinds",
                lookup.cachedKinds().stream().map(WorkloadKind::kind).collect(Collectors.joining(",")));
        return out;
    }

    private void submit(GangScope scope) {
        debouncer.submit(new Due.Scope(scope));
    }

    /** One batch of scopes (or all of them), on the debouncer's worker thread. */
    void work(Set<Due> batch) {
        if (!synced()) {
            if (!ready) {
                // the first full pass covers everything once the caches have their initial lists
                firstSubmitted = false;
            } else if (!timer.isShutdown()) {
                // a cache (a kind whose CRD just appeared) is still listing: try these scopes again shortly
                timer.schedule(() -> batch.forEach(debouncer::submit), 200, TimeUnit.MILLISECONDS);
            }
            return;
        }
        long started = System.nanoTime();
        ObjectRef crd = ObjectRef.cluster("CustomResourceDefinition", VolcanoApi.PODGROUP_CRD);
        if (!lookup.podGroupsAvailable()) {
            findings.publish(
                    SOURCE,
                    Set.of(crd.toString()),
                    List.of(Finding.rejected(
                            WorkloadReason.POD_GROUP_CRD_MISSING,
                            crd,
                            "Volcano's PodGroup CRD " + VolcanoApi.PODGROUP_CRD
                                    + " is not installed: no workload gets a PodGroup until it is")));
            ready = true;
            return;
        }
        findings.publish(SOURCE, Set.of(crd.toString()), List.of());
        boolean full = batch.contains(Due.ALL);
        List<GangScope> scopes = new ArrayList<>();
        if (full) {
            scopes.addAll(allScopes());
        } else {
            batch.forEach(d -> scopes.add(((Due.Scope) d).scope()));
        }
        // the domains are computed at most once a pass, and only when a gang asks for an auto tier or is held to a
        // tier (which its domains must hold: GangExceedsDomain)
        WorkloadLookup withDomains = lookup.withDomains(CachedFacts.once(view::tierDomains));
        List<Outcome> outcomes = reconciler.reconcile(
                scopes, withDomains, CachedFacts.read(lookup, view, tiers, clock.instant(), restarts));
        for (Outcome outcome : outcomes) {
            restarts = restarts.with(outcome.remembered());
        }
        boolean waiting = false;
        RuntimeException retry = null;
        for (Outcome outcome : outcomes) {
            try {
                carryOut(outcome);
                waiting |= outcome.waitsForNamespaceRoom();
            } catch (KubernetesClientException e) {
                // a transient failure (connection, 5xx, throttling): the batch is retried with backoff
                LOG.warnf("scope %s: %s", outcome.scope(), e.getMessage());
                retry = e;
            }
        }
        if (full || waiting) {
            heldForRoom = waiting;
        }
        if (full && retry == null) {
            fullPassDone(scopes.size(), outcomes, started);
        }
        passes.incrementAndGet();
        if (retry != null) {
            throw retry;
        }
    }

    /**
     * After a full pass: the fields no scope wants any more are given back, the memory of restarts keeps only the
     * gangs there still are, and the pass is counted.
     */
    private void fullPassDone(int scopeCount, List<Outcome> outcomes, long started) {
        for (PodGroupChanges.Step step : reconciler.unclaimed(lookup.allPodGroups(), lookup, outcomes)) {
            writer.release(((PodGroupChanges.Release) step).namespace(), step.name());
        }
        List<String> gangs = new ArrayList<>();
        outcomes.forEach(o -> o.translation().podGroups().forEach(pg -> gangs.add(pg.namespace() + "/" + pg.name())));
        restarts = restarts.retainOnly(gangs);
        fullPasses.incrementAndGet();
        lastFullPassMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        if (!ready) {
            LOG.infof("first full pass over %d gang scopes done in %d ms", scopeCount, lastFullPassMillis);
        }
        ready = true;
    }

    /** Carries out one scope's writes, publishes its findings and sets its timer. */
    private void carryOut(Outcome outcome) {
        GangScope scope = outcome.scope();
        if (outcome.requeueAfter() != null) {
            requeue(scope, outcome.requeueAfter());
        }
        if (outcome.deferred()) {
            LOG.debugf(
                    "%s: waits %d ms before it is judged",
                    scope, outcome.requeueAfter().toMillis());
            return;
        }
        List<Finding> found = new ArrayList<>(outcome.findings());
        found.addAll(writer.carryOut(outcome));
        if (!tiers.settled() && System.nanoTime() - startedAt < TIERS_GRACE.toNanos()) {
            // "no tier is known" is not news yet: the first topology pass, which brings the tiers, has not come
            found.removeIf(f -> f.reason() == WorkloadReason.TIERS_UNKNOWN);
        }
        publish(scope, outcome.translation().subjects(), found);
    }

    /**
     * Publishes a scope's findings, replacing what it said before: the objects it was read from and every object it
     * had findings on are covered, so a finding that went away (or moved to another object of the scope) is resolved.
     * Scopes with findings are remembered, so a full pass revisits them even when their workloads are gone.
     */
    private void publish(GangScope scope, List<ObjectRef> subjects, List<Finding> found) {
        Set<String> covered = new LinkedHashSet<>(published.getOrDefault(scope, Set.of()));
        subjects.forEach(s -> covered.add(s.toString()));
        Set<String> withFindings = new LinkedHashSet<>();
        found.forEach(f -> withFindings.add(f.object().toString()));
        covered.addAll(withFindings);
        if (!covered.isEmpty()) {
            findings.publish(SOURCE, covered, found);
        }
        if (found.isEmpty()) {
            published.remove(scope);
        } else {
            published.put(scope, withFindings);
        }
    }

    /** The scope is looked at again after {@code after}, unless a timer is set for it already by then. */
    private void requeue(GangScope scope, Duration after) {
        if (timer == null || timer.isShutdown()) {
            return;
        }
        Instant due = clock.instant().plus(after);
        Instant set = requeued.get(scope);
        if (set != null && !set.isAfter(due) && set.isAfter(clock.instant())) {
            return;
        }
        requeued.put(scope, due);
        timer.schedule(() -> submit(scope), after.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Every scope there is: of every cached workload, of every PodGroup the bridge owns or holds fields on, with findings. */
    private List<GangScope> allScopes() {
        List<HasMetadata> workloads = new ArrayList<>();
        for (WorkloadKind kind : lookup.cachedKinds()) {
            workloads.addAll(lookup.list(kind, null));
        }
        Set<GangScope> out = new LinkedHashSet<>(reconciler.scopesOf(workloads, lookup.allPodGroups(), lookup));
        out.addAll(published.keySet());
        return new ArrayList<>(out);
    }
}

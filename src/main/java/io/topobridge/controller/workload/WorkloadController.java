package io.topobridge.controller.workload;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.apply.Applier;
import io.topobridge.controller.Debouncer;
import io.topobridge.controller.KindRegistry;
import io.topobridge.controller.ProcessPart;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.diagnosis.Achieved;
import io.topobridge.core.diagnosis.Amounts;
import io.topobridge.core.diagnosis.Forest;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.changes.Bounds;
import io.topobridge.core.workload.changes.ObservedPodGroup;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.changes.QueueStates;
import io.topobridge.core.workload.changes.UntiedPods;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.core.workload.resources.Quantities;
import io.topobridge.core.workload.translate.ScopeResult;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.diagnosis.ClusterView;
import io.topobridge.findings.FindingsRegistry;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.Queue;
import io.topobridge.volcano.VolcanoObjects;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Keeps Volcano PodGroups in step with annotated workloads: event plumbing around the pure core. Cache events are
 * mapped to the gang scopes they touch and recomputed after a short quiet period, one batch at a time: each scope
 * is translated, {@link PodGroupChanges} plans its writes against the cached PodGroups and queues, the one writer
 * carries them out (it skips what the cache, or a write the cache has not shown yet, already holds), and the
 * scope's findings are published (events on transitions only). A change of tiers, of installed CRDs, or the
 * periodic resync recomputes every scope.
 */
@ApplicationScoped
public class WorkloadController implements ProcessPart {

    private static final Logger LOG = Logger.getLogger(WorkloadController.class);
    /** Findings source name. */
    public static final String SOURCE = "workloads";

    private static final Set<String> CACHE_ONLY_KINDS = Set.of("Queue", "Namespace");
    /** How long after start a gang naming a tier waits for the first topology pass before "tiers unknown" is news. */
    static final Duration TIERS_GRACE = Duration.ofSeconds(30);

    /** What the controller needs from configuration. */
    /**
     * @param groupAssembly how long after the bridge first sees a {@code topobridge.io/group} its first PodGroup waits
     *     for the group's other members (zero: no wait)
     */
    public record Options(
            boolean enabled,
            Duration debounce,
            Duration maxDelay,
            Duration resync,
            boolean requireNamespaceOptIn,
            String namespaceLabel,
            Duration groupAssembly) {
        public Options {
            Objects.requireNonNull(debounce, "debounce");
            Objects.requireNonNull(maxDelay, "maxDelay");
            Objects.requireNonNull(resync, "resync");
            Objects.requireNonNull(namespaceLabel, "namespaceLabel");
            Objects.requireNonNull(groupAssembly, "groupAssembly");
            if (groupAssembly.isNegative()) {
                throw new IllegalArgumentException(
                        "topobridge.workloads.group-assembly=" + groupAssembly + ": must not be negative");
            }
        }

        /** Without a wait for a group's members. */
        public Options(
                boolean enabled,
                Duration debounce,
                Duration maxDelay,
                Duration resync,
                boolean requireNamespaceOptIn,
                String namespaceLabel) {
            this(enabled, debounce, maxDelay, resync, requireNamespaceOptIn, namespaceLabel, Duration.ZERO);
        }
    }

    /** What a batch asks for: one gang scope, or every scope. */
    sealed interface Due permits All, Scope {}

    /** Every scope there is. */
    record All() implements Due {}

    /** One gang scope. */
    record Scope(GangScope scope) implements Due {}

    static final Due ALL = new All();

    private final WorkloadCaches lookup;
    private final Applier applier;
    private final FindingsRegistry findings;
    private final TierSource tiers;
    private final KindRegistry kinds;
    private final Options options;
    private final WorkloadTranslator translator;
    private final ClusterView view;
    private final int maxPodGroups;

    // set in start() before the listeners that use them are registered; volatile for resync() and stop() callers
    private volatile Debouncer<Due> debouncer;
    private volatile ScheduledExecutorService timer;
    private volatile boolean ready;
    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong fullPasses = new AtomicLong();
    private volatile long lastFullPassMillis;
    private volatile boolean firstSubmitted;
    private volatile long startedAt;

    /** Where each workload object was last seen to belong, so a move (e.g. to a group) recomputes both scopes. */
    private final Map<String, GangScope> lastScope = new ConcurrentHashMap<>();
    /** Scopes with findings published (touched only by the debouncer's worker thread). */
    private final Map<GangScope, Set<String>> published = new HashMap<>();
    /**
     * PodGroups this controller created ({@code namespace/name} → when), until the cache has surely shown them: they
     * count against the namespace's limit even before their watch event arrives (worker thread only).
     */
    private final Map<String, Long> created = new HashMap<>();
    /**
     * Groups without a PodGroup yet, by when the bridge first saw them (nanoTime): their first PodGroup waits
     * {@link Options#groupAssembly()} for the members created with them. Touched on the batch thread only.
     */
    private final Map<GangScope, Long> assembling = new HashMap<>();
    /**
     * {@code namespace/name} of {@code auto} PodGroups whose wait for room ends in the future, by that end: their scope
     * is translated again then, when the wait no longer holds them {@code hard}. Touched on the batch thread only.
     */
    private final Map<String, java.time.Instant> roomWaits = new HashMap<>();

    private static final long CREATED_MEMORY_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** Whether some gang waits because it exceeds the whole cluster: a node change may make room for it. */
    private volatile boolean heldForCluster;
    /** Whether some gang waits for room under the namespace's limit: a PodGroup of the bridge going makes room. */
    private volatile boolean heldForLimit;

    public WorkloadController(
            WorkloadCaches lookup,
            ClusterView view,
            Applier applier,
            FindingsRegistry findings,
            TierSource tiers,
            KindRegistry kinds,
            Options options,
            WorkloadSettings settings) {
        this.lookup = lookup;
        this.view = view;
        this.applier = applier;
        this.findings = findings;
        this.tiers = tiers;
        this.kinds = kinds;
        this.options = options;
        this.translator = new WorkloadTranslator(settings);
        this.maxPodGroups = settings.maxPodGroupsPerNamespace();
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
        lookup.addListener(this::onChange);
        lookup.start();
        // a gang whose pods were bound (or one that lost a pod) may have a new achieved tier
        view.addPodListener(this::onPod);
        view.addNodeListener(() -> {
            if (heldForCluster && debouncer != null) {
                debouncer.submit(ALL);
            }
        });
        view.start();
        tiers.addListener(catalog -> debouncer.submit(ALL));
        // highest-tier: auto chooses from the domains' sizes: a rack added or removed may change the choice
        view.addTopologyListener(() -> debouncer.submit(ALL));
        kinds.addListener(change -> debouncer.submit(ALL));
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "topobridge-workloads-resync");
            t.setDaemon(true);
            return t;
        });
        // the first full pass waits for the caches' initial lists, so nothing is deleted for want of a read
        timer.scheduleWithFixedDelay(this::firstPassWhenSynced, 0, 100, TimeUnit.MILLISECONDS);
        // tiers that never settle (nodes cannot be listed) are reported once the grace is over
        timer.schedule(() -> debouncer.submit(ALL), TIERS_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        long resync = Math.max(1000, options.resync().toMillis());
        timer.scheduleWithFixedDelay(
                () -> {
                    if (ready) {
                        debouncer.submit(ALL);
                    }
                },
                resync,
                resync,
                TimeUnit.MILLISECONDS);
    }

    private void firstPassWhenSynced() {
        if (!firstSubmitted && lookup.synced()) {
            firstSubmitted = true;
            debouncer.submit(ALL);
        }
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

    /** While the tiers are not settled, at most {@link #TIERS_GRACE} after start, "tiers unknown" is not reported. */
    private boolean holdingTierFindings() {
        return !tiers.settled() && System.nanoTime() - startedAt < TIERS_GRACE.toNanos();
    }

    @Override
    public Map<String, Object> details() {
        Map<String, Object> out = new TreeMap<>();
        out.put("enabled", options.enabled());
        out.put("passes", passes.get());
        out.put("fullPasses", fullPasses.get());
        out.put("lastFullPassMillis", lastFullPassMillis);
        out.put(
                "cachedKinds",
                String.join(
                        ",",
                        lookup.cachedKinds().stream().map(WorkloadKind::kind).toList()));
        return out;
    }

    /** Asks for a full pass now (the periodic resync does the same). */
    public void resync() {
        if (debouncer != null) {
            debouncer.submit(ALL);
        }
    }

    /** Batches processed so far (for tests waiting on a pass). */
    public long passes() {
        return passes.get();
    }

    /** Full passes processed so far. */
    public long fullPasses() {
        return fullPasses.get();
    }

    /** Keys still waiting for the next batch. */
    public int pending() {
        return debouncer == null ? 0 : debouncer.pendingCount();
    }

    private void submit(GangScope scope) {
        debouncer.submit(new Scope(scope));
    }

    private void onChange(WorkloadCaches.Change change) {
        if (!options.enabled() || !CacheChanges.matters(change)) {
            return;
        }
        if (CACHE_ONLY_KINDS.contains(change.kind())) {
            debouncer.submit(ALL);
            return;
        }
        HasMetadata object = change.object();
        if ("PodGroup".equals(change.kind())) {
            if (change.after() == null && heldForLimit && ours(object)) {
                // room under a namespace's limit: the gangs waiting for it are recomputed
                debouncer.submit(ALL);
            }
            translator.scopeOfPodGroup(object, lookup).ifPresent(this::submit);
            return;
        }
        String key = change.kind() + "/" + object.getMetadata().getNamespace() + "/"
                + object.getMetadata().getName();
        GangScope before = change.after() == null ? lastScope.remove(key) : lastScope.get(key);
        Optional<GangScope> now = change.after() == null ? Optional.empty() : translator.scopeOf(object, lookup);
        now.ifPresent(scope -> lastScope.put(key, scope));
        if (before != null && !before.equals(now.orElse(null))) {
            submit(before);
        }
        now.ifPresent(this::submit);
        if (now.isEmpty() && change.after() == null) {
            translator.scopeOf(object, lookup).ifPresent(this::submit);
        }
    }

    private void onPod(io.fabric8.kubernetes.api.model.Pod pod) {
        if (debouncer == null) {
            return;
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String group = annotations == null ? null : annotations.get(VolcanoApi.GROUP_NAME_ANNOTATION);
        PodGroup pg = group == null ? null : lookup.podGroup(pod.getMetadata().getNamespace(), group);
        if (pg != null && (ours(pg) || ownsFields(pg))) {
            translator.scopeOfPodGroup(pg, lookup).ifPresent(this::submit);
            return;
        }
        // a pod of a managed gang that does not name its PodGroup came or went: the gang's UntiedPods finding changes
        translator.gangOf(pod, tiers.current(), lookup).ifPresent(gang -> submit(gang.scope()));
    }

    /** One batch of scopes (or all of them), on the debouncer's worker thread. */
    void work(Set<Due> batch) {
        if (!lookup.synced()) {
            if (!ready) {
                // the first full pass covers everything once the caches have their initial lists
                firstSubmitted = false;
            } else if (!timer.isShutdown()) {
                // a cache (a kind whose CRD just appeared) is still listing: try these scopes again shortly
                timer.schedule(() -> debouncer.submitAll(batch), 200, TimeUnit.MILLISECONDS);
            }
            return;
        }
        long started = System.nanoTime();
        if (!lookup.podGroupsAvailable()) {
            findings.publish(
                    SOURCE,
                    Set.of(crdRef().toString()),
                    List.of(Finding.rejected(
                            WorkloadReason.POD_GROUP_CRD_MISSING,
                            crdRef(),
                            "Volcano's PodGroup CRD " + VolcanoApi.PODGROUP_CRD
                                    + " is not installed: no workload gets a PodGroup until it is")));
            ready = true;
            return;
        }
        findings.publish(SOURCE, Set.of(crdRef().toString()), List.of());
        boolean full = batch.contains(ALL);
        Set<GangScope> scopes = new LinkedHashSet<>();
        if (full) {
            scopes.addAll(allScopes());
        } else {
            batch.forEach(d -> scopes.add(((Scope) d).scope()));
        }
        TierCatalog catalog = tiers.current();
        List<GangScope> allowed = new ArrayList<>();
        List<GangScope> outside = new ArrayList<>();
        for (GangScope scope : scopes) {
            (namespaceAllowed(scope.namespace()) ? allowed : outside).add(scope);
        }
        // the domains are computed at most once a pass, and only when a gang asks for an auto tier
        WorkloadLookup withDomains = lookup.withDomains(once(view::tierDomains));
        List<ScopeResult> results = new ArrayList<>(translator.translateScopes(allowed, catalog, withDomains));
        for (ScopeResult result : translator.translateScopes(outside, catalog, withDomains)) {
            results.add(notOptedIn(result));
        }
        QueueStates queues = queues();
        // read before the forest: a forest built while the HyperNodes were still being listed is not used for placement
        Forest forest = view.placementKnown() ? view.forest() : null;
        Amounts cluster = view.clusterAllocatable();
        long now = System.nanoTime();
        created.values().removeIf(at -> now - at > CREATED_MEMORY_NANOS);
        boolean held = false;
        boolean limited = false;
        Map<GangScope, List<UntiedPods.PodTie>> ties = podTies(results, catalog);
        RuntimeException retry = null;
        for (ScopeResult result : results) {
            try {
                List<Finding> found =
                        reconcile(result, queues, forest, cluster, ties.getOrDefault(result.scope(), List.of()));
                held |= found.stream().anyMatch(f -> f.reason() == WorkloadReason.GANG_EXCEEDS_CLUSTER);
                limited |= found.stream().anyMatch(f -> f.reason() == WorkloadReason.POD_GROUP_LIMIT_REACHED);
            } catch (KubernetesClientException e) {
                // a transient failure (connection, 5xx, throttling): the batch is retried with backoff
                LOG.warnf("scope %s: %s", result.scope(), e.getMessage());
                retry = e;
            }
        }
        if (full || held) {
            heldForCluster = held;
        }
        if (full || limited) {
            heldForLimit = limited;
        }
        if (full && retry == null) {
            Set<String> wanted = new java.util.HashSet<>();
            results.forEach(r -> r.podGroups().forEach(p -> wanted.add(p.namespace() + "/" + p.name())));
            for (PodGroupChanges.Step step : PodGroupChanges.unclaimed(observe(lookup.allPodGroups()), wanted)) {
                release(step.name(), ((PodGroupChanges.Release) step).namespace());
            }
            fullPasses.incrementAndGet();
            lastFullPassMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (!ready) {
                LOG.infof("first full pass over %d gang scopes done in %d ms", scopes.size(), lastFullPassMillis);
            }
            ready = true;
        }
        passes.incrementAndGet();
        if (retry != null) {
            throw retry;
        }
    }

    /** A supplier that asks {@code source} the first time only. */
    private static <T> Supplier<T> once(Supplier<T> source) {
        return new Supplier<>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = source.get();
                }
                return value;
            }
        };
    }

    private static ObjectRef crdRef() {
        return ObjectRef.cluster("CustomResourceDefinition", VolcanoApi.PODGROUP_CRD);
    }

    /** Every scope there is: of every cached workload, of every PodGroup the bridge owns or holds fields on, with findings. */
    private Set<GangScope> allScopes() {
        Set<GangScope> out = new LinkedHashSet<>();
        for (WorkloadKind kind : lookup.cachedKinds()) {
            for (HasMetadata object : lookup.listAll(kind)) {
                translator.scopeOf(object, lookup).ifPresent(out::add);
            }
        }
        for (ObservedPodGroup pg : observe(lookup.allPodGroups())) {
            pg.scope().ifPresent(out::add);
        }
        out.addAll(published.keySet());
        return out;
    }

    /**
     * A managed gang in a namespace without the opt-in label gets no PodGroup (the pod webhook never sees its pods,
     * so they would never join it, while the PodGroup held its minResources in the queue) and says why.
     */
    private ScopeResult notOptedIn(ScopeResult result) {
        if (result.podGroups().isEmpty() && result.findings().isEmpty()) {
            return ScopeResult.empty(result.scope());
        }
        List<Finding> findings = new ArrayList<>();
        for (ObjectRef subject : result.subjects()) {
            findings.add(Finding.warning(
                    WorkloadReason.NAMESPACE_NOT_OPTED_IN,
                    subject,
                    subject + ": namespace "
                            + result.scope().namespace() + " does not carry " + options.namespaceLabel()
                            + "=true, so the"
                            + " bridge makes no PodGroup here (the pod webhook would never tie its pods to one); label the"
                            + " namespace to opt in"));
        }
        return new ScopeResult(result.scope(), result.subjects(), List.of(), findings);
    }

    private boolean namespaceAllowed(String namespace) {
        if (!options.requireNamespaceOptIn()) {
            return true;
        }
        Map<String, String> labels = lookup.namespaceLabels(namespace);
        return labels != null && "true".equals(labels.get(options.namespaceLabel()));
    }

    private QueueStates queues() {
        if (!lookup.queuesKnown()) {
            return QueueStates.UNKNOWN;
        }
        Map<String, String> states = new HashMap<>();
        Map<String, Map<String, BigDecimal>> capability = new HashMap<>();
        for (Queue queue : lookup.allQueues()) {
            String state = queue.getStatus() == null ? null : queue.getStatus().getState();
            states.put(queue.getMetadata().getName(), state == null ? "" : state);
            Map<String, String> limits =
                    queue.getSpec() == null ? null : queue.getSpec().getCapability();
            if (limits != null && !limits.isEmpty()) {
                capability.put(
                        queue.getMetadata().getName(),
                        amounts(queue.getMetadata().getName(), limits));
            }
        }
        return new QueueStates(true, states, capability);
    }

    /** A queue's capability; an entry that is no quantity limits nothing (Volcano's webhook would refuse it anyway). */
    private static Map<String, BigDecimal> amounts(String queue, Map<String, String> limits) {
        Map<String, BigDecimal> out = new TreeMap<>();
        limits.forEach((resource, value) -> {
            try {
                out.put(resource, Quantities.amount(new Quantity(value)));
            } catch (RuntimeException e) {
                LOG.debugf(
                        "queue %s: capability %s=%s is not a quantity: ignored",
                        queue, resource, UserText.quote(value));
            }
        });
        return out;
    }

    /** The cached PodGroups as the planner sees them; the scope of a foreign one is looked up only where it matters. */
    private List<ObservedPodGroup> observe(List<? extends HasMetadata> podGroups) {
        List<ObservedPodGroup> out = new ArrayList<>();
        for (HasMetadata pg : podGroups) {
            boolean ours = ours(pg);
            boolean owns = !ours && ownsFields(pg);
            GangScope scope =
                    ours || owns ? translator.scopeOfPodGroup(pg, lookup).orElse(null) : null;
            out.add(new ObservedPodGroup(
                    pg.getMetadata().getNamespace(),
                    pg.getMetadata().getName(),
                    ours,
                    scope,
                    owns,
                    pg instanceof PodGroup typed && typed.getSpec() != null
                            ? typed.getSpec().getQueue()
                            : null,
                    placement(pg)));
        }
        return out;
    }

    /** The achieved-tier annotations a PodGroup carries. */
    private static Map<String, String> placement(HasMetadata pg) {
        Map<String, String> annotations = pg.getMetadata().getAnnotations();
        if (annotations == null) {
            return Map.of();
        }
        Map<String, String> out = new TreeMap<>();
        for (String key : List.of(Topobridge.ACHIEVED_TIER, Topobridge.ACHIEVED_SUBGROUP_TIERS)) {
            if (annotations.containsKey(key)) {
                out.put(key, annotations.get(key));
            }
        }
        return out;
    }

    /**
     * Where Volcano put each of the scope's gangs whose pods are all bound; none without a forest, while the pods or
     * HyperNodes are still being read (each gang then keeps the achieved tier its PodGroup carries, rather than a restart writing
     * "none" on every placed gang and then its tier back).
     */
    private Map<String, Achieved> placed(ScopeResult result, Forest forest) {
        Map<String, Achieved> out = new HashMap<>();
        if (forest == null) {
            return out;
        }
        for (DesiredPodGroup desired : result.podGroups()) {
            PodGroup current = lookup.podGroup(desired.namespace(), desired.name());
            if (current != null) {
                Achieved.of(ClusterView.gang(current, view.podsOf(desired.namespace(), desired.name())), forest)
                        .ifPresent(a -> out.put(desired.name(), a));
            }
        }
        return out;
    }

    /**
     * The live pods of the scopes' gangs that do not name a PodGroup of the bridge, each with the PodGroup its gang's
     * plan counts it in; one walk over each namespace's cached pods serves every scope of the batch.
     */
    private Map<GangScope, List<UntiedPods.PodTie>> podTies(List<ScopeResult> results, TierCatalog catalog) {
        Map<String, Set<GangScope>> byNamespace = new TreeMap<>();
        for (ScopeResult result : results) {
            if (!result.podGroups().isEmpty()) {
                byNamespace
                        .computeIfAbsent(result.scope().namespace(), n -> new java.util.HashSet<>())
                        .add(result.scope());
            }
        }
        Map<GangScope, List<UntiedPods.PodTie>> out = new HashMap<>();
        byNamespace.forEach((namespace, scopes) -> {
            for (io.fabric8.kubernetes.api.model.Pod pod : view.livePods(namespace)) {
                Map<String, String> annotations = pod.getMetadata().getAnnotations();
                String group = annotations == null ? null : annotations.get(VolcanoApi.GROUP_NAME_ANNOTATION);
                PodGroup pg = group == null ? null : lookup.podGroup(namespace, group);
                if (pg != null && (ours(pg) || ownsFields(pg))) {
                    // tied to a gang of the bridge's
                    continue;
                }
                translator
                        .gangOf(pod, catalog, lookup)
                        .filter(gang -> scopes.contains(gang.scope()))
                        .ifPresent(gang -> out.computeIfAbsent(gang.scope(), s -> new ArrayList<>())
                                .add(new UntiedPods.PodTie(pod.getMetadata().getName(), group, gang.podGroup())));
            }
        });
        return out;
    }

    /** Brings one scope's PodGroups in line with its translation and publishes its findings. */
    void reconcile(ScopeResult result, QueueStates queues) {
        reconcile(result, queues, view.placementKnown() ? view.forest() : null, view.clusterAllocatable(), List.of());
    }

    /** Returns the scope's findings. */
    private List<Finding> reconcile(
            ScopeResult result, QueueStates queues, Forest forest, Amounts cluster, List<UntiedPods.PodTie> ties) {
        GangScope scope = result.scope();
        LOG.debugf("reconciling %s", scope);
        String prefix = scope.namespace() + "/";
        long assemblyLeft = assemblyLeft(result, prefix);
        if (assemblyLeft > 0) {
            LOG.debugf(
                    "%s: its first PodGroup waits %d ms for the group's other members",
                    scope, assemblyLeft / 1_000_000);
            return List.of();
        }
        Set<String> unseen = new java.util.HashSet<>();
        created.keySet().stream()
                .filter(k -> k.startsWith(prefix))
                .forEach(k -> unseen.add(k.substring(prefix.length())));
        Bounds bounds = new Bounds(cluster, maxPodGroups, unseen);
        PodGroupChanges.Plan plan = PodGroupChanges.plan(
                result,
                observe(lookup.podGroups(scope.namespace())),
                queues,
                placed(result, forest),
                tiers.settled() ? tiers.inCluster() : null,
                bounds);
        List<Finding> found = new ArrayList<>(plan.findings());
        found.addAll(UntiedPods.findings(result, ties));
        for (PodGroupChanges.Step step : plan.steps()) {
            if (step instanceof PodGroupChanges.Apply apply) {
                if (write(apply.podGroup(), result, found) == Applier.Outcome.CREATED) {
                    created.put(prefix + apply.name(), System.nanoTime());
                }
            } else if (step instanceof PodGroupChanges.Delete delete) {
                created.remove(delete.namespace() + "/" + delete.name());
                PodGroup current = lookup.podGroup(delete.namespace(), delete.name());
                if (current != null && applier.delete(current, Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY)) {
                    LOG.infof(
                            "deleted PodGroup %s/%s: %s no longer wants it", delete.namespace(), delete.name(), scope);
                }
            } else if (step instanceof PodGroupChanges.Release release) {
                release(release.name(), release.namespace());
            }
        }
        recheckAfterRoomWait(result);
        publish(scope, result, found);
        return found;
    }

    /**
     * Under {@code topobridge.workloads.auto-wait-for-room}, a new {@code auto} gang is {@code hard} until its PodGroup
     * is as old as the wait, and may turn {@code soft} then: its scope is translated again at that moment (once per
     * PodGroup; a translation that changes nothing writes nothing).
     */
    private void recheckAfterRoomWait(ScopeResult result) {
        java.time.Duration wait = translator.settings().autoWaitForRoom();
        if (wait.isZero() || timer == null || timer.isShutdown()) {
            return;
        }
        java.time.Instant now = java.time.Instant.now();
        roomWaits.values().removeIf(end -> end.isBefore(now.minusSeconds(60)));
        for (DesiredPodGroup desired : result.podGroups()) {
            if (!desired.annotations().containsKey(Topobridge.CHOSEN_TIER)
                    && !desired.annotations().containsKey(Topobridge.CHOSEN_SUBGROUP_TIER)) {
                continue;
            }
            PodGroup current = lookup.podGroup(desired.namespace(), desired.name());
            java.util.Optional<java.time.Instant> ends = current == null
                    ? java.util.Optional.of(now.plus(wait))
                    : translator.settings().roomWaitEnd(current.getMetadata().getCreationTimestamp());
            if (ends.isEmpty()) {
                continue;
            }
            java.time.Instant end = ends.get();
            String key = desired.namespace() + "/" + desired.name();
            if (!end.isAfter(now)
                    || end.equals(roomWaits.get(key))
                    || (current == null && roomWaits.containsKey(key))) {
                continue;
            }
            roomWaits.put(key, end);
            GangScope scope = result.scope();
            long delay = java.time.Duration.between(now, end).toMillis() + 200;
            timer.schedule(() -> submit(scope), delay, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * How long (nanoseconds) a group's first PodGroup still waits for the group's other members; 0 when it may be
     * written. The members of a {@code topobridge.io/group} are separate objects, usually applied together but seen
     * one by one: a PodGroup made from the first member alone lets Volcano start that member as a gang of its own, and
     * place the next member's pods before the PodGroup has their subgroup (outside its tier). Pods naming a PodGroup
     * that does not exist yet are not scheduled, so waiting is safe. Later changes to the group are written at once.
     */
    private long assemblyLeft(ScopeResult result, String prefix) {
        GangScope scope = result.scope();
        if (!(scope instanceof GangScope.Group) || options.groupAssembly().isZero()) {
            return 0;
        }
        boolean exists = result.podGroups().isEmpty()
                || lookup.podGroups(scope.namespace()).stream().anyMatch(pg -> {
                    Map<String, String> a = pg.getMetadata().getAnnotations();
                    return a != null && scope.key().equals(a.get(PodGroupBuilder.GANG_ANNOTATION));
                })
                || result.podGroups().stream().anyMatch(pg -> created.containsKey(prefix + pg.name()));
        long now = System.nanoTime();
        if (exists) {
            assembling.remove(scope);
            return 0;
        }
        Long first = assembling.get(scope);
        if (first == null) {
            assembling.put(scope, now);
            long wait = options.groupAssembly().toNanos();
            if (timer != null && !timer.isShutdown()) {
                timer.schedule(() -> submit(scope), wait, TimeUnit.NANOSECONDS);
            }
            return wait;
        }
        long left = first + options.groupAssembly().toNanos() - now;
        if (left <= 0) {
            assembling.remove(scope);
            return 0;
        }
        return left;
    }

    private void release(String name, String namespace) {
        PodGroup current = lookup.podGroup(namespace, name);
        if (current != null && applier.release(current, PodGroup::new)) {
            LOG.infof("released the topology fields of PodGroup %s/%s", namespace, name);
        }
    }

    /** Applies a desired PodGroup; a refusal by the API server becomes a finding, not a retry loop. */
    private Applier.Outcome write(DesiredPodGroup desired, ScopeResult result, List<Finding> found) {
        PodGroup current = lookup.podGroup(desired.namespace(), desired.name());
        try {
            Applier.Outcome outcome = applier.apply(VolcanoObjects.podGroup(desired), current);
            if (outcome != Applier.Outcome.UNCHANGED) {
                LOG.infof(
                        "%s PodGroup %s/%s (%s)",
                        outcome == Applier.Outcome.CREATED ? "created" : "updated",
                        desired.namespace(),
                        desired.name(),
                        desired.ownership() == DesiredPodGroup.Ownership.OWNED ? "owned" : "topology fields only");
            }
            return outcome;
        } catch (KubernetesClientException e) {
            int code = e.getCode();
            if (code >= 400 && code < 500 && code != 409 && code != 429) {
                String reason = e.getStatus() != null && e.getStatus().getMessage() != null
                        ? e.getStatus().getMessage()
                        : e.getMessage();
                found.addAll(PodGroupChanges.about(
                        result,
                        WorkloadReason.APPLY_REFUSED,
                        desired.name(),
                        "the API server refused PodGroup " + desired.name() + " (HTTP " + code + "): "
                                + UserText.excerpt(reason)));
                return null;
            }
            throw e;
        }
    }

    private void publish(GangScope scope, ScopeResult result, List<Finding> found) {
        if (holdingTierFindings()) {
            // the first topology pass has not come yet: "no tier is known" is not news, the pass brings the tiers
            found = found.stream()
                    .filter(f -> f.reason() != WorkloadReason.TIERS_UNKNOWN)
                    .toList();
        }
        Set<String> objects = new LinkedHashSet<>();
        result.subjects().forEach(s -> objects.add(s.toString()));
        found.forEach(f -> objects.add(f.object().toString()));
        Set<String> previous = published.getOrDefault(scope, Set.of());
        Set<String> covered = new LinkedHashSet<>(previous);
        covered.addAll(objects);
        if (!covered.isEmpty()) {
            findings.publish(SOURCE, covered, found);
        }
        if (found.isEmpty()) {
            published.remove(scope);
        } else {
            Set<String> withFindings = new LinkedHashSet<>();
            found.forEach(f -> withFindings.add(f.object().toString()));
            published.put(scope, withFindings);
        }
    }

    private static boolean ownsFields(HasMetadata pg) {
        var managed = pg.getMetadata().getManagedFields();
        return managed != null
                && managed.stream()
                        .anyMatch(m ->
                                Topobridge.FIELD_MANAGER.equals(m.getManager()) && "Apply".equals(m.getOperation()));
    }

    static boolean ours(HasMetadata pg) {
        Map<String, String> labels = pg.getMetadata().getLabels();
        return labels != null && Topobridge.MANAGED_BY.equals(labels.get(Topobridge.MANAGED_BY_LABEL));
    }
}

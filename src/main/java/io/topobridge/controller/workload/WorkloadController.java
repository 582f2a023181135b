package io.topobridge.controller.workload;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.apply.Applier;
import io.topobridge.config.Settings;
import io.topobridge.controller.Debouncer;
import io.topobridge.controller.KindRegistry;
import io.topobridge.controller.ManagedController;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.ScopeResult;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.WorkloadTranslator;
import io.topobridge.core.workload.gang.PodGroupBuilder;
import io.topobridge.findings.FindingsRegistry;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.Queue;
import io.topobridge.volcano.VolcanoObjects;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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
import org.jboss.logging.Logger;

/**
 * Keeps Volcano PodGroups in step with annotated workloads. Cache events are mapped to the gang scopes they
 * touch and recomputed after a short quiet period, one scope at a time: the translator's desired PodGroups
 * are applied through the one writer (nothing is written when the cache already holds them), PodGroups the
 * bridge made for the scope and no longer wants are deleted (only those carrying its label), topology fields
 * it added to an AIBrix or LWS PodGroup are released when no longer wanted, and the scope's findings are
 * published (events on transitions only). A change of tiers, of installed CRDs, or the periodic resync
 * recomputes every scope.
 */
@ApplicationScoped
public class WorkloadController implements ManagedController {

    private static final Logger LOG = Logger.getLogger(WorkloadController.class);
    /** Findings source name. */
    public static final String SOURCE = "workloads";
    /** The key that stands for every scope. */
    static final GangScope ALL = new GangScope("", "*", "*");
    private static final Set<String> CACHE_ONLY_KINDS = Set.of("Queue", "Namespace");

    @Inject
    ClusterLookup lookup;

    @Inject
    Applier applier;

    @Inject
    FindingsRegistry findings;

    @Inject
    Settings settings;

    @Inject
    TierSource tiers;

    @Inject
    KindRegistry kinds;

    @Inject
    KubernetesClient client;

    private WorkloadTranslator translator;
    private Debouncer<GangScope> debouncer;
    private ScheduledExecutorService timer;
    private volatile boolean ready;
    private volatile boolean enabled;
    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong fullPasses = new AtomicLong();
    private volatile long lastFullPassMillis;

    /** Where each workload object was last seen to belong, so a move (e.g. to a group) recomputes both scopes. */
    private final Map<String, GangScope> lastScope = new ConcurrentHashMap<>();

    // state below is touched only by the debouncer's single worker thread
    private final Map<String, GangScope> adopted = new HashMap<>();
    private final Map<GangScope, Set<String>> published = new HashMap<>();
    private final Map<String, Write> recentWrites = new HashMap<>();

    /** A write the PodGroup cache may not have seen yet: what was applied over which version. */
    private record Write(JsonNode desired, String overVersion) {
    }

    @Override
    public String name() {
        return "workloads";
    }

    @Override
    public void start() {
        var config = settings.raw().workloads();
        enabled = config.enabled();
        if (!enabled) {
            LOG.info("workload translation is disabled (topobridge.workloads.enabled=false)");
            ready = true;
            return;
        }
        translator = new WorkloadTranslator(settings.workloads());
        debouncer = new Debouncer<>("workloads", config.debounce(), config.maxDelay(), this::work);
        if (config.requireNamespaceOptIn()) {
            lookup.watchNamespaces();
        }
        lookup.addListener(this::onChange);
        lookup.start();
        tiers.addListener(catalog -> debouncer.submit(ALL));
        kinds.addListener(change -> debouncer.submit(ALL));
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "topobridge-workloads-resync");
            t.setDaemon(true);
            return t;
        });
        // the first full pass waits for the caches' initial lists, so nothing is deleted for want of a read
        timer.scheduleWithFixedDelay(this::firstPassWhenSynced, 0, 100, TimeUnit.MILLISECONDS);
        long resync = Math.max(1000, config.resync().toMillis());
        timer.scheduleWithFixedDelay(() -> {
            if (ready) {
                debouncer.submit(ALL);
            }
        }, resync, resync, TimeUnit.MILLISECONDS);
    }

    private volatile boolean firstSubmitted;

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

    @Override
    public Map<String, Object> details() {
        Map<String, Object> out = new TreeMap<>();
        out.put("enabled", enabled);
        out.put("passes", passes.get());
        out.put("fullPasses", fullPasses.get());
        out.put("lastFullPassMillis", lastFullPassMillis);
        out.put("cachedKinds", String.join(",", lookup.cachedKinds().stream().map(WorkloadKind::kind).toList()));
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

    private void onChange(ClusterLookup.Change change) {
        if (!enabled || !CacheChanges.matters(change)) {
            return;
        }
        if (CACHE_ONLY_KINDS.contains(change.kind())) {
            debouncer.submit(ALL);
            return;
        }
        HasMetadata object = change.object();
        if ("PodGroup".equals(change.kind())) {
            translator.scopeOfPodGroup(object, lookup).ifPresent(debouncer::submit);
            return;
        }
        String key = change.kind() + "/" + object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
        GangScope before = change.after() == null ? lastScope.remove(key) : lastScope.get(key);
        Optional<GangScope> now = change.after() == null ? Optional.empty() : translator.scopeOf(object, lookup);
        now.ifPresent(scope -> lastScope.put(key, scope));
        if (before != null && !before.equals(now.orElse(null))) {
            debouncer.submit(before);
        }
        now.ifPresent(debouncer::submit);
        if (now.isEmpty() && change.after() == null) {
            translator.scopeOf(object, lookup).ifPresent(debouncer::submit);
        }
    }

    /** One batch of scopes (or all of them), on the debouncer's worker thread. */
    void work(Set<GangScope> batch) {
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
            findings.publish(SOURCE, Set.of(crdRef().toString()), List.of(Finding.rejected(
                    WorkloadReason.POD_GROUP_CRD_MISSING, crdRef(), "Volcano's PodGroup CRD " + VolcanoApi.PODGROUP_CRD
                            + " is not installed: no workload gets a PodGroup until it is")));
            ready = true;
            return;
        }
        findings.publish(SOURCE, Set.of(crdRef().toString()), List.of());
        boolean full = batch.contains(ALL);
        Set<GangScope> scopes = full ? allScopes() : batch;
        TierCatalog catalog = tiers.current();
        List<GangScope> allowed = new ArrayList<>();
        List<ScopeResult> results = new ArrayList<>();
        for (GangScope scope : scopes) {
            if (namespaceAllowed(scope.namespace())) {
                allowed.add(scope);
            } else {
                results.add(ScopeResult.empty(scope));
            }
        }
        results.addAll(translator.translateScopes(allowed, catalog, lookup));
        RuntimeException retry = null;
        for (ScopeResult result : results) {
            GangScope scope = result.scope();
            try {
                reconcile(result);
            } catch (KubernetesClientException e) {
                // a transient failure (connection, 5xx, throttling): the batch is retried with backoff
                LOG.warnf("scope %s: %s", scope, e.getMessage());
                retry = e;
            }
        }
        if (full && retry == null) {
            releaseUnclaimed();
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

    private static ObjectRef crdRef() {
        return ObjectRef.cluster("CustomResourceDefinition", VolcanoApi.PODGROUP_CRD);
    }

    /** Every scope there is: of every cached workload, of every PodGroup the bridge owns or adopted, with findings. */
    private Set<GangScope> allScopes() {
        Set<GangScope> out = new LinkedHashSet<>();
        for (WorkloadKind kind : lookup.cachedKinds()) {
            if (kind == WorkloadKind.REPLICA_SET) {
                continue;
            }
            for (HasMetadata object : lookup.listAll(kind)) {
                translator.scopeOf(object, lookup).ifPresent(out::add);
            }
        }
        for (PodGroup pg : lookup.allPodGroups()) {
            if (ours(pg)) {
                translator.scopeOfPodGroup(pg, lookup).ifPresent(out::add);
            }
        }
        out.addAll(adopted.values());
        out.addAll(published.keySet());
        out.remove(ALL);
        return out;
    }

    private boolean namespaceAllowed(String namespace) {
        var config = settings.raw();
        if (!config.workloads().requireNamespaceOptIn()) {
            return true;
        }
        Map<String, String> labels = lookup.namespaceLabels(namespace);
        return labels != null && "true".equals(labels.get(config.admission().namespaceLabel()));
    }

    /** Brings one scope's PodGroups in line with its translation and publishes its findings. */
    void reconcile(ScopeResult result) {
        GangScope scope = result.scope();
        LOG.debugf("reconciling %s", scope);
        List<Finding> found = new ArrayList<>(result.findings());
        Set<String> ownedWanted = new HashSet<>();
        Set<String> adoptedWanted = new HashSet<>();
        for (DesiredPodGroup desired : result.podGroups()) {
            PodGroup current = lookup.podGroup(desired.namespace(), desired.name());
            if (desired.ownership() == DesiredPodGroup.Ownership.OWNED) {
                ownedWanted.add(desired.name());
                if (current != null && !ours(current)) {
                    found.addAll(about(result, WorkloadReason.NAME_TAKEN, desired.name(), "PodGroup " + desired.name()
                            + " exists and was not made by the bridge; it is left alone", false));
                    continue;
                }
                if (!queueUsable(desired, current, result, found)) {
                    continue;
                }
                write(desired, current, result, found);
            } else {
                if (current == null || ours(current)) {
                    // the other controller has not made it yet; its creation brings this scope back
                    continue;
                }
                adoptedWanted.add(desired.name());
                adopted.put(key(desired.namespace(), desired.name()), scope);
                write(desired, current, result, found);
            }
        }
        if (result.findings().stream().anyMatch(Finding::isRejection)) {
            // a refused edit changes nothing: the gang keeps the PodGroups it had until the annotations are fixed
            // or removed, so pods created meanwhile still join them
            publish(scope, result, found);
            return;
        }
        for (HasMetadata pg : lookup.podGroups(scope.namespace())) {
            if (ours(pg) && scope.key().equals(gangOf(pg)) && !ownedWanted.contains(pg.getMetadata().getName())) {
                if (applier.delete(pg, Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY)) {
                    LOG.infof("deleted PodGroup %s/%s: %s no longer wants it", pg.getMetadata().getNamespace(),
                            pg.getMetadata().getName(), scope);
                }
                recentWrites.remove(key(pg.getMetadata().getNamespace(), pg.getMetadata().getName()));
            }
        }
        for (var it = adopted.entrySet().iterator(); it.hasNext();) {
            var entry = it.next();
            String name = entry.getKey().substring(entry.getKey().indexOf('/') + 1);
            if (entry.getValue().equals(scope) && !adoptedWanted.contains(name)) {
                PodGroup current = lookup.podGroup(scope.namespace(), name);
                if (current != null && applier.release(current, PodGroup::new)) {
                    LOG.infof("released the topology fields of PodGroup %s/%s", scope.namespace(), name);
                }
                recentWrites.remove(entry.getKey());
                it.remove();
            }
        }
        publish(scope, result, found);
    }

    private boolean queueUsable(DesiredPodGroup desired, PodGroup current, ScopeResult result, List<Finding> found) {
        String name = desired.spec().getQueue();
        if (name == null || !lookup.queuesKnown()) {
            return true;
        }
        Optional<Queue> queue = lookup.queue(name);
        if (queue.isEmpty()) {
            found.addAll(about(result, WorkloadReason.QUEUE_MISSING, desired.name(),
                    "Volcano queue " + UserText.quote(name) + " of PodGroup "
                    + desired.name() + " does not exist; Volcano refuses the PodGroup until it does", false));
            return current != null;
        }
        String state = queue.get().getStatus() == null ? null : queue.get().getStatus().getState();
        if (state != null && !state.isEmpty() && !"Open".equals(state)) {
            found.addAll(about(result, WorkloadReason.QUEUE_NOT_OPEN, desired.name(),
                    "Volcano queue " + UserText.quote(name) + " of PodGroup "
                    + desired.name() + " is " + state + ", not Open; Volcano refuses new PodGroups in it", false));
            return current != null;
        }
        return true;
    }

    /** Applies a desired PodGroup unless the cache (or a write it has not seen yet) already holds it. */
    private void write(DesiredPodGroup desired, PodGroup current, ScopeResult result, List<Finding> found) {
        PodGroup object = VolcanoObjects.podGroup(desired);
        String key = key(desired.namespace(), desired.name());
        JsonNode wanted = client.getKubernetesSerialization().convertValue(object, JsonNode.class);
        Write recent = recentWrites.get(key);
        String version = current == null ? null : current.getMetadata().getResourceVersion();
        if (recent != null && recent.desired().equals(wanted) && Objects.equals(recent.overVersion(), version)) {
            return;
        }
        try {
            Applier.Outcome outcome = applier.apply(object, current);
            if (outcome == Applier.Outcome.UNCHANGED) {
                recentWrites.remove(key);
            } else {
                recentWrites.put(key, new Write(wanted, version));
                LOG.infof("%s PodGroup %s (%s)", outcome == Applier.Outcome.CREATED ? "created" : "updated", key,
                        desired.ownership() == DesiredPodGroup.Ownership.OWNED ? "owned" : "topology fields only");
            }
        } catch (KubernetesClientException e) {
            int code = e.getCode();
            if (code >= 400 && code < 500 && code != 409 && code != 429) {
                String reason = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                        : e.getMessage();
                found.addAll(about(result, WorkloadReason.APPLY_REFUSED, desired.name(), "the API server refused PodGroup "
                        + desired.name() + " (HTTP " + code + "): " + UserText.excerpt(reason), false));
                return;
            }
            throw e;
        }
    }

    /** The same finding on every workload of the scope ({@code key}: the PodGroup it is about). */
    private static List<Finding> about(ScopeResult result, WorkloadReason reason, String key, String message,
            boolean rejection) {
        List<Finding> out = new ArrayList<>();
        for (ObjectRef subject : result.subjects()) {
            out.add((rejection ? Finding.rejected(reason, subject, subject + ": " + message)
                    : Finding.warning(reason, subject, subject + ": " + message)).withKey(key));
        }
        return out;
    }

    private void publish(GangScope scope, ScopeResult result, List<Finding> found) {
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

    /**
     * After a full pass: topology fields the bridge still owns on another controller's PodGroup that no scope
     * wants any more (e.g. annotations removed while the bridge was down) are given back.
     */
    private void releaseUnclaimed() {
        for (PodGroup pg : lookup.allPodGroups()) {
            String key = key(pg.getMetadata().getNamespace(), pg.getMetadata().getName());
            if (!ours(pg) && !adopted.containsKey(key) && ownsFields(pg)) {
                if (applier.release(pg, PodGroup::new)) {
                    LOG.infof("released the topology fields of PodGroup %s", key);
                }
            }
        }
    }

    private static boolean ownsFields(HasMetadata pg) {
        var managed = pg.getMetadata().getManagedFields();
        return managed != null && managed.stream().anyMatch(m -> Topobridge.FIELD_MANAGER.equals(m.getManager())
                && "Apply".equals(m.getOperation()));
    }

    static boolean ours(HasMetadata pg) {
        Map<String, String> labels = pg.getMetadata().getLabels();
        return labels != null && Topobridge.MANAGED_BY.equals(labels.get(Topobridge.MANAGED_BY_LABEL));
    }

    private static String gangOf(HasMetadata pg) {
        Map<String, String> annotations = pg.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(PodGroupBuilder.GANG_ANNOTATION);
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}

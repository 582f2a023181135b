package io.topobridge.controller.topology;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.topobridge.apply.Applier;
import io.topobridge.apply.RecentObjects;
import io.topobridge.cache.HyperNodeCache;
import io.topobridge.cache.KindRegistry;
import io.topobridge.cache.NodeCache;
import io.topobridge.cache.NodeMetadata;
import io.topobridge.cache.OnChange;
import io.topobridge.controller.Debouncer;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.topology.DesiredHyperNode;
import io.topobridge.core.topology.ForeignHyperNode;
import io.topobridge.core.topology.HyperNodeChanges;
import io.topobridge.core.topology.NodeInfo;
import io.topobridge.core.topology.SchedulerConfig;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.topology.TopologyBuilder;
import io.topobridge.core.topology.TopologyReason;
import io.topobridge.core.topology.TopologyResult;
import io.topobridge.core.topology.TopologyResult.TreeSummary;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.findings.FindingsRegistry;
import io.topobridge.process.ProcessPart;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.VolcanoObjects;
import io.topobridge.volcano.model.HyperNodeSpec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Keeps the bridge's HyperNodes equal to what the node labels say. Node add, removal and topology-label
 * changes (other labels and node status are ignored), HyperNode changes and the Volcano scheduler ConfigMap
 * each queue a debounced pass; a pass rebuilds the whole tree with the pure {@link TopologyBuilder} (fast enough
 * for tens of thousands of nodes), writes through the {@link Applier} only the HyperNodes whose fields changed,
 * in an order that never lists a member twice, deletes only HyperNodes carrying its own source label, and
 * publishes findings and the tier catalog. While Volcano's HyperNode CRD is absent it waits, with a finding.
 */
@ApplicationScoped
public class TopologyController implements ProcessPart {

    private static final Logger LOG = Logger.getLogger(TopologyController.class);

    public static final String SOURCE = "topology";

    private static final String NODES = "nodes";
    private static final String HYPERNODES = "hypernodes";
    private static final String CRD = "crd";
    private static final String SCHEDULER = "scheduler-config";

    /** What the controller needs from configuration. */
    public record Options(
            boolean enabled,
            TopologySettings topology,
            Duration debounce,
            Duration maxDelay,
            String schedulerConfigNamespace,
            String schedulerConfigName,
            String schedulerConfigKey,
            Accelerators accelerators) {}

    /** A node as the builder reads it, and the accelerator resources it offers. */
    private record CachedNode(String resourceVersion, NodeInfo info, List<String> accelerators) {}

    @Inject
    KubernetesClient client;

    @Inject
    Applier applier;

    @Inject
    RecentObjects recent;

    @Inject
    FindingsRegistry findings;

    @Inject
    KindRegistry kinds;

    @Inject
    HyperNodeCache hyperNodes;

    @Inject
    Tiers tiers;

    @Inject
    Options options;

    @Inject
    NodeCache nodeCache;

    /** NodeInfo per node name, reused while the cached node's resource version stays the same. */
    private final Map<String, CachedNode> nodes = new HashMap<>();

    private volatile boolean nodesSynced;
    private volatile boolean schedulerConfigSynced;
    private volatile String schedulerConfigError;
    private volatile boolean ready;
    private volatile String state = "stopped";
    private volatile Map<String, Object> details = Map.of();

    // Written in start() before any informer or listener that reads them exists (so those threads see them), and
    // read afterwards from informer threads, the debouncer's worker and tests (a resync); volatile for the last.
    private volatile TopologyBuilder builder;
    volatile Debouncer<String> debouncer;
    private SharedIndexInformer<ConfigMap> configMapInformer;

    /** Any HyperNode event queues a pass. */
    private final HyperNodeCache.Reader hyperNodeEvents =
            HyperNodeCache.reader(hyperNode -> debouncer.submit(HYPERNODES), (before, after) -> true);

    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong updated = new AtomicLong();
    private final AtomicLong deleted = new AtomicLong();

    @Override
    public String name() {
        return SOURCE;
    }

    @Override
    public Role role() {
        return Role.LEADER_ONLY;
    }

    @Override
    public synchronized void start() {
        if (!options.enabled()) {
            state = "disabled";
            ready = true;
            details = Map.of("state", state);
            LOG.info("topology: disabled by topobridge.topology.enabled=false; HyperNodes are left alone");
            // workloads may still name the explicitly configured tiers (HyperNodes kept by someone else)
            tiers.publish(Tiers.configured(options.topology()));
            return;
        }
        builder = new TopologyBuilder(options.topology());
        debouncer = new Debouncer<>(SOURCE, options.debounce(), options.maxDelay(), this::reconcile);
        kinds.addListener(change -> {
            if (VolcanoApi.HYPERNODE_CRD.equals(change.crdName())) {
                debouncer.submit(CRD);
            }
        });

        nodeCache.addHandler(new NodeEvents());
        nodeCache.starting().whenComplete((ignored, error) -> {
            if (error != null) {
                LOG.errorf("topology: cannot list nodes: %s", error.getMessage());
                return;
            }
            nodesSynced = true;
            debouncer.submit(NODES);
        });

        configMapInformer = client.configMaps()
                .inNamespace(options.schedulerConfigNamespace())
                .withName(options.schedulerConfigName())
                .runnableInformer(0);
        configMapInformer.addEventHandler(new OnChange<>(configMap -> debouncer.submit(SCHEDULER)));
        configMapInformer.start().whenComplete((ignored, error) -> {
            if (error != null) {
                schedulerConfigError = "cannot read ConfigMap " + options.schedulerConfigNamespace() + "/"
                        + options.schedulerConfigName() + ": " + error.getMessage();
            }
            schedulerConfigSynced = true;
            debouncer.submit(SCHEDULER);
        });
        hyperNodes.open(hyperNodeEvents);
        state = "starting";
        debouncer.submit(CRD);
        LOG.infof("topology: watching nodes with %s", describe(options.topology()));
    }

    @Override
    public synchronized void stop() {
        if (debouncer != null) {
            debouncer.close();
        }
        if (configMapInformer != null) {
            configMapInformer.stop();
        }
        hyperNodes.close(hyperNodeEvents);
        state = "stopped";
    }

    @Override
    public boolean ready() {
        return ready;
    }

    @Override
    public Map<String, Object> details() {
        return details;
    }

    // ---- one pass -------------------------------------------------------------------------------------

    private void reconcile(Set<String> reasons) {
        boolean crdInstalled = kinds.installed(VolcanoApi.HYPERNODE_CRD);
        if (crdInstalled) {
            // a pass on half a list would write HyperNodes that exist already; a failed list throws, and is retried
            hyperNodes.awaitListed();
        }
        if (!nodesSynced || !schedulerConfigSynced) {
            return; // the informers' start callbacks queue the first pass
        }
        long started = System.nanoTime();
        Map<String, HyperNode> ours = new HashMap<>();
        List<ForeignHyperNode> foreign = new ArrayList<>();
        if (crdInstalled) {
            for (HyperNode hn : hyperNodes.list()) {
                if (Topobridge.ours(hn)) {
                    ours.put(hn.getMetadata().getName(), hn);
                } else {
                    foreign.add(new ForeignHyperNode(
                            hn.getMetadata().getName(), hn.getMetadata().getLabels(), hn.getSpec()));
                }
            }
        }
        // the informer's store, not its event stream: handlers may still be delivering the initial list
        List<NodeInfo> current = currentNodes();
        TopologyResult result = builder.build(current, foreign);
        tiers.publish(result.tiers());

        List<Finding> all = new ArrayList<>(result.findings());
        Set<String> offered = new java.util.TreeSet<>();
        nodes.values().forEach(n -> offered.addAll(n.accelerators()));
        if (offered.isEmpty() && current.stream().anyMatch(NodeInfo::gpu)) {
            // GPU feature discovery's labels without an allocatable GPU yet: NVIDIA's device plugin is on its way
            offered.add(io.topobridge.core.capacity.Amounts.GPU);
        }
        SchedulerConfig.Check scheduler = schedulerCheck(offered);
        all.addAll(scheduler.findings());
        RuntimeException failure = null;
        if (crdInstalled) {
            failure = write(result.hyperNodes(), ours, all);
        } else {
            all.add(Finding.warning(
                    TopologyReason.HYPER_NODE_CRD_MISSING,
                    ObjectRef.cluster("CustomResourceDefinition", VolcanoApi.HYPERNODE_CRD),
                    "Volcano's HyperNode CRD (" + VolcanoApi.HYPERNODE_API_VERSION + ") is not installed: no HyperNodes"
                            + " are written until it is, and hard network topology enforces nothing"));
        }
        findings.publish(SOURCE, all);

        state = crdInstalled ? "running" : "waiting-for-crd";
        details = details(result, scheduler, (System.nanoTime() - started) / 1_000_000);
        passes.incrementAndGet();
        if (!ready) {
            LOG.infof(
                    "topology: first pass done: %d nodes, %d HyperNodes, tiers %s",
                    current.size(), result.hyperNodes().size(), result.tiers());
        }
        ready = true;
        if (failure != null) {
            throw failure; // the debouncer retries with backoff
        }
    }

    private RuntimeException write(List<DesiredHyperNode> desired, Map<String, HyperNode> ours, List<Finding> out) {
        // the HyperNodes as they will be once the writes the cache has not shown yet land
        Map<String, HyperNodeSpec> view = new HashMap<>();
        for (HyperNode hn : recent.current("HyperNode", null, new ArrayList<>(ours.values()), HyperNode.class)) {
            view.put(hn.getMetadata().getName(), hn.getSpec());
        }

        RuntimeException failure = null;
        Set<String> deletedNow = new HashSet<>();
        for (HyperNodeChanges.Step step : HyperNodeChanges.plan(desired, view)) {
            try {
                if (step instanceof HyperNodeChanges.Apply apply) {
                    apply(apply, ours, deletedNow);
                } else if (step instanceof HyperNodeChanges.Delete delete) {
                    HyperNode current = ours.get(delete.name());
                    if (current != null
                            && applier.delete(current, VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE)) {
                        deletedNow.add(delete.name());
                        deleted.incrementAndGet();
                        LOG.infof("topology: deleted HyperNode %s", delete.name());
                    }
                }
            } catch (KubernetesClientException e) {
                String name = step instanceof HyperNodeChanges.Apply a
                        ? a.hyperNode().name()
                        : ((HyperNodeChanges.Delete) step).name();
                out.add(Finding.warning(
                        TopologyReason.HYPER_NODE_WRITE_FAILED,
                        new ObjectRef(VolcanoApi.HYPERNODE_API_VERSION, "HyperNode", null, name, null),
                        "the API server refused the write: "
                                + UserText.excerpt(
                                        e.getStatus() != null && e.getStatus().getMessage() != null
                                                ? e.getStatus().getMessage()
                                                : e.getMessage())));
                failure = e;
            }
        }
        return failure;
    }

    private void apply(HyperNodeChanges.Apply step, Map<String, HyperNode> ours, Set<String> deletedNow) {
        DesiredHyperNode desired = step.hyperNode();
        HyperNode current = deletedNow.contains(desired.name()) ? null : ours.get(desired.name());
        Applier.Outcome outcome = applier.apply(VolcanoObjects.hyperNode(desired), current);
        if (outcome == Applier.Outcome.UNCHANGED) {
            return;
        }
        (outcome == Applier.Outcome.CREATED ? created : updated).incrementAndGet();
        LOG.debugf("topology: %s HyperNode %s", outcome.name().toLowerCase(Locale.ROOT), desired.name());
    }

    private List<NodeInfo> currentNodes() {
        List<NodeMetadata> cached = nodeCache.list();
        Set<String> seen = new HashSet<>();
        List<NodeInfo> out = new ArrayList<>(cached.size());
        for (NodeMetadata node : cached) {
            String name = node.getMetadata().getName();
            String version = node.getMetadata().getResourceVersion();
            CachedNode known = nodes.get(name);
            if (known == null || version == null || !version.equals(known.resourceVersion())) {
                var view = NodeCache.view(node);
                known = new CachedNode(
                        version,
                        new NodeInfo(name, node.getMetadata().getLabels(), view.accelerator(options.accelerators())),
                        options.accelerators().in(view.allocatable().values()));
                nodes.put(name, known);
            }
            seen.add(name);
            out.add(known.info());
        }
        nodes.keySet().retainAll(seen);
        return out;
    }

    private SchedulerConfig.Check schedulerCheck(Set<String> accelerators) {
        ObjectRef ref = SchedulerConfig.configMapRef(options.schedulerConfigNamespace(), options.schedulerConfigName());
        if (schedulerConfigError != null) {
            return SchedulerConfig.unreadable(ref, schedulerConfigError);
        }
        ConfigMap cm = configMapInformer
                .getStore()
                .getByKey(options.schedulerConfigNamespace() + "/" + options.schedulerConfigName());
        Map<String, String> data = cm == null ? null : cm.getData() == null ? Map.of() : cm.getData();
        return SchedulerConfig.check(ref, options.schedulerConfigKey(), data, accelerators);
    }

    private Map<String, Object> details(TopologyResult result, SchedulerConfig.Check scheduler, long millis) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("state", state);
        out.put("config", describe(options.topology()));
        out.put("nodes", nodes.size());
        out.put(
                "placedNodes",
                result.trees().stream().mapToInt(TreeSummary::nodes).sum());
        out.put("hyperNodes", result.hyperNodes().size());
        out.put("tiers", catalog(result.tiers()));
        out.put(
                "trees",
                result.trees().stream()
                        .map(tree -> tree.scheme() + ": " + String.join(" < ", tree.tiers()) + " (" + tree.nodes()
                                + " nodes, " + tree.hyperNodes() + " HyperNodes)")
                        .toList());
        out.put(
                "hardTopology",
                scheduler.state().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        out.put("gpuBinPacking", scheduler.gpuBinPacked());
        out.put("passes", passes.get() + 1);
        out.put("lastPassMillis", millis);
        out.put("writes", Map.of("created", created.get(), "updated", updated.get(), "deleted", deleted.get()));
        return Map.copyOf(out);
    }

    private static Map<String, String> catalog(TierCatalog catalog) {
        Map<String, String> out = new TreeMap<>();
        catalog.names()
                .forEach(n -> out.put(
                        n,
                        catalog.numbers(n).size() == 1
                                ? String.valueOf(catalog.numbers(n).iterator().next())
                                : "ambiguous " + catalog.numbers(n)));
        return out;
    }

    private static String describe(TopologySettings topology) {
        return topology.custom()
                ? "tiers "
                        + topology.tiers().stream()
                                .map(t -> t.labelKey() + "=" + t.name())
                                .toList()
                : "preset " + topology.preset();
    }

    // ---- events ---------------------------------------------------------------------------------------

    /** Queues a pass when a node comes or goes, or when a label the tree reads changed. */
    private final class NodeEvents implements ResourceEventHandler<NodeMetadata> {
        @Override
        public void onAdd(NodeMetadata node) {
            if (nodesSynced && debouncer != null) {
                debouncer.submit(NODES);
            }
        }

        @Override
        public void onUpdate(NodeMetadata before, NodeMetadata after) {
            if (!topologyLabels(before).equals(topologyLabels(after))
                    || acceleratorsChanged(NodeCache.view(before), NodeCache.view(after))) {
                debouncer.submit(NODES);
            }
        }

        @Override
        public void onDelete(NodeMetadata node, boolean finalStateUnknown) {
            debouncer.submit(NODES);
        }

        private boolean acceleratorsChanged(
                io.topobridge.core.capacity.NodeView before, io.topobridge.core.capacity.NodeView after) {
            Accelerators a = options.accelerators();
            return before.accelerator(a) != after.accelerator(a)
                    || !a.in(before.allocatable().values())
                            .equals(a.in(after.allocatable().values()));
        }

        private Map<String, String> topologyLabels(NodeMetadata node) {
            Map<String, String> labels =
                    node.getMetadata() == null ? null : node.getMetadata().getLabels();
            Map<String, String> out = new HashMap<>(labels == null ? Map.of() : labels);
            out.keySet().removeIf(k -> !builder.readsLabel(k));
            return out;
        }
    }
}

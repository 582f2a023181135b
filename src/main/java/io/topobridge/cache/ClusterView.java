package io.topobridge.cache;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.NodeState;
import io.topobridge.process.ProcessPart;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.PodGroup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What diagnosis reads, cached on every replica (it only reads): pods slimmed to their requests, node and gang
 * ({@link SlimPodStore}), every HyperNode of every source, the nodes ({@link NodeCache}) and the PodGroups
 * ({@link WorkloadCaches}). It hands the pure core its inputs: the forest, the capacity, a gang as a
 * {@link GangView}.
 */
@ApplicationScoped
public class ClusterView implements ProcessPart {

    private final KubernetesClient client;
    private final NodeCache nodes;
    private final WorkloadCaches lookup;
    private final HyperNodeCache hyperNodeCache;
    /** A domain's size changes with a HyperNode's spec (Volcano writes status.nodeCount, which changes nothing). */
    private final HyperNodeCache.Reader hyperNodeEvents = HyperNodeCache.reader(
            hyperNode -> topologyChanged(),
            (before, after) -> !java.util.Objects.equals(before.getSpec(), after.getSpec()));

    private final List<Consumer<Pod>> podListeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> topologyListeners = new CopyOnWriteArrayList<>();
    private volatile TimedDomains domains;
    private SharedIndexInformer<Pod> pods;
    private volatile boolean started;

    private final Accelerators accelerators;

    public ClusterView(
            KubernetesClient client,
            NodeCache nodes,
            WorkloadCaches lookup,
            HyperNodeCache hyperNodeCache,
            Accelerators accelerators) {
        this.client = client;
        this.nodes = nodes;
        this.lookup = lookup;
        this.hyperNodeCache = hyperNodeCache;
        this.accelerators = accelerators;
    }

    @Override
    public String name() {
        return "cluster-view";
    }

    /** Hears a pod that was bound, unbound, added or removed (informer thread; keep it quick). */
    public void addPodListener(Consumer<Pod> listener) {
        podListeners.add(listener);
    }

    /**
     * Hears a change of the domains' sizes: a HyperNode added, removed or given other members or tier, a node's
     * allocatable changed, a node cordoned, uncordoned, tainted or turning (not) Ready, a node added or removed
     * (informer thread; keep it quick).
     */
    public void addTopologyListener(Runnable listener) {
        topologyListeners.add(listener);
    }

    private void topologyChanged() {
        domains = null;
        topologyListeners.forEach(Runnable::run);
    }

    @Override
    public synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        nodes.addHandler(new OnChange<>(node -> topologyChanged(), NodeCache::roomChanged));
        nodes.start();
        lookup.start();
        pods = client.pods().inAnyNamespace().runnableInformer(0);
        pods.itemStore(new SlimPodStore());
        pods.addEventHandler(new OnChange<Pod>(
                pod -> podListeners.forEach(l -> l.accept(pod)),
                (before, after) -> !java.util.Objects.equals(
                                before.getSpec().getNodeName(), after.getSpec().getNodeName())
                        || !java.util.Objects.equals(
                                before.getStatus().getPhase(), after.getStatus().getPhase())
                        || (before.getMetadata().getDeletionTimestamp() == null)
                                != (after.getMetadata().getDeletionTimestamp() == null)));
        pods.start();
        hyperNodeCache.open(hyperNodeEvents);
    }

    @Override
    public synchronized void stop() {
        if (pods != null) {
            pods.stop();
        }
        hyperNodeCache.close(hyperNodeEvents);
        pods = null;
        started = false;
    }

    @Override
    public boolean ready() {
        return Informers.synced(pods) && (!hyperNodeCache.running() || hyperNodeCache.synced()) && nodes.ready();
    }

    /**
     * Whether where gangs were placed can be read: the pods and the HyperNodes have both been listed. Until then (the
     * HyperNode CRD not seen yet, or its list still coming, as after a restart in a large cluster) every bound gang
     * would seem to sit in no HyperNode at all.
     */
    public boolean placementKnown() {
        return Informers.synced(pods) && hyperNodeCache.synced();
    }

    @Override
    public Map<String, Object> details() {
        return Map.of(
                "pods",
                Informers.list(pods).size(),
                "hyperNodes",
                cachedHyperNodeList().size());
    }

    // ---- what the core reads --------------------------------------------------------------------------

    /** Every HyperNode, all sources. */
    public List<HyperNodeView> hyperNodes() {
        return cachedHyperNodeList().stream().map(HyperNodeCache::view).toList();
    }

    /** The cached HyperNode objects, all sources (never to be changed), or empty until their cache has listed them. */
    public Optional<List<HyperNode>> cachedHyperNodes() {
        return started && hyperNodeCache.synced() ? Optional.of(List.copyOf(hyperNodeCache.list())) : Optional.empty();
    }

    /** The HyperNodes this view reads: none while it is stopped. */
    private List<HyperNode> cachedHyperNodeList() {
        return started ? hyperNodeCache.list() : List.of();
    }

    public Forest forest() {
        return Forest.of(hyperNodes());
    }

    /** Every pod that holds or wants resources (not Succeeded or Failed). */
    public List<PodView> pods() {
        return Informers.list(pods).stream()
                .filter(ClusterView::live)
                .map(CoreViews::podView)
                .toList();
    }

    /** Whether a node takes new pods, as cached; empty when the node does not exist (or is not listed yet). */
    public Optional<NodeState> nodeState(String name) {
        NodeMetadata node = nodes.get(name);
        return node == null ? Optional.empty() : Optional.of(node.state());
    }

    /**
     * The allocatable resources of every node together; null while the nodes are not listed yet, or when no node
     * reports any (a cluster whose kubelets have not reported is not judged).
     */
    public Amounts clusterAllocatable() {
        if (!nodes.ready()) {
            return null;
        }
        Amounts sum = nodes.views().stream().map(NodeView::allocatable).reduce(Amounts.NONE, Amounts::plus);
        return sum.isEmpty() ? null : sum;
    }

    /** Domains as last computed, and when (for admission, which may ask many times a second). */
    private record TimedDomains(TierDomains domains, long at) {}

    /** How long admission reuses the domains it computed (the controller computes them once per pass). */
    private static final long DOMAINS_REUSE_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

    /**
     * The domains of every tier with their sizes and free capacity, for {@code highest-tier: auto};
     * {@link TierDomains#NONE} until the nodes, pods and HyperNodes have been listed, so no choice is made on half a
     * picture.
     */
    public TierDomains tierDomains() {
        return ready() ? TierDomains.of(nodes.views(), pods(), forest(), accelerators) : TierDomains.NONE;
    }

    /** {@link #tierDomains()}, reused for a second (admission's reads; a topology change drops it at once). */
    public TierDomains recentTierDomains() {
        TimedDomains cached = domains;
        long now = System.nanoTime();
        if (cached != null && now - cached.at() < DOMAINS_REUSE_NANOS) {
            return cached.domains();
        }
        TierDomains fresh = tierDomains();
        domains = fresh.isEmpty() ? null : new TimedDomains(fresh, now);
        return fresh;
    }

    public Capacity capacity() {
        return Capacity.of(nodes.views(), pods(), forest(), accelerators);
    }

    /** The live pods of a namespace as the cache keeps them ({@link SlimPodStore}); empty until it has synced. */
    public List<Pod> livePods(String namespace) {
        SharedIndexInformer<Pod> p = pods;
        return Informers.synced(p)
                ? Informers.inNamespace(p, namespace).stream()
                        .filter(ClusterView::live)
                        .toList()
                : List.of();
    }

    /** Whether a pod is neither Succeeded nor Failed. */
    public static boolean live(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    /** A PodGroup with its live pods, as the core reads a gang. */
    public GangView gang(PodGroup pg) {
        String name = pg.getMetadata().getName();
        return CoreViews.gang(
                pg,
                Informers.inNamespace(pods, pg.getMetadata().getNamespace()).stream()
                        .filter(pod ->
                                live(pod) && name.equals(CoreViews.annotation(pod, VolcanoApi.GROUP_NAME_ANNOTATION)))
                        .map(CoreViews::podView)
                        .toList());
    }
}

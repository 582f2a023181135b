package io.topobridge.cache;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.resources.Quantities;
import io.topobridge.process.ProcessPart;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.logging.Logger;

/**
 * The one cache of Nodes (every replica; it only reads): labels, allocatable resources and whether the node takes new
 * pods, nothing else, on an API client of its own where kind Node maps to {@link NodeMetadata}. The topology controller builds the tree from it,
 * diagnosis computes free capacity from it.
 */
@ApplicationScoped
public class NodeCache implements ProcessPart {

    private static final Logger LOG = Logger.getLogger(NodeCache.class);

    private final KubernetesClient client;
    private final List<ResourceEventHandler<NodeMetadata>> handlers = new CopyOnWriteArrayList<>();
    private KubernetesClient nodeClient;
    private SharedIndexInformer<NodeMetadata> informer;
    private CompletableFuture<Void> synced;

    public NodeCache(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public String name() {
        return "node-cache";
    }

    /** Hears every node event (informer thread); add before {@link #start()} to see the initial list. */
    public void addHandler(ResourceEventHandler<NodeMetadata> handler) {
        handlers.add(handler);
    }

    @Override
    public void start() {
        starting();
    }

    /** Starts the cache once; the future completes when the initial list is in (or fails). */
    public synchronized CompletableFuture<Void> starting() {
        if (synced != null) {
            return synced;
        }
        var serialization = new KubernetesSerialization();
        serialization.registerKubernetesResource(NodeMetadata.class);
        nodeClient = new KubernetesClientBuilder()
                .withConfig(client.getConfiguration())
                .withKubernetesSerialization(serialization)
                .build();
        informer = nodeClient.resources(NodeMetadata.class).runnableInformer(0);
        informer.itemStore(new NodeMetadataStore());
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(NodeMetadata obj) {
                handlers.forEach(h -> h.onAdd(obj));
            }

            @Override
            public void onUpdate(NodeMetadata oldObj, NodeMetadata newObj) {
                handlers.forEach(h -> h.onUpdate(oldObj, newObj));
            }

            @Override
            public void onDelete(NodeMetadata obj, boolean unknown) {
                handlers.forEach(h -> h.onDelete(obj, unknown));
            }
        });
        synced = informer.start().toCompletableFuture().thenApply(ignored -> (Void) null);
        synced.whenComplete((ok, error) -> {
            if (error != null) {
                LOG.errorf("cannot list nodes: %s", error.getMessage());
            }
        });
        return synced;
    }

    @Override
    public synchronized void stop() {
        if (informer != null) {
            informer.stop();
        }
        if (nodeClient != null) {
            nodeClient.close();
        }
        informer = null;
        nodeClient = null;
        synced = null;
    }

    @Override
    public boolean ready() {
        return Informers.synced(informer);
    }

    @Override
    public Map<String, Object> details() {
        return Map.of("nodes", list().size());
    }

    /** The cached nodes (cached objects: read, never change). */
    public List<NodeMetadata> list() {
        return Informers.list(informer);
    }

    /** The cached node of that name, or null. */
    public NodeMetadata get(String name) {
        return Informers.get(informer, null, name);
    }

    /** The cached nodes as diagnosis reads them. */
    public List<NodeView> views() {
        return list().stream().map(NodeCache::view).toList();
    }

    /** One cached node as diagnosis reads it. */
    public static NodeView view(NodeMetadata node) {
        Map<String, BigDecimal> allocatable = new TreeMap<>();
        node.allocatable().forEach((k, v) -> allocatable.put(k, Quantities.amount(v)));
        return new NodeView(
                node.getMetadata().getName(), node.getMetadata().getLabels(), new Amounts(allocatable), node.state());
    }

    /**
     * Whether a node's room changed between two versions: its allocatable resources, or whether it takes new pods
     * (cordon, Ready, taints). Heartbeats and other status updates change neither.
     */
    public static boolean roomChanged(NodeMetadata before, NodeMetadata after) {
        return !java.util.Objects.equals(before.allocatable(), after.allocatable())
                || !before.state().equals(after.state());
    }
}

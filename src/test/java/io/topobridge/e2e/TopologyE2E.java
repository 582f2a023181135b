package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.topobridge.e2e.AuditLog.Write;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The nodes of {@code examples/gpu-cluster} on the real API server: the bridge's HyperNodes are accepted (CRD
 * schema, CEL rules and Volcano's admission policy all run there), equal what {@code render} prints for the same
 * nodes, and every write is minimal — counted in the API server's audit log.
 */
@ExtendWith(RealClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TopologyE2E {

    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private final RealCluster cluster;

    TopologyE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    @Order(1)
    void firstSyncWritesEachHyperNodeOnceAndMatchesRender() {
        cluster.stopBridge();
        Examples.ensureNodes(cluster.client());
        // start from no HyperNodes at all, whatever ran before
        var hyperNodes = cluster.client().genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode");
        hyperNodes.withLabel("volcano.sh/network-topology-source", "topobridge").delete();
        cluster.waitFor(
                "no HyperNodes", TIMEOUT, () -> hyperNodes.list().getItems().isEmpty());
        long mark = cluster.audit().mark();
        Map<String, JsonNode> expected = Examples.renderedHyperNodes(Examples.NODES.toString());
        assertThat(expected).hasSizeGreaterThan(5);

        cluster.bridge();
        cluster.waitFor(
                "the HyperNodes of the example cluster",
                TIMEOUT,
                () -> Examples.hyperNodes(cluster.client()).keySet().equals(expected.keySet()));
        cluster.awaitQuiet(RealCluster.BRIDGE, SETTLE, TIMEOUT);

        assertThat(Examples.hyperNodes(cluster.client())).isEqualTo(expected);
        List<Write> writes = cluster.audit().writesSince(mark, RealCluster.BRIDGE, "hypernodes");
        assertThat(writes)
                .as("one apply per HyperNode")
                .hasSize(expected.size())
                .allSatisfy(w -> {
                    assertThat(w.verb()).isEqualTo("patch");
                    assertThat(w.code()).as(w.toString()).isEqualTo(201);
                });
        // no write was refused: the real server's schema, CEL rules and Volcano's policy accepted each HyperNode
        assertThat(cluster.audit()
                        .writesSince(
                                mark,
                                w -> w.user().equals(RealCluster.BRIDGE)
                                        && w.resource().equals("hypernodes")
                                        && !w.succeeded()))
                .isEmpty();
    }

    @Test
    @Order(2)
    void aRestartOnAnUnchangedClusterWritesNothing() {
        cluster.bridge();
        cluster.awaitQuiet(RealCluster.BRIDGE, SETTLE, TIMEOUT);
        cluster.stopBridge();
        long mark = cluster.audit().mark();
        cluster.bridge();
        // a full pass of every controller ran, then nothing was left to write
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), TIMEOUT);
        List<Write> writes = cluster.audit()
                .writesSince(
                        mark,
                        w -> w.user().equals(RealCluster.BRIDGE)
                                && !w.resource().equals("events"));
        assertThat(writes).as("writes of a restart with nothing changed").isEmpty();
    }

    @Test
    @Order(3)
    void aRelabelWritesOnlyTheHyperNodesWhoseSpecChanged() {
        Map<String, JsonNode> before = settledHyperNodes();
        String clique = label("gb200-r01-t01", "nvidia.com/gpu.clique");
        String otherClique = label("gb200-r02-t01", "nvidia.com/gpu.clique");
        String otherLeaf = label("gb200-r02-t01", "fabric.topograph.run/tier-0");
        String leaf = label("gb200-r01-t01", "fabric.topograph.run/tier-0");
        long mark = cluster.audit().mark();
        relabel(
                "gb200-r01-t01",
                Map.of("nvidia.com/gpu.clique", otherClique, "fabric.topograph.run/tier-0", otherLeaf));
        try {
            cluster.waitFor(
                    "the tray in its new NVLink domain",
                    TIMEOUT,
                    () -> !Examples.hyperNodes(cluster.client()).equals(before));
            cluster.awaitQuiet(RealCluster.BRIDGE, SETTLE, TIMEOUT);
            Map<String, JsonNode> after = Examples.hyperNodes(cluster.client());
            Map<String, String> changed = new TreeMap<>();
            before.forEach((name, spec) -> {
                if (!spec.equals(after.get(name))) {
                    changed.put(name, after.containsKey(name) ? "changed" : "removed");
                }
            });
            after.keySet().stream().filter(n -> !before.containsKey(n)).forEach(n -> changed.put(n, "added"));
            assertThat(after).isEqualTo(Examples.renderedHyperNodes(currentNodesFile()));
            List<Write> writes = cluster.audit().writesSince(mark, RealCluster.BRIDGE, "hypernodes");
            assertThat(writes)
                    .as("one write per HyperNode whose spec changed: " + changed)
                    .hasSize(changed.size());
        } finally {
            relabel("gb200-r01-t01", Map.of("nvidia.com/gpu.clique", clique, "fabric.topograph.run/tier-0", leaf));
            cluster.waitFor(
                    "the tray back in its NVLink domain",
                    TIMEOUT,
                    () -> Examples.hyperNodes(cluster.client()).equals(before));
            cluster.awaitQuiet(RealCluster.BRIDGE, SETTLE, TIMEOUT);
        }
    }

    /**
     * Volcano's scheduler (v1.15) keeps a deleted HyperNode among the children of a parent that still lists it, and
     * its next session with a hard-topology gang dereferences the missing child and panics. Merging one rack's second
     * NVLink partition into its first deletes the partition's HyperNode: in the order the API server reports the
     * changes (the order Volcano's informer applies them), no HyperNode lists one that is deleted, on the way there
     * and back.
     */
    @Test
    @Order(4)
    void noHyperNodeIsDeletedWhileAnotherListsIt() {
        Map<String, JsonNode> before = settledHyperNodes();
        List<String> trays = List.of("gb200-r04-t05", "gb200-r04-t06", "gb200-r04-t07", "gb200-r04-t08");
        String second = label(trays.get(0), "nvidia.com/gpu.clique");
        String first = second.substring(0, second.lastIndexOf('.')) + ".1";
        List<String> events = new ArrayList<>();
        Map<String, List<String>> listed = new HashMap<>();
        before.forEach((name, spec) -> listed.put(name, hyperNodeMembers(spec)));
        List<String> deletedWhileListed = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        Watch watch = cluster.client()
                .genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode")
                .withLabel("volcano.sh/network-topology-source", "topobridge")
                .withResourceVersion(cluster.client()
                        .genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode")
                        .list()
                        .getMetadata()
                        .getResourceVersion())
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, GenericKubernetesResource h) {
                        String name = h.getMetadata().getName();
                        synchronized (events) {
                            events.add(action + " " + name);
                            if (action == Action.DELETED) {
                                listed.remove(name);
                                deleted.add(name);
                                listed.forEach((parent, members) -> {
                                    if (members.contains(name)) {
                                        deletedWhileListed.add(name + " (listed by " + parent + ")");
                                    }
                                });
                            } else {
                                listed.put(
                                        name,
                                        hyperNodeMembers(Examples.json(
                                                h.getAdditionalProperties().get("spec"))));
                            }
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                });
        try {
            trays.forEach(t -> relabel(t, Map.of("nvidia.com/gpu.clique", first)));
            cluster.waitFor(
                    "one NVLink partition in the rack",
                    TIMEOUT,
                    () -> Examples.hyperNodes(cluster.client())
                            .equals(Examples.renderedHyperNodes(currentNodesFile())));
            cluster.awaitQuiet(RealCluster.BRIDGE, SETTLE, TIMEOUT);
        } finally {
            trays.forEach(t -> relabel(t, Map.of("nvidia.com/gpu.clique", second)));
            cluster.waitFor(
                    "the rack's two NVLink partitions back",
                    TIMEOUT,
                    () -> Examples.hyperNodes(cluster.client()).equals(before));
            cluster.awaitQuiet(RealCluster.BRIDGE, SETTLE, TIMEOUT);
            watch.close();
        }
        synchronized (events) {
            assertThat(deleted).as("HyperNodes deleted: " + events).isNotEmpty();
            assertThat(deletedWhileListed).as("events: " + events).isEmpty();
        }
    }

    /** The names of the HyperNodes a spec lists. */
    private static List<String> hyperNodeMembers(JsonNode spec) {
        List<String> out = new ArrayList<>();
        spec.path("members").forEach(m -> {
            if ("HyperNode".equals(m.path("type").asText())) {
                out.add(m.path("selector").path("exactMatch").path("name").asText());
            }
        });
        return out;
    }

    /** The HyperNodes once the running bridge has been quiet for a while. */
    private Map<String, JsonNode> settledHyperNodes() {
        cluster.bridge();
        cluster.awaitQuiet(RealCluster.BRIDGE, SETTLE, TIMEOUT);
        return Examples.hyperNodes(cluster.client());
    }

    private String label(String node, String key) {
        return cluster.client()
                .nodes()
                .withName(node)
                .get()
                .getMetadata()
                .getLabels()
                .get(key);
    }

    private void relabel(String node, Map<String, String> labels) {
        cluster.client().nodes().withName(node).edit(n -> {
            n.getMetadata().getLabels().putAll(labels);
            return n;
        });
    }

    /** The cluster's nodes as a YAML file, for {@code render}. */
    private String currentNodesFile() {
        return cluster.writeNodes("nodes-now.yaml");
    }
}

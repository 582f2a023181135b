package io.topobridge.controller.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.topology.DesiredHyperNode;
import io.topobridge.core.topology.NodeInfo;
import io.topobridge.core.topology.Nodes;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.topology.TopologyBuilder;
import io.topobridge.core.topology.TopologyReason;
import io.topobridge.core.topology.TopologyResult;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.volcano.HyperNode;
import io.topobridge.volcano.model.ExactMatch;
import io.topobridge.volcano.model.HyperNodeSpec;
import io.topobridge.volcano.model.MemberSelector;
import io.topobridge.volcano.model.MemberSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The topology controller against the mock API server, counting every HyperNode write: one create per
 * HyperNode on the first sync, only the affected HyperNodes on a relabel, nothing on a resync, foreign
 * HyperNodes untouched, findings as Events, and the scheduler ConfigMap and HyperNode CRD followed live.
 */
class TopologyControllerTest {

    static final Path EXAMPLE = Path.of("examples/gpu-cluster");
    static final String CLIQUE = "nvidia.com/gpu.clique";

    private Harness harness;

    @AfterEach
    void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    private Harness exampleCluster() {
        return exampleCluster(Harness.options(TopologySettings.parse(TopologySettings.AUTO, null)));
    }

    private Harness exampleCluster(TopologyController.Options options) {
        MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds();
        cluster.seed(EXAMPLE);
        RecordingDispatcher.of(cluster).clearLog();
        harness = Harness.wire(cluster, options).start();
        harness.settle();
        return harness;
    }

    /** The Events the controller recorded (in namespace default, where cluster-scoped objects' Events go). */
    private List<Event> events() {
        return harness.cluster
                .client()
                .v1()
                .events()
                .inNamespace("default")
                .list()
                .getItems();
    }

    /** What the builder says the HyperNodes should be for the nodes now in the API server. */
    private TopologyResult expected() {
        List<NodeInfo> nodes = harness.cluster.client().nodes().list().getItems().stream()
                .map(n -> Nodes.of(n.getMetadata().getName(), n.getMetadata().getLabels()))
                .toList();
        return new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(nodes, List.of());
    }

    private void assertServerMatches(TopologyResult expected) {
        Map<String, HyperNode> actual = harness.hyperNodes();
        assertThat(actual.keySet())
                .containsExactlyInAnyOrderElementsOf(expected.hyperNodes().stream()
                        .map(DesiredHyperNode::name)
                        .toList());
        for (DesiredHyperNode want : expected.hyperNodes()) {
            HyperNode have = actual.get(want.name());
            assertThat(have.getSpec()).as(want.name()).isEqualTo(want.spec());
            assertThat(have.getMetadata().getLabels()).as(want.name()).containsAllEntriesOf(want.labels());
            assertThat(have.getStatus())
                    .as("never writes status of %s", want.name())
                    .isNull();
        }
    }

    private List<RecordingDispatcher.Request> writes() {
        return RecordingDispatcher.of(harness.cluster).writes("/apis/" + VolcanoApi.TOPOLOGY_GROUP + "/");
    }

    private Set<String> writtenNames() {
        return writes().stream()
                .map(r -> {
                    String path = r.path().contains("?")
                            ? r.path().substring(0, r.path().indexOf('?'))
                            : r.path();
                    return path.substring(path.lastIndexOf('/') + 1);
                })
                .collect(Collectors.toSet());
    }

    private void relabel(String node, String key, String value) {
        editNode(node, n -> n.editMetadata().addToLabels(key, value).endMetadata());
    }

    private void editNode(String node, UnaryOperator<NodeBuilder> change) {
        harness.cluster
                .client()
                .nodes()
                .withName(node)
                .edit(n -> change.apply(new NodeBuilder(n)).build());
    }

    @Test
    void firstSyncCreatesEachHyperNodeOnceAndAResyncWritesNothing() {
        exampleCluster();
        TopologyResult expected = expected();
        // 2 spines, 5 leaves, 5 NVLink domains, 7 partitions (racks r04 and r05 are split in two)
        assertThat(expected.hyperNodes()).hasSize(2 + 5 + 5 + 7);
        assertServerMatches(expected);
        assertThat(writes()).hasSize(expected.hyperNodes().size()).allMatch(RecordingDispatcher.Request::isApply);
        assertThat(RecordingDispatcher.of(harness.cluster)
                        .requests(r -> r.isWrite() && r.path().contains("/status")))
                .isEmpty();
        assertThat(harness.tiers.current().number("nvlink")).contains(1);
        assertThat(harness.tiers.current().number("nvlink-domain")).contains(2);
        assertThat(harness.tiers.current().number("leaf")).contains(3);
        assertThat(harness.tiers.current().number("spine")).contains(4);
        assertThat(harness.controller.details())
                .containsEntry("state", "running")
                .containsEntry("hyperNodes", 19);

        RecordingDispatcher.of(harness.cluster).clearLog();
        long before = harness.passes();
        harness.resync();
        await().atMost(Duration.ofSeconds(10)).until(() -> harness.passes() > before);
        harness.settle();
        assertThat(writes()).isEmpty();
    }

    @Test
    void oneRelabelWritesOnlyTheAffectedHyperNodes() {
        exampleCluster();
        TopologyResult before = expected();
        RecordingDispatcher.of(harness.cluster).clearLog();

        // the tray moves to a new NVLink domain under the same leaf
        relabel("gb200-r01-t01", CLIQUE, "0badc0de-0000-4000-8000-000000000001.1");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertServerMatches(expected()));
        harness.settle();

        TopologyResult after = expected();
        Set<DesiredHyperNode> unchanged = new HashSet<>(before.hyperNodes());
        unchanged.retainAll(after.hyperNodes());
        Set<String> changed = after.hyperNodes().stream()
                .filter(h -> !unchanged.contains(h))
                .map(DesiredHyperNode::name)
                .collect(Collectors.toSet());
        // the old partition loses the tray, the new domain and its partition appear, the leaf lists the domain
        assertThat(changed).hasSize(4);
        assertThat(writes()).hasSize(4);
        assertThat(writtenNames()).isEqualTo(changed);
    }

    @Test
    void labelsTheTreeDoesNotReadAndStatusChangesCauseNoPass() {
        exampleCluster();
        RecordingDispatcher.of(harness.cluster).clearLog();
        long before = harness.passes();
        relabel("gb200-r02-t03", "example.com/team", "inference");
        harness.cluster.client().nodes().withName("gb200-r02-t03").editStatus(n -> {
            Node copy = new NodeBuilder(n).build();
            copy.getStatus().getCapacity().put("pods", new io.fabric8.kubernetes.api.model.Quantity("120"));
            return copy;
        });
        harness.settle();
        assertThat(harness.passes()).isEqualTo(before);
        assertThat(writes()).isEmpty();
    }

    @Test
    void removingNodesShrinksOrDeletesOnlyTheirHyperNodes() {
        // a quiet period long enough that the nine deletions form one pass, so the count is exact
        exampleCluster(new TopologyController.Options(
                true,
                TopologySettings.parse(TopologySettings.AUTO, null),
                Duration.ofSeconds(2),
                Duration.ofSeconds(10),
                "volcano-system",
                "volcano-scheduler-configmap",
                "volcano-scheduler.conf",
                Accelerators.DEFAULT));
        RecordingDispatcher.of(harness.cluster).clearLog();
        for (int t = 1; t <= 8; t++) {
            harness.cluster
                    .client()
                    .nodes()
                    .withName(String.format("gb200-r01-t%02d", t))
                    .delete();
        }
        harness.cluster.client().nodes().withName("gb200-r02-t01").delete();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertServerMatches(expected()));
        harness.settle();
        // rack r01: its NVLink partition, domain and leaf go, the spine drops the leaf; rack r02's partition shrinks
        assertThat(writes()).hasSize(5);
        assertThat(writes().stream().filter(r -> r.method().equals("DELETE"))).hasSize(3);
        assertThat(expected().hyperNodes()).hasSize(16);
    }

    @Test
    void foreignHyperNodesAreLeftAloneAndReported() {
        MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds();
        cluster.seed(EXAMPLE);
        HyperNode volcanos = foreign(
                "hypernode-from-labels",
                Map.of(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, "label"),
                "gb200-r01-t01",
                "gb200-r01-t02");
        HyperNode manual = foreign("manual-rack", Map.of(), "cpu-01");
        cluster.client().resource(volcanos).create();
        cluster.client().resource(manual).create();
        RecordingDispatcher.of(cluster).clearLog();
        harness = Harness.wire(cluster, Harness.options(TopologySettings.parse(TopologySettings.AUTO, null)))
                .start();
        harness.settle();

        assertThat(writtenNames()).doesNotContain("hypernode-from-labels", "manual-rack");
        assertThat(harness.hyperNodes()).containsKeys("hypernode-from-labels", "manual-rack");
        assertThat(harness.hyperNodes().get("hypernode-from-labels").getSpec()).isEqualTo(volcanos.getSpec());
        assertThat(harness.findings.of(TopologyController.SOURCE))
                .filteredOn(f -> f.reason() == TopologyReason.FOREIGN_HYPER_NODE_OVERLAP)
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.object().name()).isEqualTo("hypernode-from-labels");
                    assertThat(f.message()).contains("gb200-r01-t01, gb200-r01-t02");
                });

        // deleting ours never touches theirs, even when every node loses its labels
        Set<String> ours = new java.util.TreeSet<>(harness.hyperNodes().keySet());
        ours.removeAll(Set.of("hypernode-from-labels", "manual-rack"));
        RecordingDispatcher.of(harness.cluster).clearLog();
        for (Node node : cluster.client().nodes().list().getItems()) {
            cluster.client()
                    .nodes()
                    .withName(node.getMetadata().getName())
                    .edit(n -> new NodeBuilder(n)
                            .editMetadata()
                            .removeFromLabels(CLIQUE)
                            .removeFromLabels("fabric.topograph.run/tier-0")
                            .removeFromLabels("fabric.topograph.run/tier-1")
                            .endMetadata()
                            .build());
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> harness.hyperNodes().keySet().equals(Set.of("hypernode-from-labels", "manual-rack")));
        harness.settle();
        assertThat(writtenNames()).doesNotContain("hypernode-from-labels", "manual-rack");
        // each of our 19 deleted once; a pass that falls in the middle of the relabels may make (and then delete) a
        // HyperNode of the half-relabelled state, never more than once
        List<String> deleted = writes().stream()
                .filter(r -> r.method().equals("DELETE"))
                .map(r -> r.path().substring(r.path().lastIndexOf('/') + 1))
                .toList();
        assertThat(ours).hasSize(19);
        assertThat(deleted).doesNotHaveDuplicates().containsAll(ours);
        Set<String> applied = writes().stream()
                .filter(r -> !r.method().equals("DELETE"))
                .map(r ->
                        r.path().contains("?") ? r.path().substring(0, r.path().indexOf('?')) : r.path())
                .map(path -> path.substring(path.lastIndexOf('/') + 1))
                .collect(Collectors.toSet());
        assertThat(deleted.stream().filter(name -> !ours.contains(name)))
                .as("deleted, not ours at the start: made during the relabels")
                .allMatch(applied::contains);
    }

    private static HyperNode foreign(String name, Map<String, String> labels, String... nodes) {
        HyperNode hn = new HyperNode();
        hn.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(labels).build());
        List<MemberSpec> members = new ArrayList<>();
        for (String node : nodes) {
            members.add(new MemberSpec()
                    .type(MemberSpec.TypeEnum.NODE)
                    .selector(new MemberSelector().exactMatch(new ExactMatch().name(node))));
        }
        hn.setSpec(new HyperNodeSpec().tier(1).members(members));
        return hn;
    }

    @Test
    void aHyperNodeDeletedOrEditedByHandIsRestored() {
        exampleCluster();
        String name = expected().hyperNodes().get(0).name();
        RecordingDispatcher.of(harness.cluster).clearLog();
        harness.cluster.client().resources(HyperNode.class).withName(name).delete();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertServerMatches(expected()));
        harness.settle();
        assertThat(writes()).hasSize(2); // the hand-made delete, and the bridge's re-create

        RecordingDispatcher.of(harness.cluster).clearLog();
        harness.cluster.client().resources(HyperNode.class).withName(name).edit(hn -> {
            HyperNode copy = new HyperNode();
            copy.setMetadata(hn.getMetadata());
            copy.setSpec(new HyperNodeSpec()
                    .tier(hn.getSpec().getTier())
                    .tierName("edited")
                    .members(hn.getSpec().getMembers().subList(0, 1)));
            return copy;
        });
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertServerMatches(expected()));
        harness.settle();
        assertThat(writes()).hasSize(2); // the hand-made edit, and the bridge's repair
    }

    @Test
    void waitsForTheHyperNodeCrdWithAFindingAndStartsWhenItAppears() {
        MockCluster cluster = RecordingDispatcher.start();
        cluster.installCrdResource("crds/scheduling.volcano.sh_podgroups.yaml");
        cluster.seed(EXAMPLE);
        harness = Harness.wire(cluster, Harness.options(TopologySettings.parse(TopologySettings.AUTO, null)))
                .start();
        harness.settle();
        assertThat(harness.controller.details()).containsEntry("state", "waiting-for-crd");
        assertThat(harness.findings.of(TopologyController.SOURCE))
                .extracting(Finding::reason)
                .contains(TopologyReason.HYPER_NODE_CRD_MISSING);
        assertThat(harness.tiers.current().top()).isEqualTo(4);
        assertThat(writes()).isEmpty();

        cluster.installCrdResource("crds/topology.volcano.sh_hypernodes.yaml");
        CustomResourceDefinition crd = cluster.client()
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(VolcanoApi.HYPERNODE_CRD)
                .get();
        harness.kinds.update(VolcanoApi.HYPERNODE_CRD, crd);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertServerMatches(expected()));
        harness.settle();
        assertThat(harness.controller.details()).containsEntry("state", "running");
        assertThat(harness.findings.of(TopologyController.SOURCE))
                .extracting(Finding::reason)
                .doesNotContain(TopologyReason.HYPER_NODE_CRD_MISSING);
    }

    @Test
    void followsTheSchedulerConfigMap() {
        exampleCluster();
        assertThat(harness.controller.details()).containsEntry("hardTopology", "config-missing");
        assertThat(reasons()).contains(TopologyReason.SCHEDULER_CONFIG_MISSING);

        var client = harness.cluster.client();
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("volcano-system")
                        .endMetadata()
                        .build())
                .create();
        client.configMaps()
                .inNamespace("volcano-system")
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("volcano-scheduler-configmap")
                        .endMetadata()
                        .addToData(
                                "volcano-scheduler.conf",
                                "tiers:\n- plugins:\n  - name: gang\n  - name: network-topology-aware\n")
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "enforced".equals(harness.controller.details().get("hardTopology")));
        assertThat(reasons())
                .doesNotContain(
                        TopologyReason.SCHEDULER_CONFIG_MISSING, TopologyReason.NETWORK_TOPOLOGY_PLUGIN_DISABLED);
        // the example cluster's trays have GPUs, and the plugin does not bin-pack them across HyperNodes
        assertThat(harness.controller.details()).containsEntry("gpuBinPacking", false);
        assertThat(harness.findings.of(TopologyController.SOURCE))
                .filteredOn(f -> f.reason() == TopologyReason.GPU_NOT_BIN_PACKED)
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.object().kind()).isEqualTo("ConfigMap");
                    assertThat(f.severity()).isEqualTo(io.topobridge.core.finding.Severity.INFO);
                });
        client.configMaps()
                .inNamespace("volcano-system")
                .withName("volcano-scheduler-configmap")
                .edit(cm -> new ConfigMapBuilder(cm)
                        .addToData(
                                "volcano-scheduler.conf",
                                "tiers:\n- plugins:\n  - name: gang\n  - name: network-topology-aware\n"
                                        + "    arguments:\n      hypernode.binpack.resources: nvidia.com/gpu\n")
                        .build());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Boolean.TRUE.equals(harness.controller.details().get("gpuBinPacking")));
        assertThat(reasons()).doesNotContain(TopologyReason.GPU_NOT_BIN_PACKED);

        client.configMaps()
                .inNamespace("volcano-system")
                .withName("volcano-scheduler-configmap")
                .edit(cm -> new ConfigMapBuilder(cm)
                        .addToData("volcano-scheduler.conf", "tiers:\n- plugins:\n  - name: gang\n")
                        .build());
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        "plugin-missing".equals(harness.controller.details().get("hardTopology")));
        assertThat(harness.findings.of(TopologyController.SOURCE))
                .filteredOn(f -> f.reason() == TopologyReason.NETWORK_TOPOLOGY_PLUGIN_DISABLED)
                .singleElement()
                .satisfies(f -> assertThat(f.object().kind()).isEqualTo("ConfigMap"));
    }

    private List<io.topobridge.core.finding.Reason> reasons() {
        return harness.findings.of(TopologyController.SOURCE).stream()
                .map(Finding::reason)
                .toList();
    }

    @Test
    void nodeFindingsBecomeEventsOnTheNode() {
        exampleCluster();
        relabel("cpu-01", "fabric.topograph.run/tier-1", "S-2c5eab0306555424");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(harness.findings.of(TopologyController.SOURCE))
                        .anyMatch(f -> f.reason() == TopologyReason.MISSING_TIER_LABELS
                                && f.object().name().equals("cpu-01")));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(events())
                    .anyMatch(e -> "Node".equals(e.getInvolvedObject().getKind())
                            && "cpu-01".equals(e.getInvolvedObject().getName())
                            && "MissingTierLabels".equals(e.getReason())
                            && "Warning".equals(e.getType()));
        });
    }

    @Test
    void aFindingWhoseCountGrowsAsNodesJoinIsOneEventThatCountsUp() {
        MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds();
        harness = Harness.wire(
                        cluster, Harness.options(TopologySettings.parse("auto", List.of("example.com/rack=rack"))))
                .start();
        for (int n = 1; n <= 3; n++) {
            cluster.client()
                    .nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("n" + n)
                            .addToLabels("example.com/rack", "r1")
                            .endMetadata()
                            .build())
                    .create();
            String count = "with " + n + " nodes";
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(harness.findings.of(TopologyController.SOURCE))
                            .filteredOn(f -> f.reason() == TopologyReason.SINGLE_DOMAIN_TIER)
                            .singleElement()
                            .satisfies(f -> assertThat(f.message()).contains(count)));
        }
        harness.settle();
        assertThat(events())
                .filteredOn(e -> "SingleDomainTier".equals(e.getReason()))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.getInvolvedObject().getKind()).isEqualTo("HyperNode");
                    assertThat(e.getInvolvedObject().getName()).isEqualTo("rack-r1");
                    assertThat(e.getCount()).isEqualTo(3);
                    assertThat(e.getMessage()).contains("rack \"r1\" with 3 nodes");
                });
    }

    private void removeClique(String node) {
        editNode(node, n -> n.editMetadata().removeFromLabels(CLIQUE).endMetadata());
    }

    @Test
    void tierListenersHearOfChangesOnly() {
        MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds();
        cluster.seed(EXAMPLE);
        harness = Harness.wire(cluster, Harness.options(TopologySettings.parse(TopologySettings.AUTO, null)));
        List<TierCatalog> heard = new CopyOnWriteArrayList<>();
        harness.tiers.addListener(heard::add);
        harness.start();
        harness.settle();
        assertThat(heard).hasSize(1);
        assertThat(heard.get(0).names()).containsExactly("leaf", "nvlink", "nvlink-domain", "spine");

        // a relabel inside the tree keeps the tiers: no new notice
        relabel("gb200-r03-t02", CLIQUE, "0badc0de-0000-4000-8000-000000000002.1");
        harness.settle();
        assertThat(heard).hasSize(1);

        // one tray without a clique: it is left out, the others keep the nvlink tier: no new notice
        removeClique("gb200-r03-t02");
        harness.settle();
        assertThat(heard).hasSize(1);

        // no tray with a clique any more: the nvlink tiers are left out for all, tiers change
        for (var node : harness.cluster.client().nodes().list().getItems()) {
            if (node.getMetadata().getLabels().containsKey(CLIQUE)) {
                removeClique(node.getMetadata().getName());
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 2);
        assertThat(heard.get(1).names()).containsExactly("leaf", "spine");
        assertThat(Objects.requireNonNull(harness.tiers.current().number("leaf")))
                .contains(1);
    }

    @Test
    void disabledLeavesEverythingAlone() {
        MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds();
        cluster.seed(EXAMPLE);
        var options = Harness.options(false, TopologySettings.parse(TopologySettings.AUTO, null));
        harness = Harness.wire(cluster, options).start();
        assertThat(harness.controller.details()).containsEntry("state", "disabled");
        assertThat(harness.tiers.current()).isEqualTo(TierCatalog.EMPTY);
        assertThat(writes()).isEmpty();
    }
}

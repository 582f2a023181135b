package io.topobridge.core.topology;

import static io.topobridge.core.finding.Severity.INFO;
import static io.topobridge.core.finding.Severity.WARNING;
import static io.topobridge.core.topology.NodeLabels.AWS;
import static io.topobridge.core.topology.NodeLabels.CLIQUE;
import static io.topobridge.core.topology.NodeLabels.DOMAIN;
import static io.topobridge.core.topology.NodeLabels.GKE;
import static io.topobridge.core.topology.NodeLabels.RACK;
import static io.topobridge.core.topology.NodeLabels.SUB_DOMAIN;
import static io.topobridge.core.topology.NodeLabels.T0;
import static io.topobridge.core.topology.NodeLabels.T1;
import static io.topobridge.core.topology.NodeLabels.T2;
import static io.topobridge.core.topology.NodeLabels.V0;
import static io.topobridge.core.topology.NodeLabels.ZONE;
import static io.topobridge.core.topology.Nodes.node;
import static io.topobridge.core.topology.TopologyReason.CLIQUE_DOMAIN_MISMATCH;
import static io.topobridge.core.topology.TopologyReason.MISSING_TIER_LABELS;
import static io.topobridge.core.topology.TopologyReason.NO_MATCHING_NODES;
import static io.topobridge.core.topology.TopologyReason.PARTITION_IN_TWO_DOMAINS;
import static io.topobridge.core.topology.TopologyReason.PARTITION_SPANS_LEAVES;
import static io.topobridge.core.topology.TopologyReason.SINGLE_DOMAIN_TIER;
import static io.topobridge.core.topology.TopologyReason.TIER_LEFT_OUT;
import static io.topobridge.core.topology.TopologyReason.UNMATCHABLE_NODE_NAME;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Reason;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.topology.TopologyResult.TreeSummary;
import io.topobridge.volcano.model.ExactMatch;
import io.topobridge.volcano.model.HyperNodeSpec;
import io.topobridge.volcano.model.MemberSelector;
import io.topobridge.volcano.model.MemberSpec;
import io.topobridge.volcano.model.RegexMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The pure builder: presets, path identity, depth, names and findings, case by case. */
class TopologyBuilderTest {

    static TopologySettings tiers(String... specs) {
        return TopologySettings.parse("auto", List.of(specs));
    }

    static TopologyResult build(TopologySettings settings, NodeInfo... nodes) {
        return new TopologyBuilder(settings).build(List.of(nodes), List.of());
    }

    static Set<String> reasons(TopologyResult result) {
        return result.findings().stream().map(f -> f.reason().reason()).collect(Collectors.toSet());
    }

    static DesiredHyperNode hyperNode(TopologyResult result, String name) {
        return result.hyperNodes().stream()
                .filter(h -> h.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no HyperNode " + name + " in " + names(result)));
    }

    static List<String> names(TopologyResult result) {
        return result.hyperNodes().stream().map(DesiredHyperNode::name).toList();
    }

    static List<String> members(DesiredHyperNode hn) {
        return hn.spec().getMembers().stream()
                .map(m -> m.getSelector().getExactMatch().getName())
                .toList();
    }

    /** A topograph node: fabric tier 0 (leaf) and tier 1 (spine). */
    static Nodes tray(String name, String leaf, String spine) {
        return node(name).label(T0, leaf).label(T1, spine);
    }

    /** An AWS node: network-node layers 1, 2, 3 (and 4), top first. */
    static Nodes aws(String name, String... layers) {
        Nodes node = node(name);
        for (int i = 0; i < layers.length; i++) {
            node.label(AWS + (i + 1), layers[i]);
        }
        return node;
    }

    static Nodes gke(String name, String block, String subblock) {
        return node(name).label(GKE + "block", block).label(GKE + "subblock", subblock);
    }

    /** A node in topograph's NVLink domain {@code domain}. */
    static Nodes nvl(String name, String domain) {
        return node(name).label(DOMAIN, domain);
    }

    /** A node of the rack=rack, zone=zone tiers. */
    static NodeInfo racked(String name, String rack, String zone) {
        return node(name).label(RACK, rack).label(ZONE, zone).build();
    }

    // ---- presets: which tiers each scheme gives ---------------------------------------------------------

    static Stream<Arguments> presets() {
        return Stream.of(
                Arguments.of(
                        "aws three layers",
                        "aws",
                        List.of(
                                aws("a", "nn-1", "nn-2", "nn-3a").build(),
                                aws("b", "nn-1", "nn-2", "nn-3b").build()),
                        List.of("1=layer-3", "2=layer-2", "3=layer-1")),
                Arguments.of(
                        "aws with layer-4 on every node",
                        "aws",
                        List.of(
                                aws("a", "1", "2", "3", "4a").build(),
                                aws("b", "1", "2", "3", "4b").build()),
                        List.of("1=layer-4", "2=layer-3", "3=layer-2", "4=layer-1")),
                Arguments.of(
                        "aws with an NVLink clique on every node",
                        "aws",
                        List.of(
                                aws("a", "1", "2", "3").label(CLIQUE, "u1.1").build(),
                                aws("b", "1", "2", "3").label(CLIQUE, "u2.1").build()),
                        List.of("1=nvlink", "2=layer-3", "3=layer-2", "4=layer-1")),
                Arguments.of(
                        "gke without host",
                        "gke",
                        List.of(gke("a", "b", "s1").build(), gke("b", "b", "s2").build()),
                        List.of("1=subblock", "2=block")),
                Arguments.of(
                        "gke ignores the clique (its sub-block is the NVLink rack)",
                        "gke",
                        List.of(
                                gke("a", "b", "s1")
                                        .label(GKE + "host", "h1")
                                        .label(CLIQUE, "u.1")
                                        .build(),
                                gke("b", "b", "s1")
                                        .label(GKE + "host", "h2")
                                        .label(CLIQUE, "u.1")
                                        .build()),
                        List.of("1=host", "2=subblock", "3=block")),
                Arguments.of(
                        "oci",
                        "oci",
                        List.of(node("a")
                                .label("oci.oraclecloud.com/rdma.hpc_island_id", "i")
                                .label("oci.oraclecloud.com/rdma.network_block_id", "n")
                                .label("oci.oraclecloud.com/rdma.local_block_id", "l")
                                .build()),
                        List.of("1=local-block", "2=network-block", "3=hpc-island")),
                Arguments.of(
                        "topograph >= 1.0 with five fabric tiers",
                        "topograph",
                        List.of(tray("a", "l", "s")
                                .label(T2, "c")
                                .label("fabric.topograph.run/tier-3", "x")
                                .label("fabric.topograph.run/tier-4", "y")
                                .build()),
                        List.of("1=leaf", "2=spine", "3=core", "4=fabric-3", "5=fabric-4")),
                Arguments.of(
                        "topograph fabric tiers and a clique: NVLink under leaf under spine",
                        "auto",
                        List.of(tray("a", "l", "s").label(CLIQUE, "u.1").build()),
                        List.of("1=nvlink", "2=leaf", "3=spine")),
                Arguments.of(
                        "topograph 0.3",
                        "topograph",
                        List.of(node("a")
                                .label("network.topology.nvidia.com/leaf", "l")
                                .label("network.topology.nvidia.com/spine", "s")
                                .label("network.topology.nvidia.com/core", "c")
                                .label("network.topology.nvidia.com/accelerator", "a")
                                .build()),
                        List.of("1=nvlink", "2=leaf", "3=spine", "4=core")),
                Arguments.of(
                        "topograph 0.1",
                        "topograph",
                        List.of(node("a")
                                .label("network.topology.nvidia.com/block", "l")
                                .label("network.topology.nvidia.com/spine", "s")
                                .label("network.topology.nvidia.com/datacenter", "c")
                                .build()),
                        List.of("1=leaf", "2=spine", "3=core")),
                Arguments.of(
                        "GPU feature discovery alone",
                        "nvidia-gfd",
                        List.of(
                                node("a").label(CLIQUE, "u.1").build(),
                                node("b").label(CLIQUE, "v.1").build()),
                        List.of("1=nvlink")),
                Arguments.of(
                        "topograph accelerator label alone",
                        "auto",
                        List.of(node("a")
                                .label("accelerator.topograph.run/domain", "d")
                                .build()),
                        List.of("1=nvlink")),
                Arguments.of(
                        "volcano keys, tor instead of hypernode",
                        "volcano",
                        List.of(node("a")
                                .label("volcano.sh/hypercluster", "c")
                                .label("volcano.sh/tor", "t")
                                .build()),
                        List.of("1=leaf", "2=spine")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("presets")
    void presetTiers(String name, String preset, List<NodeInfo> nodes, List<String> tiers) {
        TopologyResult result = new TopologyBuilder(TopologySettings.parse(preset, List.of())).build(nodes, List.of());
        var tree = TreeAssertions.assertValidTree(result, name);
        assertThat(tree.tierNames()).isEqualTo(tiers);
        assertThat(tree.nodeParent().keySet())
                .containsExactlyInAnyOrderElementsOf(
                        nodes.stream().map(NodeInfo::name).toList());
        assertThat(result.tiers().top()).isEqualTo(tiers.size());
        assertThat(result.findings()).noneMatch(f -> f.severity() == Severity.WARNING);
    }

    // ---- identity and structure ---------------------------------------------------------------------------

    @Test
    void equalValuesUnderDifferentParentsNeverMerge() {
        TopologyResult result =
                build(tiers(RACK + "=rack", ZONE + "=zone"), racked("a1", "r1", "a"), racked("b1", "r1", "b"));
        var tree = TreeAssertions.assertValidTree(result, "identity");
        assertThat(tree.nodeParent().get("a1")).isNotEqualTo(tree.nodeParent().get("b1"));
        assertThat(tree.ancestor("a1", 2)).isEqualTo("zone-a");
        assertThat(tree.ancestor("b1", 2)).isEqualTo("zone-b");
        assertThat(result.hyperNodes()).hasSize(4);
        assertThat(result.findings())
                .filteredOn(f -> f.reason() == TopologyReason.DOMAIN_PARENT_CONFLICT)
                .hasSize(2)
                .allMatch(f ->
                        f.message().contains("rack \"r1\"") && f.message().contains("kept as 2 separate HyperNodes"));
    }

    // ---- NVLink: partitions inside domains, folded where every domain is one partition ------------------------

    record NvlinkCase(
            String name,
            TopologySettings settings,
            List<NodeInfo> nodes,
            List<String> tiers,
            Set<Set<String>> partitions,
            Set<Set<String>> domains) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<NvlinkCase> nvlinkTiers() {
        return Stream.of(
                new NvlinkCase(
                        "one clique per domain: a single nvlink tier, as before",
                        TopologySettings.parse("nvidia-gfd", List.of()),
                        List.of(
                                node("a").label(CLIQUE, "u1.1").build(),
                                node("b").label(CLIQUE, "u1.1").build(),
                                node("c").label(CLIQUE, "u2.1").build()),
                        List.of("1=nvlink"),
                        Set.of(Set.of("a", "b"), Set.of("c")),
                        null),
                new NvlinkCase(
                        "a domain split into two cliques: nvlink partitions under nvlink-domain",
                        TopologySettings.parse("nvidia-gfd", List.of()),
                        List.of(
                                node("a").label(CLIQUE, "u1.1").build(),
                                        node("b").label(CLIQUE, "u1.2").build(),
                                node("c").label(CLIQUE, "u2.1").build(),
                                        node("d").label(CLIQUE, "u2.1").build()),
                        List.of("1=nvlink", "2=nvlink-domain"),
                        Set.of(Set.of("a"), Set.of("b"), Set.of("c", "d")),
                        Set.of(Set.of("a", "b"), Set.of("c", "d"))),
                new NvlinkCase(
                        "fabric tiers and split cliques: partition, domain, leaf, spine",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s").label(CLIQUE, "u1.1").build(),
                                tray("b", "l1", "s").label(CLIQUE, "u1.2").build(),
                                tray("c", "l2", "s").label(CLIQUE, "u2.1").build()),
                        List.of("1=nvlink", "2=nvlink-domain", "3=leaf", "4=spine"),
                        Set.of(Set.of("a"), Set.of("b"), Set.of("c")),
                        Set.of(Set.of("a", "b"), Set.of("c"))),
                new NvlinkCase(
                        "topograph sub-domains count within their domain",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "rack01")
                                        .build(),
                                tray("b", "l1", "s")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "rack02")
                                        .build(),
                                tray("c", "l1", "s")
                                        .label(DOMAIN, "nvl2")
                                        .label(SUB_DOMAIN, "rack01")
                                        .build()),
                        List.of("1=nvlink", "2=nvlink-domain", "3=leaf", "4=spine"),
                        Set.of(Set.of("a"), Set.of("b"), Set.of("c")),
                        Set.of(Set.of("a", "b"), Set.of("c"))),
                new NvlinkCase(
                        "one topograph sub-domain per domain folds",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "nvl1.r1")
                                        .build(),
                                tray("b", "l1", "s")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "nvl1.r1")
                                        .build(),
                                tray("c", "l2", "s")
                                        .label(DOMAIN, "nvl2")
                                        .label(SUB_DOMAIN, "nvl2.r1")
                                        .build()),
                        List.of("1=nvlink", "2=leaf", "3=spine"),
                        Set.of(Set.of("a", "b"), Set.of("c")),
                        null),
                new NvlinkCase(
                        "a clique under topograph's domain label is its partition (clique finer, as on AWS)",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s")
                                        .label(DOMAIN, "us-1")
                                        .label(CLIQUE, "u1.1")
                                        .build(),
                                tray("b", "l1", "s")
                                        .label(DOMAIN, "us-1")
                                        .label(CLIQUE, "u1.1")
                                        .build(),
                                tray("c", "l1", "s")
                                        .label(DOMAIN, "us-1")
                                        .label(CLIQUE, "u1.2")
                                        .build()),
                        List.of("1=nvlink", "2=nvlink-domain", "3=leaf", "4=spine"),
                        Set.of(Set.of("a", "b"), Set.of("c")),
                        Set.of(Set.of("a", "b", "c"))),
                new NvlinkCase(
                        "topograph's sub-domain wins over the clique",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "p1")
                                        .label(CLIQUE, "u1.1")
                                        .build(),
                                tray("b", "l1", "s")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "p1")
                                        .label(CLIQUE, "u1.2")
                                        .build()),
                        List.of("1=nvlink", "2=leaf", "3=spine"),
                        Set.of(Set.of("a", "b")),
                        null),
                new NvlinkCase(
                        "an unpartitioned domain gets one partition when another is split (uniform depth)",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "p1")
                                        .build(),
                                tray("b", "l1", "s")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "p2")
                                        .build(),
                                tray("c", "l2", "s").label(DOMAIN, "nvl2").build(),
                                tray("d", "l2", "s").label(DOMAIN, "nvl2").build()),
                        List.of("1=nvlink", "2=nvlink-domain", "3=leaf", "4=spine"),
                        Set.of(Set.of("a"), Set.of("b"), Set.of("c", "d")),
                        Set.of(Set.of("a", "b"), Set.of("c", "d"))),
                new NvlinkCase(
                        "topograph 0.3 accelerator with split cliques",
                        TopologySettings.parse("topograph", List.of()),
                        List.of(
                                node("a")
                                        .label(V0 + "leaf", "l")
                                        .label(V0 + "accelerator", "nvl-0")
                                        .label(CLIQUE, "u.1")
                                        .build(),
                                node("b")
                                        .label(V0 + "leaf", "l")
                                        .label(V0 + "accelerator", "nvl-0")
                                        .label(CLIQUE, "u.2")
                                        .build()),
                        List.of("1=nvlink", "2=nvlink-domain", "3=leaf"),
                        Set.of(Set.of("a"), Set.of("b")),
                        Set.of(Set.of("a", "b"))),
                new NvlinkCase(
                        "aws layers with split cliques",
                        TopologySettings.parse("aws", List.of()),
                        List.of(
                                aws("a", "1", "2", "3").label(CLIQUE, "u.1").build(),
                                aws("b", "1", "2", "3").label(CLIQUE, "u.2").build()),
                        List.of("1=nvlink", "2=nvlink-domain", "3=layer-3", "4=layer-2", "5=layer-1"),
                        Set.of(Set.of("a"), Set.of("b")),
                        Set.of(Set.of("a", "b"))),
                new NvlinkCase(
                        "an explicit clique tier groups by the whole value",
                        tiers(CLIQUE + "=nvlink"),
                        List.of(
                                node("a").label(CLIQUE, "u.1").build(),
                                node("b").label(CLIQUE, "u.2").build()),
                        List.of("1=nvlink"),
                        Set.of(Set.of("a"), Set.of("b")),
                        null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nvlinkTiers")
    void nvlinkPartitionsAndDomains(NvlinkCase c) {
        TopologyResult result = new TopologyBuilder(c.settings()).build(c.nodes(), List.of());
        var tree = TreeAssertions.assertValidTree(result, c.name());
        assertThat(tree.tierNames()).isEqualTo(c.tiers());
        assertThat(groups(tree, c.nodes(), 1)).as("tier-1 groups").isEqualTo(c.partitions());
        if (c.domains() != null) {
            assertThat(groups(tree, c.nodes(), 2)).as("tier-2 groups").isEqualTo(c.domains());
        }
        for (int i = 0; i < c.tiers().size(); i++) {
            assertThat(result.tiers().number(c.tiers().get(i).substring(2))).contains(i + 1);
        }
        assertThat(result.findings()).noneMatch(f -> f.severity() == Severity.WARNING);
    }

    /** The nodes under each tier-{@code k} HyperNode. */
    static Set<Set<String>> groups(TreeAssertions.Tree tree, List<NodeInfo> nodes, int k) {
        return nodes.stream()
                .collect(Collectors.groupingBy(
                        n -> tree.ancestor(n.name(), k), Collectors.mapping(NodeInfo::name, Collectors.toSet())))
                .values()
                .stream()
                .collect(Collectors.toSet());
    }

    @Test
    void foldedNvlinkKeepsItsNamesAndASplitDomainKeepsItsHash() {
        List<NodeInfo> rack = new ArrayList<>();
        for (int t = 1; t <= 4; t++) {
            rack.add(tray("r01-t0" + t, "S-7d1a0c2e4b9f3a10", "S-2c5eab0306555424")
                    .label(CLIQUE, "5c9b7f3e-1d2a-4e8b-9a6c-0f3e2d1c4b5a.1")
                    .build());
        }
        // one partition: the name the tier had before partitions were known
        String folded = "nvlink-5c9b7f3e-1d2a-4e8b-9a6c-0f3e2d1c4b5a-e9ca5ea2";
        assertThat(names(new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null))
                        .build(rack, List.of())))
                .contains(folded);

        // split in two: the domain keeps the identity (and hash) and gets its tier's name; partitions are new
        List<NodeInfo> split = new ArrayList<>(rack);
        split.set(
                3,
                tray("r01-t04", "S-7d1a0c2e4b9f3a10", "S-2c5eab0306555424")
                        .label(CLIQUE, "5c9b7f3e-1d2a-4e8b-9a6c-0f3e2d1c4b5a.2")
                        .build());
        TopologyResult result =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(split, List.of());
        assertThat(names(result))
                .doesNotContain(folded)
                .contains("nvlink-domain-5c9b7f3e-1d2a-4e8b-9a6c-0f3e2d1c4b5a-e9ca5ea2")
                .anyMatch(n -> n.matches("nvlink-5c9b7f3e-1d2a-4e8b-9a6c-0f3e2d1c4b5a-1-[0-9a-f]{8}"))
                .anyMatch(n -> n.matches("nvlink-5c9b7f3e-1d2a-4e8b-9a6c-0f3e2d1c4b5a-2-[0-9a-f]{8}"));
    }

    @Test
    void combinedTreePutsTheNvlinkDomainUnderItsLeafUnderItsSpine() {
        TopologyResult result = build(
                TopologySettings.parse(TopologySettings.AUTO, null),
                tray("a", "leaf-1", "spine-1").label(CLIQUE, "u1.1").build(),
                tray("b", "leaf-1", "spine-1").label(CLIQUE, "u1.1").build(),
                tray("c", "leaf-2", "spine-1").label(CLIQUE, "u2.1").build());
        var tree = TreeAssertions.assertValidTree(result, "combined");
        DesiredHyperNode nvlink = tree.byName().get(tree.ancestor("a", 1));
        DesiredHyperNode leaf = tree.byName().get(tree.ancestor("a", 2));
        DesiredHyperNode spine = tree.byName().get(tree.ancestor("a", 3));
        assertThat(List.of(
                        nvlink.spec().getTierName(),
                        leaf.spec().getTierName(),
                        spine.spec().getTierName()))
                .containsExactly("nvlink", "leaf", "spine");
        assertThat(members(nvlink)).containsExactly("a", "b");
        assertThat(tree.ancestor("c", 3)).isEqualTo(spine.name());
        assertThat(result.trees())
                .containsExactly(new TreeSummary("topograph", List.of("nvlink", "leaf", "spine"), 3, 5));
    }

    @Test
    void autoPicksTheSchemeEachNodeCarriesAndReportsAmbiguousNames() {
        TopologyResult result = build(
                TopologySettings.parse(TopologySettings.AUTO, null),
                tray("gpu-a", "l1", "s1").label(CLIQUE, "u.1").build(),
                tray("gpu-b", "l1", "s1").label(CLIQUE, "u.1").build(),
                node("old-a")
                        .label("volcano.sh/hypercluster", "c")
                        .label("volcano.sh/hypernode", "h")
                        .build(),
                node("cpu").label("kubernetes.io/os", "linux").build());
        var tree = TreeAssertions.assertValidTree(result, "auto");
        assertThat(tree.nodeParent()).containsOnlyKeys("gpu-a", "gpu-b", "old-a");
        assertThat(result.tiers().numbers("leaf")).containsExactly(1, 2);
        assertThat(result.tiers().number("leaf")).isEmpty();
        assertThat(result.tiers().number("nvlink")).contains(1);
        assertThat(result.tiers().top()).isEqualTo(3);
        assertThat(result.trees()).extracting(TreeSummary::scheme).containsExactly("topograph", "volcano");
    }

    @Test
    void membersAndHyperNodesAreSortedAndLabelled() {
        TopologyResult result = build(
                tiers(RACK + "=rack", ZONE + "=zone"),
                racked("n3", "r2", "z"),
                racked("n2", "r1", "z"),
                racked("n1", "r1", "z"));
        assertThat(result.hyperNodes())
                .extracting(DesiredHyperNode::name)
                .containsExactly(
                        "zone-z",
                        result.hyperNodes().get(1).name(),
                        result.hyperNodes().get(2).name());
        assertThat(result.hyperNodes().get(0).spec().getTier()).isEqualTo(2);
        DesiredHyperNode zone = hyperNode(result, "zone-z");
        assertThat(members(zone)).isSorted();
        assertThat(zone.spec().getMembers()).allMatch(m -> m.getType() == MemberSpec.TypeEnum.HYPER_NODE);
        DesiredHyperNode r1 = hyperNode(result, tree(result).nodeParent().get("n1"));
        assertThat(members(r1)).containsExactly("n1", "n2");
        assertThat(r1.labels())
                .isEqualTo(Map.of(
                        "volcano.sh/network-topology-source",
                        "topobridge",
                        "app.kubernetes.io/managed-by",
                        "topobridge"));
    }

    private static TreeAssertions.Tree tree(TopologyResult result) {
        return TreeAssertions.assertValidTree(result, "tree");
    }

    @Test
    void duplicateNodesKeepTheLastAndNoNodeIsPlacedTwice() {
        TopologyResult result = new TopologyBuilder(tiers(RACK + "=rack"))
                .build(
                        List.of(
                                node("n1").label(RACK, "r1").build(),
                                node("n1").label(RACK, "r2").build()),
                        List.of());
        var tree = TreeAssertions.assertValidTree(result, "duplicates");
        assertThat(result.hyperNodes()).hasSize(1);
        assertThat(result.hyperNodes().get(0).name()).isEqualTo("rack-r2");
        assertThat(tree.nodeParent()).containsOnlyKeys("n1");
    }

    // ---- findings ---------------------------------------------------------------------------------------

    record FindingCase(
            String name,
            TopologySettings settings,
            List<NodeInfo> nodes,
            Map<Reason, Severity> want,
            Set<String> placed) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<FindingCase> findings() {
        return Stream.of(
                new FindingCase(
                        "node missing a required tier label is left out",
                        tiers(RACK + "=rack", ZONE + "=zone"),
                        List.of(
                                racked("ok", "r", "z"),
                                node("half").label(RACK, "r").build()),
                        Map.of(MISSING_TIER_LABELS, WARNING, SINGLE_DOMAIN_TIER, INFO),
                        Set.of("ok")),
                new FindingCase(
                        "empty label value counts as missing",
                        tiers(RACK + "=rack", ZONE + "=zone"),
                        List.of(racked("ok", "r", "z"), racked("empty", "", "z")),
                        Map.of(MISSING_TIER_LABELS, WARNING, SINGLE_DOMAIN_TIER, INFO),
                        Set.of("ok")),
                new FindingCase(
                        "layer-4 on fewer than half the nodes is left out for all",
                        TopologySettings.parse("aws", List.of()),
                        List.of(
                                aws("a", "1", "2a", "3a", "4").build(),
                                aws("b", "1", "2b", "3b").build(),
                                aws("c", "1", "2b", "3c").build()),
                        Map.of(TIER_LEFT_OUT, WARNING, SINGLE_DOMAIN_TIER, INFO),
                        Set.of("a", "b", "c")),
                new FindingCase(
                        "layer-4 on half the nodes is kept; the node lacking it is left out",
                        TopologySettings.parse("aws", List.of()),
                        List.of(
                                aws("a", "1", "2a", "3a", "4").build(),
                                aws("b", "1", "2b", "3b").build()),
                        Map.of(MISSING_TIER_LABELS, WARNING, SINGLE_DOMAIN_TIER, INFO),
                        Set.of("a")),
                new FindingCase(
                        "a higher fabric tier on fewer than half the nodes stops the tree below it",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s1").label(T2, "c").build(),
                                tray("b", "l2", "s2").build(),
                                tray("c", "l3", "s2").build()),
                        Map.of(TIER_LEFT_OUT, WARNING),
                        Set.of("a", "b", "c")),
                new FindingCase(
                        "a clique on fewer than half the topograph nodes is left out",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                node("a").label(T0, "l1").label(CLIQUE, "u.1").build(),
                                node("b").label(T0, "l2").build(),
                                node("c").label(T0, "l3").build()),
                        Map.of(TIER_LEFT_OUT, WARNING),
                        Set.of("a", "b", "c")),
                new FindingCase(
                        "a clique under two topograph domains",
                        TopologySettings.parse("nvidia-gfd", List.of()),
                        List.of(
                                nvl("a", "d1").label(CLIQUE, "u.1").build(),
                                nvl("b", "d2").label(CLIQUE, "u.1").build(),
                                nvl("c", "d2").label(CLIQUE, "u.2").build()),
                        Map.of(PARTITION_IN_TWO_DOMAINS, WARNING, CLIQUE_DOMAIN_MISMATCH, WARNING),
                        Set.of("a", "b", "c")),
                new FindingCase(
                        "one clique UUID under two topograph domains",
                        TopologySettings.parse("nvidia-gfd", List.of()),
                        List.of(
                                nvl("a", "d1").label(CLIQUE, "u.1").build(),
                                nvl("b", "d2").label(CLIQUE, "u.2").build()),
                        Map.of(CLIQUE_DOMAIN_MISMATCH, WARNING),
                        Set.of("a", "b")),
                new FindingCase(
                        "a topograph domain holding several clique UUIDs is fine",
                        TopologySettings.parse("nvidia-gfd", List.of()),
                        List.of(
                                nvl("a", "d1").label(CLIQUE, "u1.1").build(),
                                nvl("b", "d1").label(CLIQUE, "u2.1").build(),
                                nvl("c", "d2").label(CLIQUE, "u3.1").build()),
                        Map.of(),
                        Set.of("a", "b", "c")),
                new FindingCase(
                        "a clique under two leaves",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s1").label(CLIQUE, "u.1").build(),
                                tray("b", "l2", "s2").label(CLIQUE, "u.1").build(),
                                tray("c", "l2", "s2").label(CLIQUE, "v.1").build()),
                        Map.of(PARTITION_SPANS_LEAVES, WARNING),
                        Set.of("a", "b", "c")),
                new FindingCase(
                        "a domain's partitions under different spines: the domain whole at the top, nothing lost",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s1").label(CLIQUE, "u.1").build(),
                                tray("b", "l2", "s2").label(CLIQUE, "u.2").build()),
                        Map.of(PARTITION_SPANS_LEAVES, WARNING, SINGLE_DOMAIN_TIER, INFO),
                        Set.of("a", "b")),
                new FindingCase(
                        "the same with nvlink-domain as a tier: that domain is kept whole",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s1").label(CLIQUE, "u.1").build(),
                                        tray("b", "l2", "s2")
                                                .label(CLIQUE, "u.2")
                                                .build(),
                                tray("c", "l2", "s2").label(CLIQUE, "v.1").build(),
                                        tray("d", "l2", "s2")
                                                .label(CLIQUE, "v.2")
                                                .build()),
                        Map.of(PARTITION_SPANS_LEAVES, WARNING),
                        Set.of("a", "b", "c", "d")),
                new FindingCase(
                        "a topograph sub-domain under two leaves",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                tray("a", "l1", "s1")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "p1")
                                        .build(),
                                tray("b", "l2", "s2")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "p1")
                                        .build(),
                                tray("c", "l2", "s2")
                                        .label(DOMAIN, "nvl1")
                                        .label(SUB_DOMAIN, "p2")
                                        .build()),
                        Map.of(PARTITION_SPANS_LEAVES, WARNING, SINGLE_DOMAIN_TIER, INFO),
                        Set.of("a", "b", "c")),
                new FindingCase(
                        "a node naming no partition in a split domain is left out",
                        TopologySettings.parse("nvidia-gfd", List.of()),
                        List.of(
                                nvl("a", "d1").label(SUB_DOMAIN, "p1").build(),
                                nvl("b", "d1").label(SUB_DOMAIN, "p2").build(),
                                nvl("new", "d1").build(),
                                nvl("c", "d2").label(SUB_DOMAIN, "p1").build()),
                        Map.of(MISSING_TIER_LABELS, WARNING),
                        Set.of("a", "b", "c")),
                new FindingCase(
                        "a node naming no partition in a folded domain is left out too",
                        TopologySettings.parse("nvidia-gfd", List.of()),
                        List.of(
                                nvl("a", "d1").label(CLIQUE, "u1.1").build(),
                                nvl("new", "d1").build(),
                                nvl("c", "d2").build()),
                        Map.of(MISSING_TIER_LABELS, WARNING),
                        Set.of("a", "c")),
                new FindingCase(
                        "preset matching no node",
                        TopologySettings.parse("aws", List.of()),
                        List.of(node("a").label(T0, "l").build()),
                        Map.of(NO_MATCHING_NODES, WARNING),
                        Set.of()),
                new FindingCase(
                        "tiers matching no node",
                        tiers(RACK + "=rack"),
                        List.of(node("a").label(ZONE, "z").build()),
                        Map.of(NO_MATCHING_NODES, WARNING),
                        Set.of()),
                new FindingCase(
                        "auto on a cluster without topology labels",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(node("a").label(ZONE, "z").build()),
                        Map.of(NO_MATCHING_NODES, INFO),
                        Set.of()),
                new FindingCase(
                        "no nodes at all: nothing to say",
                        TopologySettings.parse("aws", List.of()),
                        List.of(),
                        Map.of(),
                        Set.of()),
                new FindingCase(
                        "node names exactMatch cannot hold",
                        tiers(RACK + "=rack"),
                        List.of(
                                node("Upper").label(RACK, "r").build(),
                                        node("n".repeat(64)).label(RACK, "r").build(),
                                node("ok").label(RACK, "r").build(),
                                        node("r2-node").label(RACK, "r2").build()),
                        Map.of(UNMATCHABLE_NODE_NAME, WARNING),
                        Set.of("ok", "r2-node")),
                new FindingCase(
                        "one domain in a tier",
                        tiers(RACK + "=rack", ZONE + "=zone"),
                        List.of(racked("a", "r1", "z"), racked("b", "r2", "z")),
                        Map.of(SINGLE_DOMAIN_TIER, INFO),
                        Set.of("a", "b")),
                new FindingCase(
                        "a clean two-rack, two-zone cluster says nothing",
                        tiers(RACK + "=rack", ZONE + "=zone"),
                        List.of(racked("a", "r1", "z1"), racked("b", "r2", "z2")),
                        Map.of(),
                        Set.of("a", "b")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("findings")
    void reportsFindings(FindingCase c) {
        TopologyResult result = new TopologyBuilder(c.settings()).build(c.nodes(), List.of());
        var tree = TreeAssertions.assertValidTree(result, c.name());
        assertThat(result.findings().stream()
                        .collect(Collectors.toMap(Finding::reason, Finding::severity, (a, b) -> a)))
                .as(c.name())
                .isEqualTo(c.want());
        assertThat(tree.nodeParent().keySet()).as(c.name()).isEqualTo(c.placed());
    }

    @Test
    void nvlinkFindingsNameTheObjectsTheKeysAndTheValues() {
        TopologyResult result = build(
                TopologySettings.parse(TopologySettings.AUTO, null),
                tray("a", "l1", "s1").label(DOMAIN, "d1").label(CLIQUE, "u.1").build(),
                tray("b", "l1", "s1").label(DOMAIN, "d2").label(CLIQUE, "u.1").build(),
                tray("c", "l1", "s1").label(DOMAIN, "d2").label(CLIQUE, "u.2").build(),
                tray("x", "l1", "s1").label(DOMAIN, "e").label(SUB_DOMAIN, "p").build(),
                tray("y", "l2", "s2").label(DOMAIN, "e").label(SUB_DOMAIN, "p").build());
        TreeAssertions.assertValidTree(result, "nvlink findings");
        Map<TopologyReason, List<Finding>> by =
                result.findings().stream().collect(Collectors.groupingBy(f -> (TopologyReason) f.reason()));

        assertThat(by.get(TopologyReason.PARTITION_IN_TWO_DOMAINS))
                .hasSize(2)
                .allSatisfy(f -> {
                    assertThat(f.object().kind()).isEqualTo("HyperNode");
                    assertThat(f.message())
                            .startsWith("NVLink partition \"u.1\" (label " + CLIQUE + ")")
                            .contains("kept as 2 separate HyperNodes");
                })
                .anySatisfy(f -> assertThat(f.message())
                        .contains("is in NVLink domain \"d1\" (label " + DOMAIN + ") here but in \"d2\""))
                .anySatisfy(f -> assertThat(f.message())
                        .contains("is in NVLink domain \"d2\" (label " + DOMAIN + ") here but in \"d1\""));
        assertThat(by.get(TopologyReason.CLIQUE_DOMAIN_MISMATCH))
                .extracting(f -> f.object().name())
                .containsExactlyInAnyOrder("a", "b", "c");
        assertThat(by.get(TopologyReason.CLIQUE_DOMAIN_MISMATCH)).allSatisfy(f -> {
            assertThat(f.object().kind()).isEqualTo("Node");
            assertThat(f.message())
                    .contains("NVLink domain \"u\"")
                    .contains("\"d1\" (1 node: a)")
                    .contains("\"d2\" (2 nodes: b, c)");
        });
        assertThat(by.get(TopologyReason.CLIQUE_DOMAIN_MISMATCH))
                .filteredOn(f -> f.object().name().equals("a"))
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .startsWith(CLIQUE + "=\"u.1\"")
                        .contains("its " + DOMAIN + " is \"d1\""));
        assertThat(by.get(TopologyReason.PARTITION_SPANS_LEAVES))
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .startsWith("NVLink domain \"e\" (label " + DOMAIN + ") has nodes under spine \"s1\" (1 node),"
                                + " spine \"s2\" (1 node): kept whole as one HyperNode and hung at the top")
                        .contains("it skips tiers leaf, spine"));
    }

    @Test
    void aLongLabelValueIsCutInFindings() {
        String longDomain = "d".repeat(300);
        TopologyResult result = build(
                TopologySettings.parse("nvidia-gfd", List.of()),
                node("a").label(DOMAIN, longDomain).label(CLIQUE, "u.1").build(),
                nvl("b", "d2").label(CLIQUE, "u.2").build());
        assertThat(result.findings())
                .filteredOn(f -> f.reason() == TopologyReason.CLIQUE_DOMAIN_MISMATCH)
                .hasSize(2)
                .allSatisfy(f -> assertThat(f.message())
                        .doesNotContain(longDomain)
                        .contains("d".repeat(100) + "…\" (300 chars)"));
    }

    @Test
    void missingLabelFindingIsOnTheNodeAndNamesTheKey() {
        TopologyResult result = build(
                tiers(RACK + "=rack", ZONE + "=zone"),
                racked("ok", "r", "z"),
                node("half").label(RACK, "r").build());
        Finding finding = result.findings().stream()
                .filter(f -> f.reason() == TopologyReason.MISSING_TIER_LABELS)
                .findFirst()
                .orElseThrow();
        assertThat(finding.object().kind()).isEqualTo("Node");
        assertThat(finding.object().name()).isEqualTo("half");
        assertThat(finding.message()).contains(ZONE).contains("tier zone").contains("left out");
    }

    @Test
    void oversizedDomainIsLeftOutWithItsParentsWhenNothingElseRemains() {
        List<NodeInfo> nodes = new ArrayList<>();
        IntStream.range(0, 16_000)
                .forEach(i -> nodes.add(node("node-with-a-fairly-long-name-" + i)
                        .label(RACK, "big")
                        .label(ZONE, "z")
                        .build()));
        nodes.add(racked("small-1", "small", "y"));
        TopologyResult result = new TopologyBuilder(tiers(RACK + "=rack", ZONE + "=zone")).build(nodes, List.of());
        var tree = TreeAssertions.assertValidTree(result, "oversized");
        assertThat(tree.nodeParent()).containsOnlyKeys("small-1");
        assertThat(names(result))
                .containsExactlyInAnyOrder("zone-y", tree.nodeParent().get("small-1"));
        assertThat(reasons(result)).contains("OversizedDomain");
    }

    // ---- other sources -------------------------------------------------------------------------------------

    static ForeignHyperNode foreign(String name, String source, MemberSpec... members) {
        return new ForeignHyperNode(
                name,
                source == null ? Map.of() : Map.of("volcano.sh/network-topology-source", source),
                new HyperNodeSpec().tier(1).members(List.of(members)));
    }

    static MemberSpec exact(MemberSpec.TypeEnum type, String name) {
        return new MemberSpec().type(type).selector(new MemberSelector().exactMatch(new ExactMatch().name(name)));
    }

    @Test
    void foreignHyperNodesCoveringOurNodesOrHyperNodesAreReported() {
        var settings = tiers(RACK + "=rack", ZONE + "=zone");
        List<NodeInfo> nodes = List.of(
                racked("n1", "r1", "z"),
                racked("n2", "r1", "z"),
                racked("n3", "r2", "z"),
                node("other").label("kind", "cpu").build());
        TopologyResult ours = new TopologyBuilder(settings).build(nodes, List.of());
        String rack1 = tree(ours).nodeParent().get("n1");
        List<ForeignHyperNode> foreign = List.of(
                foreign(
                        "label-discovery",
                        "label",
                        exact(MemberSpec.TypeEnum.NODE, "n1"),
                        exact(MemberSpec.TypeEnum.NODE, "other")),
                foreign(
                        "by-regex",
                        null,
                        new MemberSpec()
                                .type(MemberSpec.TypeEnum.NODE)
                                .selector(new MemberSelector().regexMatch(new RegexMatch().pattern("n[23]")))),
                foreign(
                        "by-label",
                        null,
                        new MemberSpec()
                                .type(MemberSpec.TypeEnum.NODE)
                                .selector(new MemberSelector()
                                        .labelMatch(new LabelSelectorBuilder()
                                                .addToMatchLabels(RACK, "r2")
                                                .build()))),
                foreign("above-ours", "manual", exact(MemberSpec.TypeEnum.HYPER_NODE, rack1)),
                foreign(
                        "bad-regex",
                        null,
                        new MemberSpec()
                                .type(MemberSpec.TypeEnum.NODE)
                                .selector(new MemberSelector().regexMatch(new RegexMatch().pattern("(")))),
                foreign("elsewhere", "label", exact(MemberSpec.TypeEnum.NODE, "other")),
                new ForeignHyperNode("no-spec", Map.of(), null));
        TopologyResult result = new TopologyBuilder(settings).build(nodes, foreign);
        Map<String, String> overlaps = result.findings().stream()
                .filter(f -> f.reason() == TopologyReason.FOREIGN_HYPER_NODE_OVERLAP)
                .collect(Collectors.toMap(f -> f.object().name(), Finding::message));
        assertThat(overlaps).containsOnlyKeys("label-discovery", "by-regex", "by-label", "above-ours");
        assertThat(overlaps.get("label-discovery"))
                .contains("volcano.sh/network-topology-source=\"label\"")
                .contains("1 node of")
                .contains("(n1)");
        assertThat(overlaps.get("by-regex")).contains("2 nodes").contains("n2, n3");
        assertThat(overlaps.get("by-label")).contains("(n3)");
        assertThat(overlaps.get("above-ours")).contains("1 HyperNode of topobridge's (" + rack1 + ")");
        assertThat(result.hyperNodes()).isEqualTo(ours.hyperNodes());
    }

    @Test
    void aNameHeldByAnotherSourceIsNeverReused() {
        var settings = tiers(RACK + "=rack", ZONE + "=zone");
        NodeInfo n1 = racked("n1", "r1", "z");
        assertThat(names(new TopologyBuilder(settings).build(List.of(n1), List.of())))
                .contains("zone-z");
        TopologyResult result = new TopologyBuilder(settings)
                .build(List.of(n1), List.of(new ForeignHyperNode("zone-z", Map.of(), null)));
        TreeAssertions.assertValidTree(result, "taken");
        assertThat(names(result))
                .doesNotContain("zone-z")
                .anyMatch(n -> n.startsWith("zone-z-") && n.length() == "zone-z-".length() + 16);
    }

    @Test
    void namesThatWouldClashGetTheLongHash() {
        // "rack-x" and "x" both read as "rack-x" and both are clean top-level values
        TopologyResult result = build(
                tiers(RACK + "=rack"),
                node("a").label(RACK, "rack-x").build(),
                node("b").label(RACK, "x").build());
        TreeAssertions.assertValidTree(result, "clash");
        assertThat(names(result)).hasSize(2).allMatch(n -> n.matches("rack-x-[0-9a-f]{16}"));
    }

    // ---- event filtering ------------------------------------------------------------------------------------

    static Stream<Arguments> readsLabel() {
        return Stream.of(
                Arguments.of(
                        "auto reads topograph tiers",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        "fabric.topograph.run/tier-7",
                        true),
                Arguments.of(
                        "auto ignores fabric tiers beyond the cap",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        "fabric.topograph.run/tier-99",
                        false),
                Arguments.of(
                        "auto reads the clique", TopologySettings.parse(TopologySettings.AUTO, null), CLIQUE, true),
                Arguments.of(
                        "auto reads AWS layers", TopologySettings.parse(TopologySettings.AUTO, null), AWS + "4", true),
                Arguments.of(
                        "auto ignores the hostname",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        "kubernetes.io/hostname",
                        false),
                Arguments.of(
                        "aws reads the clique (it may add an NVLink tier)",
                        TopologySettings.parse("aws", List.of()),
                        CLIQUE,
                        true),
                Arguments.of("gke ignores the clique", TopologySettings.parse("gke", List.of()), CLIQUE, false),
                Arguments.of(
                        "auto reads topograph's sub-domain",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        SUB_DOMAIN,
                        true),
                Arguments.of(
                        "aws ignores topograph's sub-domain (its domain is the clique's)",
                        TopologySettings.parse("aws", List.of()),
                        SUB_DOMAIN,
                        false),
                Arguments.of("tiers read their keys", tiers(RACK + "=rack"), RACK, true),
                Arguments.of("tiers read nothing else", tiers(RACK + "=rack"), T0, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readsLabel")
    void readsOnlyTopologyLabels(String name, TopologySettings settings, String key, boolean want) {
        assertThat(new TopologyBuilder(settings).readsLabel(key)).isEqualTo(want);
    }
}

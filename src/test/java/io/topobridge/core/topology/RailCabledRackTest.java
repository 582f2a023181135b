package io.topobridge.core.topology;

import static io.topobridge.core.topology.NodeLabels.CLIQUE;
import static io.topobridge.core.topology.NodeLabels.DOMAIN;
import static io.topobridge.core.topology.NodeLabels.T0;
import static io.topobridge.core.topology.NodeLabels.T1;
import static io.topobridge.core.topology.Nodes.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Severity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * A GB200-like cluster (NVL72 racks of 18 trays × 4 GPUs under topograph's leaf and spine labels) where one rack is
 * rail-cabled: its trays hang off two leaf switches, 9 and 9. The rack stays one NVLink HyperNode, hung from the
 * spine through a leaf HyperNode of its own, and the real leaves keep only their own racks.
 */
class RailCabledRackTest {

    static final int TRAYS = 18;

    /** 18 trays of rack {@code rack}; tray t (1-based) hangs off {@code leafOf(t)} under spine {@code spine}. */
    static List<NodeInfo> rack(String rack, IntFunction<String> leafOf, IntFunction<String> spineOf) {
        List<NodeInfo> out = new ArrayList<>();
        for (int t = 1; t <= TRAYS; t++) {
            out.add(node(rack + "-t" + (t < 10 ? "0" : "") + t)
                    .label(T0, leafOf.apply(t))
                    .label(T1, spineOf.apply(t))
                    .label(DOMAIN, "nvl72-" + rack)
                    .label(CLIQUE, "c1ique00-0000-4000-8000-00000000" + rack + ".1")
                    .build());
        }
        return out;
    }

    /** Racks r1 (leaf l1) and r2 (leaf l2), and r3 rail-cabled: trays 1-9 on l1, 10-18 on l2; one spine s1. */
    static List<NodeInfo> cluster() {
        List<NodeInfo> nodes = new ArrayList<>();
        nodes.addAll(rack("r1", t -> "l1", t -> "s1"));
        nodes.addAll(rack("r2", t -> "l2", t -> "s1"));
        nodes.addAll(rack("r3", t -> t <= 9 ? "l1" : "l2", t -> "s1"));
        return nodes;
    }

    static List<String> members(DesiredHyperNode hn) {
        return hn.spec().getMembers().stream()
                .map(m -> m.getSelector().getExactMatch().getName())
                .toList();
    }

    static List<String> trays(String rack) {
        List<String> out = new ArrayList<>();
        for (int t = 1; t <= TRAYS; t++) {
            out.add(rack + "-t" + (t < 10 ? "0" : "") + t);
        }
        return out;
    }

    static List<Finding> spans(TopologyResult result) {
        return result.findings().stream()
                .filter(f -> f.reason() == TopologyReason.PARTITION_SPANS_LEAVES)
                .toList();
    }

    @Test
    void theRailCabledRackIsOneNvlinkHyperNodeHungFromTheSpineThroughALeafOfItsOwn() {
        TopologyResult result =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(cluster(), List.of());
        var tree = TreeAssertions.assertValidTree(result, "gb200");
        assertThat(tree.tierNames()).containsExactly("1=nvlink", "2=leaf", "3=spine");

        DesiredHyperNode nvlink = tree.byName().get(tree.ancestor("r3-t01", 1));
        assertThat(nvlink.spec().getTier()).isEqualTo(1);
        assertThat(nvlink.spec().getTierName()).isEqualTo("nvlink");
        assertThat(members(nvlink)).containsExactlyElementsOf(trays("r3"));

        DesiredHyperNode passThrough = tree.byName().get(tree.ancestor("r3-t01", 2));
        assertThat(passThrough.spec().getTier()).isEqualTo(2);
        assertThat(passThrough.spec().getTierName()).isEqualTo("leaf");
        assertThat(passThrough.name()).matches("leaf-nvl72-r3-[0-9a-f]{8}");
        assertThat(members(passThrough)).containsExactly(nvlink.name());

        DesiredHyperNode spine = tree.byName().get(tree.ancestor("r3-t01", 3));
        assertThat(spine.name()).isEqualTo("spine-s1");
        assertThat(tree.ancestor("r1-t01", 3)).isEqualTo(spine.name());
        assertThat(members(spine))
                .containsExactlyInAnyOrder(passThrough.name(), tree.ancestor("r1-t01", 2), tree.ancestor("r2-t01", 2));

        // the real leaves hold their own racks only: a leaf gang never mixes r3's trays with another leaf's
        for (String rack : List.of("r1", "r2")) {
            DesiredHyperNode leaf = tree.byName().get(tree.ancestor(rack + "-t01", 2));
            assertThat(members(leaf)).containsExactly(tree.ancestor(rack + "-t01", 1));
            assertThat(members(tree.byName().get(tree.ancestor(rack + "-t01", 1))))
                    .containsExactlyElementsOf(trays(rack));
        }
        for (String tray : trays("r3")) {
            assertThat(tree.ancestor(tray, 1)).isEqualTo(nvlink.name());
        }

        assertThat(spans(result)).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.object().kind()).isEqualTo("HyperNode");
            assertThat(f.object().name()).isEqualTo(nvlink.name());
            assertThat(f.message())
                    .isEqualTo(
                            "NVLink domain \"nvl72-r3\" (label " + DOMAIN + ") has nodes under leaf \"l1\" (9 nodes),"
                                    + " leaf \"l2\" (9 nodes): kept whole as one HyperNode and hung under spine \"s1\"; it skips"
                                    + " tier leaf, where a HyperNode of its own holds it (" + passThrough.name()
                                    + "), so a gang"
                                    + " asking for nvlink gets the whole domain and a gang asking for leaf never mixes it with"
                                    + " another leaf's nodes");
        });
        assertThat(result.findings())
                .noneMatch(f -> f.reason() == TopologyReason.DOMAIN_PARENT_CONFLICT
                        || f.reason() == TopologyReason.PARTITION_IN_TWO_DOMAINS);
    }

    @Test
    void theSameHyperNodesAndFindingsWhateverTheOrderOfTheNodes() {
        List<NodeInfo> nodes = cluster();
        TopologyResult result =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(nodes, List.of());
        List<NodeInfo> shuffled = new ArrayList<>(nodes);
        Collections.shuffle(shuffled, new Random(7));
        TopologyResult again =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(shuffled, List.of());
        assertThat(again.hyperNodes()).isEqualTo(result.hyperNodes());
        assertThat(again.findings()).isEqualTo(result.findings());
    }

    @Test
    void aPartitionedRailCabledRackKeepsItsDomainWholeWithBothPartitionsInIt() {
        List<NodeInfo> nodes = new ArrayList<>();
        nodes.addAll(rack("r1", t -> "l1", t -> "s1"));
        for (NodeInfo tray : rack("r3", t -> t <= 9 ? "l1" : "l2", t -> "s1")) {
            var labels = new java.util.HashMap<>(tray.labels());
            // two NVLink partitions that do not follow the leaves: trays 1-12 and 13-18
            int t = Integer.parseInt(tray.name().substring(4));
            labels.put(CLIQUE, "c1ique00-0000-4000-8000-00000000r3." + (t <= 12 ? 1 : 2));
            nodes.add(Nodes.of(tray.name(), labels));
        }
        TopologyResult result =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(nodes, List.of());
        var tree = TreeAssertions.assertValidTree(result, "partitioned");
        assertThat(tree.tierNames()).containsExactly("1=nvlink", "2=nvlink-domain", "3=leaf", "4=spine");

        DesiredHyperNode domain = tree.byName().get(tree.ancestor("r3-t01", 2));
        assertThat(domain.spec().getTierName()).isEqualTo("nvlink-domain");
        assertThat(tree.ancestor("r3-t18", 2)).isEqualTo(domain.name());
        assertThat(members(domain)).containsExactlyInAnyOrder(tree.ancestor("r3-t01", 1), tree.ancestor("r3-t18", 1));
        assertThat(tree.ancestor("r3-t12", 1)).isEqualTo(tree.ancestor("r3-t01", 1));
        assertThat(tree.ancestor("r3-t13", 1)).isEqualTo(tree.ancestor("r3-t18", 1));

        DesiredHyperNode passThrough = tree.byName().get(tree.ancestor("r3-t01", 3));
        assertThat(passThrough.spec().getTierName()).isEqualTo("leaf");
        assertThat(members(passThrough)).containsExactly(domain.name());
        assertThat(tree.ancestor("r3-t01", 4)).isEqualTo(tree.ancestor("r1-t01", 4));

        assertThat(spans(result)).singleElement().satisfies(f -> {
            assertThat(f.object().name()).isEqualTo(domain.name());
            assertThat(f.message())
                    .contains("hung under spine \"s1\"; it skips tier leaf")
                    .contains("a gang asking for nvlink-domain gets the whole domain");
        });
        assertThat(result.findings()).noneMatch(f -> f.reason() == TopologyReason.DOMAIN_PARENT_CONFLICT);
    }

    @Test
    void aRackUnderTwoSpinesHangsAtTheTopSkippingLeafAndSpine() {
        List<NodeInfo> nodes = new ArrayList<>();
        nodes.addAll(rack("r1", t -> "l1", t -> "s1"));
        nodes.addAll(rack("r2", t -> "l2", t -> "s2"));
        nodes.addAll(rack("r3", t -> t <= 9 ? "l1" : "l2", t -> t <= 9 ? "s1" : "s2"));
        TopologyResult result =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(nodes, List.of());
        var tree = TreeAssertions.assertValidTree(result, "two spines");
        assertThat(tree.tierNames()).containsExactly("1=nvlink", "2=leaf", "3=spine");
        assertThat(members(tree.byName().get(tree.ancestor("r3-t01", 1)))).containsExactlyElementsOf(trays("r3"));
        String top = tree.ancestor("r3-t01", 3);
        assertThat(tree.parent()).doesNotContainKey(top);
        assertThat(top).isNotIn(tree.ancestor("r1-t01", 3), tree.ancestor("r2-t01", 3));
        assertThat(members(tree.byName().get(tree.ancestor("r1-t01", 3)))).containsExactly(tree.ancestor("r1-t01", 2));

        assertThat(spans(result))
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .contains("has nodes under spine \"s1\" (9 nodes), spine \"s2\" (9 nodes)")
                        .contains("hung at the top of the NVIDIA topograph (>= 1.0) tree; it skips tiers leaf, spine"));
    }

    @Test
    void recablingARackAndBackWritesInAnOrderThatNeverGivesAMemberTwoParents() {
        List<NodeInfo> plain = new ArrayList<>();
        plain.addAll(rack("r1", t -> "l1", t -> "s1"));
        plain.addAll(rack("r2", t -> "l2", t -> "s1"));
        plain.addAll(rack("r3", t -> "l1", t -> "s1"));
        TopologyResult before =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(plain, List.of());
        TopologyResult railed =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(cluster(), List.of());

        var there = HyperNodeChangesTest.run(
                HyperNodeChangesTest.state(before),
                HyperNodeChanges.plan(railed.hyperNodes(), HyperNodeChangesTest.state(before)),
                "rail-cabled");
        assertThat(there).isEqualTo(HyperNodeChangesTest.state(railed));
        var back = HyperNodeChangesTest.run(
                there, HyperNodeChanges.plan(before.hyperNodes(), there), "back under one leaf");
        assertThat(back).isEqualTo(HyperNodeChangesTest.state(before));
    }

    @Test
    void racksUnderOneLeafEachAreLeftAsTheyAre() {
        List<NodeInfo> nodes = new ArrayList<>();
        nodes.addAll(rack("r1", t -> "l1", t -> "s1"));
        nodes.addAll(rack("r2", t -> "l2", t -> "s1"));
        TopologyResult result =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(nodes, List.of());
        var tree = TreeAssertions.assertValidTree(result, "plain");
        assertThat(tree.byName().values())
                .filteredOn(h -> h.spec().getTier() == 2)
                .extracting(DesiredHyperNode::name)
                .allMatch(n -> n.matches("leaf-l[12]-[0-9a-f]{8}"));
        assertThat(spans(result)).isEmpty();
    }
}

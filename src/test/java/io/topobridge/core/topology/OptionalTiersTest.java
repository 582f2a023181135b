package io.topobridge.core.topology;

import static io.topobridge.core.topology.NodeLabels.AWS;
import static io.topobridge.core.topology.NodeLabels.CLIQUE;
import static io.topobridge.core.topology.NodeLabels.FABRIC_TIER;
import static io.topobridge.core.topology.NodeLabels.GKE;
import static io.topobridge.core.topology.NodeLabels.V0;
import static io.topobridge.core.topology.Nodes.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.finding.Finding;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Optional tiers (AWS layer-4, GKE host, topograph's higher fabric tiers, v0.3's spine and core, Volcano's
 * hypercluster, NVLink under a fabric scheme): a tier is kept while at least half the nodes of its tree carry it, and a
 * node lacking a kept tier is left out and named with the key it lacks. One node missing a label never takes the tier
 * away from the others, and one node's stray label never forces a tier on them.
 */
class OptionalTiersTest {

    /**
     * @param tiers the tree's tiers expected, {@code number=name}, finest first
     * @param leftOut the nodes expected out of the tree, each with the key its finding must name
     * @param tierLeftOut the tier names expected in a TierLeftOut finding
     */
    record Case(
            String name,
            TopologySettings settings,
            List<NodeInfo> nodes,
            List<String> tiers,
            Map<String, String> leftOut,
            Set<String> tierLeftOut) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** {@code n} AWS nodes under two layer-3 switches, each with its own layer-4; {@code without} lack layer-4. */
    static List<NodeInfo> aws(int n, String... without) {
        List<NodeInfo> out = new ArrayList<>();
        Set<String> lacking = Set.of(without);
        for (int i = 0; i < n; i++) {
            Nodes b = node("n" + i)
                    .label(AWS + "1", "nn-1")
                    .label(AWS + "2", "nn-2")
                    .label(AWS + "3", "nn-3" + (i % 2));
            if (!lacking.contains("n" + i)) {
                b.label(AWS + "4", "nn-4" + (i % 4));
            }
            out.add(b.build());
        }
        return out;
    }

    /** Topograph trays under leaves 0/1 and one spine; {@code core} of them also carry tier-2. */
    static List<NodeInfo> fabric(int n, int core) {
        List<NodeInfo> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Nodes b = node("n" + i).label(FABRIC_TIER + "0", "leaf-" + (i % 2)).label(FABRIC_TIER + "1", "spine-0");
            if (i < core) {
                b.label(FABRIC_TIER + "2", "core-0");
            }
            out.add(b.build());
        }
        return out;
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case(
                        "aws: one node without layer-4 keeps layer-4 for the others",
                        TopologySettings.parse("aws", List.of()),
                        aws(5, "n4"),
                        List.of("1=layer-4", "2=layer-3", "3=layer-2", "4=layer-1"),
                        Map.of("n4", AWS + "4"),
                        Set.of()),
                new Case(
                        "aws: half the nodes with layer-4 keep it",
                        TopologySettings.parse("aws", List.of()),
                        aws(4, "n2", "n3"),
                        List.of("1=layer-4", "2=layer-3", "3=layer-2", "4=layer-1"),
                        Map.of("n2", AWS + "4", "n3", AWS + "4"),
                        Set.of()),
                new Case(
                        "aws: layer-4 on fewer than half the nodes is left out for all",
                        TopologySettings.parse("aws", List.of()),
                        aws(5, "n1", "n2", "n3"),
                        List.of("1=layer-3", "2=layer-2", "3=layer-1"),
                        Map.of(),
                        Set.of("layer-4")),
                new Case(
                        "topograph: one node without tier-2 keeps core for the others",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        fabric(4, 3),
                        List.of("1=leaf", "2=spine", "3=core"),
                        Map.of("n3", FABRIC_TIER + "2"),
                        Set.of()),
                new Case(
                        "topograph: one node with a stray tier-2 does not force core on the others",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        fabric(4, 1),
                        List.of("1=leaf", "2=spine"),
                        Map.of(),
                        Set.of("core")),
                new Case(
                        "topograph v0.3: one node without spine or core keeps both for the others",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                v03("a", "l1", "s1", "c"),
                                v03("b", "l1", "s1", "c"),
                                v03("c", "l2", "s2", "c"),
                                v03("d", "l2", null, null)),
                        List.of("1=leaf", "2=spine", "3=core"),
                        Map.of("d", V0 + "spine"),
                        Set.of()),
                new Case(
                        "topograph v0.3: core without spine is left out (the tree has no gaps)",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(v03("a", "l1", "s1", "c"), v03("b", "l1", null, "c"), v03("c", "l2", null, "c")),
                        List.of("1=leaf"),
                        Map.of(),
                        Set.of("spine", "core")),
                new Case(
                        "volcano: one node without hypercluster keeps spine for the others",
                        TopologySettings.parse("volcano", List.of()),
                        List.of(
                                node("a")
                                        .label("volcano.sh/hypernode", "h1")
                                        .label("volcano.sh/hypercluster", "c1")
                                        .build(),
                                node("b")
                                        .label("volcano.sh/hypernode", "h2")
                                        .label("volcano.sh/hypercluster", "c2")
                                        .build(),
                                node("c").label("volcano.sh/hypernode", "h2").build()),
                        List.of("1=leaf", "2=spine"),
                        Map.of("c", "volcano.sh/hypercluster"),
                        Set.of()),
                new Case(
                        "gke: one node without host keeps host for the others",
                        TopologySettings.parse("gke", List.of()),
                        List.of(gke("a", "h1"), gke("b", "h2"), gke("c", null)),
                        List.of("1=host", "2=subblock", "3=block"),
                        Map.of("c", GKE + "host"),
                        Set.of()),
                new Case(
                        "topograph: one tray without a clique keeps nvlink for the others",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(tray("a", "u1.1"), tray("b", "u1.1"), tray("c", "u2.1"), tray("d", null)),
                        List.of("1=nvlink", "2=leaf", "3=spine"),
                        Map.of("d", CLIQUE),
                        Set.of()));
    }

    static NodeInfo v03(String name, String leaf, String spine, String core) {
        Nodes b = node(name).label(V0 + "leaf", leaf);
        if (spine != null) {
            b.label(V0 + "spine", spine);
        }
        if (core != null) {
            b.label(V0 + "core", core);
        }
        return b.build();
    }

    static NodeInfo gke(String name, String host) {
        Nodes b = node(name).label(GKE + "block", "b").label(GKE + "subblock", "sb-" + name.hashCode() % 2);
        if (host != null) {
            b.label(GKE + "host", host);
        }
        return b.build();
    }

    static NodeInfo tray(String name, String clique) {
        Nodes b = node(name)
                .label(FABRIC_TIER + "0", "leaf-" + (name.charAt(0) % 2))
                .label(FABRIC_TIER + "1", "spine");
        if (clique != null) {
            b.label(CLIQUE, clique);
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void keepsATierMostNodesCarryAndNamesTheNodesLackingIt(Case c) {
        TopologyResult result = new TopologyBuilder(c.settings()).build(c.nodes(), List.of());
        TreeAssertions.Tree tree = TreeAssertions.assertValidTree(result, c.name());
        assertThat(tree.tierNames()).as(c.name()).isEqualTo(c.tiers());

        Set<String> expectedPlaced = new TreeSet<>();
        c.nodes().forEach(n -> expectedPlaced.add(n.name()));
        expectedPlaced.removeAll(c.leftOut().keySet());
        assertThat(new TreeSet<>(tree.nodeParent().keySet())).as(c.name()).isEqualTo(expectedPlaced);

        Map<String, String> named = new LinkedHashMap<>();
        for (Finding f : result.findings()) {
            if (f.reason() == TopologyReason.MISSING_TIER_LABELS) {
                named.put(f.object().name(), f.message());
            }
        }
        assertThat(named.keySet()).as(c.name()).isEqualTo(c.leftOut().keySet());
        c.leftOut()
                .forEach((node, key) -> assertThat(named.get(node))
                        .as("%s: finding on %s", c.name(), node)
                        .contains(key)
                        .contains("left out"));

        Set<String> tiersLeftOut = new HashSet<>();
        result.findings().stream()
                .filter(f -> f.reason() == TopologyReason.TIER_LEFT_OUT)
                .forEach(f -> tiersLeftOut.add(f.key()));
        assertThat(tiersLeftOut).as(c.name()).isEqualTo(c.tierLeftOut());
    }

    @Test
    void theFindingNamesTheNodeAndTheKey() {
        TopologyResult result =
                new TopologyBuilder(TopologySettings.parse("aws", List.of())).build(aws(10, "n7"), List.of());
        assertThat(result.findings())
                .filteredOn(f -> f.reason() == TopologyReason.MISSING_TIER_LABELS)
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.object().kind()).isEqualTo("Node");
                    assertThat(f.object().name()).isEqualTo("n7");
                    assertThat(f.message())
                            .isEqualTo("node carries AWS EC2 instance topology labels but lacks"
                                    + " topology.k8s.aws/network-node-layer-4 (tier layer-4), which at least half the"
                                    + " nodes of its tree carry: the tree keeps that tier for them; left out of the"
                                    + " topology tree until it carries the label (Volcano needs every node of a tree"
                                    + " at the same depth)");
                });
        assertThat(result.findings()).noneMatch(f -> f.reason() == TopologyReason.TIER_LEFT_OUT);
    }

    /**
     * A node losing its layer-4 label and getting it back changes only the HyperNodes that list it: the tiers, the
     * names and the members of every other HyperNode stay as they were, and getting the label back restores the
     * first tree exactly.
     */
    @Test
    void oneNodeRelabelledChangesOnlyItsOwnHyperNodes() {
        TopologyBuilder builder = new TopologyBuilder(TopologySettings.parse("aws", List.of()));
        List<NodeInfo> all = aws(12);
        TopologyResult before = builder.build(all, List.of());

        List<NodeInfo> relabelled = new ArrayList<>(all);
        relabelled.set(5, aws(12, "n5").get(5));
        TopologyResult during = builder.build(relabelled, List.of());

        assertThat(during.tiers()).isEqualTo(before.tiers());
        assertThat(names(during)).as("no HyperNode comes or goes").isEqualTo(names(before));
        Set<String> changed = new TreeSet<>();
        for (DesiredHyperNode h : during.hyperNodes()) {
            if (!before.hyperNodes().contains(h)) {
                changed.add(h.name());
            }
        }
        assertThat(changed)
                .as("only the layer-4 HyperNode that listed n5 changes")
                .hasSize(1)
                .allMatch(name -> listsOrListed(before, name, "n5") && !name.startsWith("layer-3"));

        assertThat(builder.build(all, List.of()).hyperNodes()).isEqualTo(before.hyperNodes());
    }

    private static List<String> names(TopologyResult result) {
        return result.hyperNodes().stream().map(DesiredHyperNode::name).sorted().toList();
    }

    /** Whether the HyperNode lists the node, directly or through the HyperNodes below it. */
    private static boolean listsOrListed(TopologyResult result, String hyperNode, String node) {
        Map<String, DesiredHyperNode> byName = new LinkedHashMap<>();
        result.hyperNodes().forEach(h -> byName.put(h.name(), h));
        List<String> stack = new ArrayList<>(List.of(hyperNode));
        while (!stack.isEmpty()) {
            DesiredHyperNode h = byName.get(stack.remove(stack.size() - 1));
            for (var m : h.spec().getMembers()) {
                String name = m.getSelector().getExactMatch().getName();
                if (name.equals(node)) {
                    return true;
                }
                if (byName.containsKey(name)) {
                    stack.add(name);
                }
            }
        }
        return false;
    }
}

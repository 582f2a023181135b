package io.topobridge.core.topology;

import static io.topobridge.core.topology.NodeLabels.AWS;
import static io.topobridge.core.topology.NodeLabels.CLIQUE;
import static io.topobridge.core.topology.NodeLabels.DOMAIN;
import static io.topobridge.core.topology.NodeLabels.SUB_DOMAIN;
import static io.topobridge.core.topology.NodeLabels.T0;
import static io.topobridge.core.topology.NodeLabels.T1;
import static io.topobridge.core.topology.NodeLabels.V0;
import static io.topobridge.core.topology.Nodes.node;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tier catalog the builder publishes: every tier answers to its names (a folded NVLink tier to {@code nvlink} and
 * {@code nvlink-domain}) and to the node label keys whose values group nodes as it does, on the cluster shapes the
 * presets meet.
 */
class TierCatalogTest {

    /** A cluster, and what its catalog answers: names and keys to numbers (empty: refused), tiers to keys. */
    record Case(
            String name,
            TopologySettings settings,
            List<NodeInfo> nodes,
            Map<String, Optional<Integer>> names,
            Map<String, Optional<Integer>> keys,
            Map<Integer, List<String>> keysOfTier) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(new Case(
                        "GPU feature discovery alone, one partition per rack: nvlink folded, nvlink-domain too",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                node("a").label(CLIQUE, "u1.1").build(),
                                node("b").label(CLIQUE, "u2.1").build()),
                        Map.of("nvlink", Optional.of(1), "nvlink-domain", Optional.of(1), "leaf", Optional.empty()),
                        Map.of(
                                CLIQUE,
                                Optional.of(1),
                                DOMAIN,
                                Optional.of(1),
                                V0 + "accelerator",
                                Optional.of(1),
                                SUB_DOMAIN,
                                Optional.empty(),
                                T0,
                                Optional.empty()),
                        Map.of(1, List.of(DOMAIN, V0 + "accelerator", CLIQUE), 2, List.of()))),
                Arguments.of(new Case(
                        "topograph with a split rack: partition, domain, leaf, spine",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                node("a")
                                        .label(T0, "l1")
                                        .label(T1, "s")
                                        .label(DOMAIN, "d1")
                                        .label(CLIQUE, "u1.1")
                                        .build(),
                                node("b")
                                        .label(T0, "l1")
                                        .label(T1, "s")
                                        .label(DOMAIN, "d1")
                                        .label(CLIQUE, "u1.2")
                                        .build(),
                                node("c")
                                        .label(T0, "l2")
                                        .label(T1, "s")
                                        .label(DOMAIN, "d2")
                                        .label(CLIQUE, "u2.1")
                                        .build()),
                        Map.of(
                                "nvlink", Optional.of(1),
                                "nvlink-domain", Optional.of(2),
                                "leaf", Optional.of(3),
                                "spine", Optional.of(4)),
                        Map.of(
                                CLIQUE,
                                Optional.of(1),
                                DOMAIN,
                                Optional.of(2),
                                T0,
                                Optional.of(3),
                                T1,
                                Optional.of(4),
                                V0 + "leaf",
                                Optional.of(3),
                                "volcano.sh/tor",
                                Optional.of(3),
                                SUB_DOMAIN,
                                Optional.empty()),
                        Map.of(1, List.of(CLIQUE), 4, List.of(T1, V0 + "spine", "volcano.sh/hypercluster")))),
                Arguments.of(new Case(
                        "topograph racks of one partition each: nvlink folded under leaf and spine",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                node("a")
                                        .label(T0, "l1")
                                        .label(T1, "s")
                                        .label(CLIQUE, "u1.1")
                                        .build(),
                                node("b")
                                        .label(T0, "l2")
                                        .label(T1, "s")
                                        .label(CLIQUE, "u2.1")
                                        .build()),
                        Map.of(
                                "nvlink", Optional.of(1),
                                "nvlink-domain", Optional.of(1),
                                "leaf", Optional.of(2),
                                "spine", Optional.of(3)),
                        Map.of(CLIQUE, Optional.of(1), DOMAIN, Optional.of(1), T0, Optional.of(2)),
                        Map.of(2, List.of(T0, V0 + "block", V0 + "leaf", "volcano.sh/hypernode", "volcano.sh/tor")))),
                Arguments.of(new Case(
                        "AWS layers with one clique per instance",
                        TopologySettings.parse("aws", List.of()),
                        List.of(
                                node("a")
                                        .label(AWS + "1", "n1")
                                        .label(AWS + "2", "n2")
                                        .label(AWS + "3", "n3a")
                                        .label(CLIQUE, "u1.1")
                                        .build(),
                                node("b")
                                        .label(AWS + "1", "n1")
                                        .label(AWS + "2", "n2")
                                        .label(AWS + "3", "n3b")
                                        .label(CLIQUE, "u2.1")
                                        .build()),
                        Map.of("nvlink-domain", Optional.of(1), "layer-3", Optional.of(2), "layer-1", Optional.of(4)),
                        Map.of(CLIQUE, Optional.of(1), AWS + "3", Optional.of(2), AWS + "1", Optional.of(4)),
                        Map.of(1, List.of(CLIQUE), 3, List.of(AWS + "2")))),
                Arguments.of(new Case(
                        "explicit tiers: a tier the user named nvlink is no NVLink tier, so no alias",
                        TopologySettings.parse("auto", List.of(CLIQUE + "=nvlink", "example.com/rack=rack")),
                        List.of(
                                node("a")
                                        .label(CLIQUE, "u.1")
                                        .label("example.com/rack", "r1")
                                        .build(),
                                node("b")
                                        .label(CLIQUE, "u.2")
                                        .label("example.com/rack", "r1")
                                        .build()),
                        Map.of("nvlink", Optional.of(1), "nvlink-domain", Optional.empty(), "rack", Optional.of(2)),
                        Map.of(CLIQUE, Optional.of(1), "example.com/rack", Optional.of(2), DOMAIN, Optional.empty()),
                        Map.of(1, List.of(CLIQUE), 2, List.of("example.com/rack")))),
                Arguments.of(new Case(
                        "a Volcano-labelled pool next to a topograph one: leaf and its keys are ambiguous",
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        List.of(
                                node("v1").label("volcano.sh/tor", "t1").build(),
                                node("v2").label("volcano.sh/tor", "t2").build(),
                                node("g1").label(T0, "l1").label(CLIQUE, "u1.1").build(),
                                node("g2").label(T0, "l2").label(CLIQUE, "u2.1").build()),
                        Map.of("leaf", Optional.empty(), "nvlink", Optional.of(1)),
                        Map.of("volcano.sh/tor", Optional.empty(), T0, Optional.empty(), CLIQUE, Optional.of(1)),
                        Map.of())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void namesAndLabelKeysResolveWhereTheirTierExists(Case c) {
        TierCatalog catalog =
                new TopologyBuilder(c.settings()).build(c.nodes(), List.of()).tiers();
        c.names()
                .forEach((name, number) ->
                        assertThat(catalog.number(name)).as("name " + name).isEqualTo(number));
        c.keys()
                .forEach((key, number) -> assertThat(catalog.numberOfLabelKey(key))
                        .as("key " + key)
                        .isEqualTo(number));
        c.keysOfTier()
                .forEach((tier, keys) -> assertThat(catalog.labelKeys(tier))
                        .as("keys of tier " + tier)
                        .containsExactlyInAnyOrderElementsOf(keys));
        for (int tier = 1; tier <= catalog.top(); tier++) {
            for (String key : catalog.labelKeys(tier)) {
                assertThat(catalog.numbersOfLabelKey(key))
                        .as("key " + key + " of tier " + tier)
                        .contains(tier);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theSameCatalogFromTheTiersAloneAsAFollowerRebuildsIt(Case c) {
        TopologyResult result = new TopologyBuilder(c.settings()).build(c.nodes(), List.of());
        List<TierCatalog.Tier> tiers = result.hyperNodes().stream()
                .map(h -> new TierCatalog.Tier(h.spec().getTier(), h.spec().getTierName()))
                .distinct()
                .toList();
        assertThat(TierCatalog.of(tiers, c.settings().schemes())).isEqualTo(result.tiers());
    }
}

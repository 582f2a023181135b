package io.topobridge.core.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ForestTest {

    static HyperNodeView hn(String name, int tier, List<String> nodes, List<String> children) {
        return new HyperNodeView(name, tier, "", "", nodes, children);
    }

    static Stream<Arguments> forests() {
        return Stream.of(
                Arguments.of(
                        "a clean two-tier tree",
                        List.of(
                                hn("a", 1, List.of("n1", "n2"), List.of()),
                                hn("b", 1, List.of("n3"), List.of()),
                                hn("top", 2, List.of(), List.of("a", "b"))),
                        List.of()),
                Arguments.of(
                        "a node in two HyperNodes (another source)",
                        List.of(hn("a", 1, List.of("n1"), List.of()), hn("label-x", 1, List.of("n1"), List.of())),
                        List.of("two-parents Node/n1")),
                Arguments.of(
                        "a HyperNode under two parents",
                        List.of(
                                hn("a", 1, List.of("n1"), List.of()),
                                hn("s1", 2, List.of(), List.of("a")),
                                hn("s2", 2, List.of(), List.of("a"))),
                        List.of("two-parents HyperNode/a")),
                Arguments.of(
                        "a cycle",
                        List.of(hn("x", 2, List.of(), List.of("y")), hn("y", 1, List.of(), List.of("x"))),
                        List.of("cycle HyperNode/x", "mixed-depth HyperNode/x")),
                Arguments.of(
                        "nodes above tier 1 (mixed depth)",
                        List.of(hn("a", 1, List.of("n1"), List.of()), hn("top", 2, List.of("n2"), List.of("a"))),
                        List.of("mixed-depth HyperNode/top")),
                Arguments.of(
                        "a child two tiers down",
                        List.of(hn("a", 1, List.of("n1"), List.of()), hn("top", 3, List.of(), List.of("a"))),
                        List.of("mixed-depth HyperNode/a")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forests")
    void problems(String name, List<HyperNodeView> hyperNodes, List<String> expected) {
        assertThat(Forest.of(hyperNodes).problems())
                .extracting(p -> p.kind() + " " + p.subject())
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lowest")
    void lowestCommonHyperNode(String name, List<String> nodes, String expected) {
        Forest forest = Forest.of(List.of(
                hn("p1", 1, List.of("n1", "n2"), List.of()),
                hn("p2", 1, List.of("n3"), List.of()),
                hn("leaf", 2, List.of(), List.of("p1", "p2")),
                hn("p3", 1, List.of("n4"), List.of()),
                hn("leaf2", 2, List.of(), List.of("p3")),
                hn("spine", 3, List.of(), List.of("leaf", "leaf2"))));
        assertThat(forest.lowestCommon(nodes).map(HyperNodeView::name).orElse("none"))
                .isEqualTo(expected);
    }

    static Stream<Arguments> lowest() {
        return Stream.of(
                Arguments.of("one node", List.of("n1"), "p1"),
                Arguments.of("one partition", List.of("n1", "n2"), "p1"),
                Arguments.of("two partitions of a leaf", List.of("n1", "n3"), "leaf"),
                Arguments.of("two leaves", List.of("n2", "n4"), "spine"),
                Arguments.of("a node in no tree", List.of("n1", "cpu-1"), "none"));
    }
}

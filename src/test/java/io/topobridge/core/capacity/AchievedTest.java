package io.topobridge.core.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AchievedTest {

    private static Cluster tree() {
        return new Cluster()
                .nodes(4, "a1", "a2", "b1", "b2", "c1", "x1")
                .leaf("pa", "nvlink", "a1", "a2")
                .leaf("pb", "nvlink", "b1", "b2")
                .leaf("pc", "nvlink", "c1")
                .above("leaf-1", 2, "leaf", "pa", "pb")
                .above("leaf-2", 2, "leaf", "pc")
                .above("spine", 3, "spine", "leaf-1", "leaf-2");
    }

    private static final Map<String, String> PREFILL = Map.of("role", "prefill", "group", "0");
    private static final Map<String, String> DECODE = Map.of("role", "decode", "group", "0");

    static Stream<Arguments> placements() {
        return Stream.of(
                Arguments.of("one partition", Map.of("p0", "a1", "p1", "a2"), "1", "", ""),
                Arguments.of("two partitions of a leaf", Map.of("p0", "a1", "p1", "b1"), "2", "", ""),
                Arguments.of("two leaves", Map.of("p0", "a1", "p1", "c1"), "3", "", ""),
                Arguments.of("a node in no tree", Map.of("p0", "a1", "p1", "x1"), "none", "", ""),
                Arguments.of(
                        "prefill and decode each in a partition, meeting at the leaf",
                        Map.of("prefill-0", "a1", "prefill-1", "a2", "decode-0", "b1", "decode-1", "b2"),
                        "2",
                        "roles/decode/0=1,roles/prefill/0=1",
                        "decode+prefill=2"),
                Arguments.of(
                        "prefill and decode split across leaves",
                        Map.of("prefill-0", "a1", "prefill-1", "b1", "decode-0", "c1"),
                        "3",
                        "roles/decode/0=1,roles/prefill/0=2",
                        "decode+prefill=3"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("placements")
    void achievedTiers(String name, Map<String, String> podNodes, String tier, String subGroups, String roles) {
        Cluster c = tree();
        podNodes.forEach((pod, node) -> {
            boolean prefill = pod.startsWith("prefill");
            boolean decode = pod.startsWith("decode");
            c.pod(
                    pod,
                    node,
                    4,
                    "g",
                    prefill ? "prefill" : decode ? "decode" : null,
                    prefill ? PREFILL : decode ? DECODE : Map.of());
        });
        var policy = new GangView.SubGroup(
                "roles",
                Map.of(),
                List.of(new GangView.Requirement("role", "Exists", null)),
                List.of("role", "group"),
                1);
        Achieved a =
                Achieved.of(c.gang("g", "hard", 3, List.of(policy)), c.forest()).orElseThrow();
        assertThat(a.gang().value()).isEqualTo(tier);
        assertThat(a.subGroupSummary()).isEqualTo(subGroups);
        assertThat(String.join(
                        ",",
                        a.roles().stream()
                                .map(r -> r.a() + "+" + r.b() + "=" + r.meet().value())
                                .toList()))
                .isEqualTo(roles);
    }

    @org.junit.jupiter.api.Test
    void nothingWhileAPodIsPending() {
        Cluster c = tree().pod("p0", "a1", 4, "g", null, Map.of()).pod("p1", null, 4, "g", null, Map.of());
        assertThat(Achieved.of(c.gang("g", "hard", 1, List.of()), c.forest())).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void aPolicyWithoutKeysCapturesNoPod() {
        Cluster c = tree().pod("p0", "a1", 4, "g", null, Map.of("role", "x"))
                .pod("p1", "a2", 4, "g", null, Map.of("role", "x"));
        var keyless = new GangView.SubGroup("all", Map.of("role", "x"), List.of(), List.of(), 1);
        assertThat(Achieved.of(c.gang("g", "hard", 1, List.of(keyless)), c.forest())
                        .orElseThrow()
                        .subGroups())
                .isEmpty();
    }
}

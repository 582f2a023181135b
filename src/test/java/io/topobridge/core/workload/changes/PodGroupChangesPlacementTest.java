package io.topobridge.core.workload.changes;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.Topobridge;
import io.topobridge.core.capacity.Achieved;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.translate.ScopeResult;
import io.topobridge.volcano.model.NetworkTopologySpec;
import io.topobridge.volcano.model.PodGroupSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The achieved tier rides on the PodGroup the planner applies, so it is one owned field like the others. */
class PodGroupChangesPlacementTest {

    private static final GangScope SCOPE = new GangScope.Single(WorkloadKind.LEADER_WORKER_SET, "ns", "tp");
    private static final ObjectRef WORKLOAD =
            new ObjectRef("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "ns", "tp", null);

    private static ScopeResult result(String mode, int tier) {
        var spec = new PodGroupSpec();
        spec.setMinMember(2);
        var topology = new NetworkTopologySpec();
        topology.setMode(NetworkTopologySpec.ModeEnum.fromValue(mode));
        topology.setHighestTierAllowed(tier);
        spec.setNetworkTopology(topology);
        var pg = new DesiredPodGroup(
                "ns",
                "tb-lws-tp-0",
                Map.of(),
                Map.of("topobridge.io/gang", "LeaderWorkerSet/tp"),
                List.of(),
                spec,
                DesiredPodGroup.Ownership.OWNED,
                null);
        return new ScopeResult(SCOPE, List.of(WORKLOAD), List.of(pg), List.of());
    }

    private static Achieved at(Integer tier, String name, Map<String, Achieved.Level> subGroups) {
        return new Achieved(new Achieved.Level(tier, name, tier == null ? null : name + "-x"), subGroups, List.of());
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "placed within its tier",
                        "hard",
                        1,
                        at(1, "nvlink", Map.of()),
                        Map.of(),
                        Map.of(Topobridge.ACHIEVED_TIER, "1"),
                        0),
                Arguments.of(
                        "with subgroups",
                        "hard",
                        2,
                        at(2, "leaf", Map.of("workers/0", new Achieved.Level(1, "nvlink", "p"))),
                        Map.of(),
                        Map.of(Topobridge.ACHIEVED_TIER, "2", Topobridge.ACHIEVED_SUBGROUP_TIERS, "workers/0=1"),
                        0),
                Arguments.of(
                        "soft, placed above its tier",
                        "soft",
                        1,
                        at(3, "leaf", Map.of()),
                        Map.of(),
                        Map.of(Topobridge.ACHIEVED_TIER, "3"),
                        1),
                Arguments.of(
                        "soft, in no single HyperNode",
                        "soft",
                        1,
                        at(null, null, Map.of()),
                        Map.of(),
                        Map.of(Topobridge.ACHIEVED_TIER, "none"),
                        1),
                Arguments.of(
                        "soft, placed within its tier",
                        "soft",
                        2,
                        at(2, "leaf", Map.of()),
                        Map.of(),
                        Map.of(Topobridge.ACHIEVED_TIER, "2"),
                        0),
                Arguments.of(
                        "not all bound now: the PodGroup keeps what it carries",
                        "hard",
                        1,
                        null,
                        Map.of(Topobridge.ACHIEVED_TIER, "1"),
                        Map.of(Topobridge.ACHIEVED_TIER, "1"),
                        0),
                Arguments.of("never placed: no annotation", "hard", 1, null, Map.of(), Map.of(), 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void achievedTierAnnotation(
            String name,
            String mode,
            int tier,
            Achieved achieved,
            Map<String, String> carried,
            Map<String, String> expected,
            int placedAbove) {
        var observed = List.of(new ObservedPodGroup("ns", "tb-lws-tp-0", true, SCOPE, false, null, carried, null));
        var placed = achieved == null ? Map.<String, Achieved>of() : Map.of("tb-lws-tp-0", achieved);
        PodGroupChanges.Plan plan = TestPlans.plan(result(mode, tier), observed, QueueStates.UNKNOWN, placed, null);
        DesiredPodGroup applied = ((PodGroupChanges.Apply) plan.steps().get(0)).podGroup();
        Map<String, String> placement = new java.util.TreeMap<>(applied.annotations());
        placement.remove("topobridge.io/gang");
        assertThat(placement).isEqualTo(expected);
        List<Finding> above = plan.findings().stream()
                .filter(f -> f.reason().reason().equals("PlacedAboveTier"))
                .toList();
        assertThat(above).hasSize(placedAbove).allSatisfy(f -> {
            assertThat(f.object()).isEqualTo(WORKLOAD);
            assertThat(f.message()).contains("soft gang tb-lws-tp-0 prefers tier " + tier + " or below");
        });
    }
}

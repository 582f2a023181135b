package io.topobridge.core.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.Cluster;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.NodeState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The topology page names, per domain, the nodes that take no new pods (what a gang's domain has lost). */
class TopologyPictureTest {

    static final NodeState CORDONED = new NodeState(true, "True", List.of());
    static final NodeState NOT_READY = new NodeState(false, "Unknown", List.of());
    static final NodeState BOTH = new NodeState(true, "False", List.of());

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("all ready", Map.of(), List.of(), List.of()),
                Arguments.of("one cordoned", Map.of("n4", CORDONED), List.of("n4 (cordoned)"), List.of()),
                Arguments.of(
                        "not ready and cordoned + not ready, in both partitions",
                        Map.of("n2", NOT_READY, "m1", BOTH),
                        List.of("n2 (Ready=Unknown)"),
                        List.of("m1 (cordoned, Ready=False)")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachDomainNamesItsNodesThatTakeNoPods(
            String name, Map<String, NodeState> states, List<String> p1, List<String> p2) {
        List<NodeView> nodes = new ArrayList<>();
        for (String n : List.of("n1", "n2", "n3", "n4", "m1", "m2", "m3", "m4")) {
            NodeState state = states.getOrDefault(n, NodeState.SCHEDULABLE);
            nodes.add(new NodeView(n, Map.of(), Cluster.amounts(4, 64, 512), state));
        }
        Forest forest = Forest.of(List.of(
                new HyperNodeView("p1", 1, "nvlink", "t", List.of("n1", "n2", "n3", "n4"), List.of()),
                new HyperNodeView("p2", 1, "nvlink", "t", List.of("m1", "m2", "m3", "m4"), List.of()),
                new HyperNodeView("spine", 2, "spine", "t", List.of(), List.of("p1", "p2"))));
        TopologyPicture picture =
                TopologyPicture.of(Capacity.of(nodes, List.of(), forest, Accelerators.DEFAULT), List.of());
        TopologyPicture.Domain spine = picture.roots().get(0);
        assertThat(spine.children()).extracting(TopologyPicture.Domain::name).containsExactly("p1", "p2");
        assertThat(spine.children().get(0).unusable()).as(name).isEqualTo(p1);
        assertThat(spine.children().get(1).unusable()).as(name).isEqualTo(p2);
        List<String> all = new ArrayList<>(p1);
        all.addAll(p2);
        assertThat(spine.unusable()).containsExactlyInAnyOrderElementsOf(all);
        if (!all.isEmpty()) {
            // a node that takes no pods has nothing free for new ones
            assertThat(spine.children().get(all.equals(p2) ? 1 : 0).freeGpus()).isLessThan(16);
        }
    }
}

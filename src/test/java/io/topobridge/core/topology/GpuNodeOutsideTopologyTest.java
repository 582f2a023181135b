package io.topobridge.core.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.finding.Finding;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A GPU node in no tree is named: a gang with a hard highest tier can never use it. */
class GpuNodeOutsideTopologyTest {

    private static final Map<String, String> LEAF = Map.of("volcano.sh/hypernode", "tor-1");

    static Stream<Arguments> nodes() {
        return Stream.of(
                Arguments.of("GPUs by allocatable, no topology labels", new NodeInfo("g1", Map.of(), true), true),
                Arguments.of(
                        "GPUs by feature discovery's labels",
                        new NodeInfo("g2", Map.of("nvidia.com/gpu.present", "true")),
                        true),
                Arguments.of("GPUs, in a tree", new NodeInfo("g3", LEAF, true), false),
                Arguments.of("a CPU node outside every tree", new NodeInfo("c1", Map.of()), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodes")
    void reported(String name, NodeInfo node, boolean reported) {
        var others =
                List.of(new NodeInfo("n1", LEAF, true), new NodeInfo("n2", Map.of("volcano.sh/hypernode", "tor-2")));
        var all = new java.util.ArrayList<>(others);
        all.add(node);
        TopologyResult result = new TopologyBuilder(TopologySettings.auto()).build(all);
        List<Finding> gpu = result.findings().stream()
                .filter(f -> f.reason() == TopologyReason.GPU_NODE_OUTSIDE_TOPOLOGY)
                .toList();
        if (reported) {
            assertThat(gpu).singleElement().satisfies(f -> {
                assertThat(f.object().name()).isEqualTo(node.name());
                assertThat(f.message()).contains("a gang with a hard highest tier can never use it");
            });
        } else {
            assertThat(gpu).isEmpty();
        }
    }
}

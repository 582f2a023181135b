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
                        Nodes.of("g2", Map.of("nvidia.com/gpu.present", "true")),
                        true),
                Arguments.of("GPUs, in a tree", new NodeInfo("g3", LEAF, true), false),
                Arguments.of("a CPU node outside every tree", Nodes.of("c1", Map.of()), false),
                Arguments.of("a Gaudi node as render reads it", new NodeInfo("gaudi-1", Map.of(), gaudi()), true),
                Arguments.of(
                        "a Gaudi node when the configured list leaves Gaudi out",
                        new NodeInfo(
                                "gaudi-2",
                                Map.of(),
                                io.topobridge.core.capacity.NodeView.of(gaudiNode())
                                        .accelerator(
                                                io.topobridge.core.node.Accelerators.parse(List.of("amd.com/gpu")))),
                        false));
    }

    private static io.fabric8.kubernetes.api.model.Node gaudiNode() {
        return new io.fabric8.kubernetes.api.model.NodeBuilder()
                .withNewMetadata()
                .withName("gaudi")
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("habana.ai/gaudi", new io.fabric8.kubernetes.api.model.Quantity("8"))
                .addToAllocatable("cpu", new io.fabric8.kubernetes.api.model.Quantity("96"))
                .endStatus()
                .build();
    }

    /** Whether render (and the controller, through the same view) takes a Gaudi node for an accelerator node. */
    private static boolean gaudi() {
        return io.topobridge.core.capacity.NodeView.of(gaudiNode())
                .accelerator(io.topobridge.core.node.Accelerators.DEFAULT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodes")
    void reported(String name, NodeInfo node, boolean reported) {
        var others = List.of(new NodeInfo("n1", LEAF, true), Nodes.of("n2", Map.of("volcano.sh/hypernode", "tor-2")));
        var all = new java.util.ArrayList<>(others);
        all.add(node);
        TopologyResult result =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(all, List.of());
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

package io.topobridge.core.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.topology.SchedulerConfig.HardTopology;
import io.topobridge.testing.VolcanoConfigs;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading the Volcano scheduler's configuration for the network-topology-aware plugin. */
class SchedulerConfigTest {

    static final ObjectRef CM = SchedulerConfig.configMapRef("volcano-system", "volcano-scheduler-configmap");
    static final String KEY = "volcano-scheduler.conf";

    static final String DEFAULT_CONF = "actions: \"enqueue, allocate, backfill\"\n" + VolcanoConfigs.CHART_TIERS;

    static final String WITH_PLUGIN = DEFAULT_CONF + """
            - plugins:
              - name: network-topology-aware
                arguments:
                  weight: 10
            """;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("plugin listed", Map.of(KEY, WITH_PLUGIN), HardTopology.ENFORCED, null),
                Arguments.of(
                        "Volcano's default configuration",
                        Map.of(KEY, DEFAULT_CONF),
                        HardTopology.PLUGIN_MISSING,
                        "does not list the network-topology-aware plugin (it lists priority, gang, conformance, overcommit"),
                Arguments.of("ConfigMap absent", null, HardTopology.CONFIG_MISSING, "was not found"),
                Arguments.of(
                        "key absent",
                        Map.of("other.conf", WITH_PLUGIN),
                        HardTopology.CONFIG_UNREADABLE,
                        "it has no 'volcano-scheduler.conf' key"),
                Arguments.of("not YAML", Map.of(KEY, "tiers: [\n- {"), HardTopology.CONFIG_UNREADABLE, "is not YAML"),
                Arguments.of(
                        "a scalar", Map.of(KEY, "just text"), HardTopology.CONFIG_UNREADABLE, "is not a YAML mapping"),
                Arguments.of(
                        "no tiers",
                        Map.of(KEY, "actions: allocate"),
                        HardTopology.CONFIG_UNREADABLE,
                        "has no tiers list"),
                Arguments.of(
                        "plugin name only as an argument value",
                        Map.of(
                                KEY,
                                "tiers:\n- plugins:\n  - name: gang\n    arguments:\n      x: network-topology-aware\n"),
                        HardTopology.PLUGIN_MISSING,
                        "it lists gang"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void checks(String name, Map<String, String> data, HardTopology want, String message) {
        SchedulerConfig.Check check =
                SchedulerConfig.check(CM, KEY, data == null ? null : new HashMap<>(data), List.of());
        assertThat(check.state()).isEqualTo(want);
        if (message == null) {
            assertThat(check.findings()).isEmpty();
        } else {
            assertThat(check.findings()).singleElement().satisfies(f -> {
                assertThat(f.object()).isEqualTo(CM);
                assertThat(f.message()).contains(message);
            });
        }
    }

    static String withArguments(String arguments) {
        return DEFAULT_CONF + "- plugins:\n  - name: network-topology-aware\n    arguments:\n" + arguments.indent(6);
    }

    static Stream<Arguments> gpuCases() {
        return Stream.of(
                Arguments.of("no arguments", DEFAULT_CONF + "- plugins:\n  - name: network-topology-aware\n", false),
                Arguments.of("weight only", withArguments("weight: 10"), false),
                Arguments.of("GPUs named", withArguments("hypernode.binpack.resources: nvidia.com/gpu"), true),
                Arguments.of(
                        "GPUs named among others, with spaces",
                        withArguments("hypernode.binpack.resources: example.com/foo ,  nvidia.com/gpu"),
                        true),
                Arguments.of(
                        "GPUs named with a weight",
                        withArguments("hypernode.binpack.resources: nvidia.com/gpu\n"
                                + "hypernode.binpack.resources.nvidia.com/gpu: 10"),
                        true),
                Arguments.of(
                        "GPU weight 0",
                        withArguments("hypernode.binpack.resources: nvidia.com/gpu\n"
                                + "hypernode.binpack.resources.nvidia.com/gpu: 0"),
                        false),
                Arguments.of(
                        "a negative weight (Volcano reads 1)",
                        withArguments("hypernode.binpack.resources: nvidia.com/gpu\n"
                                + "hypernode.binpack.resources.nvidia.com/gpu: -3"),
                        true),
                Arguments.of(
                        "a weight that is no integer (Volcano keeps 1)",
                        withArguments("hypernode.binpack.resources: nvidia.com/gpu\n"
                                + "hypernode.binpack.resources.nvidia.com/gpu: \"0\""),
                        true),
                Arguments.of(
                        "only another resource", withArguments("hypernode.binpack.resources: example.com/foo"), false),
                Arguments.of(
                        "a prefix of the name only",
                        withArguments("hypernode.binpack.resources: nvidia.com/gpu-shared"),
                        false),
                Arguments.of(
                        "the resources as a list (Volcano reads a string only)",
                        withArguments("hypernode.binpack.resources: [nvidia.com/gpu]"),
                        false),
                Arguments.of(
                        "the node-level binpack plugin only",
                        DEFAULT_CONF.replace(
                                        "  - name: binpack\n",
                                        "  - name: binpack\n    arguments:\n      binpack.resources: nvidia.com/gpu\n")
                                + "- plugins:\n  - name: network-topology-aware\n",
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gpuCases")
    void gpuBinPacking(String name, String conf, boolean packed) {
        SchedulerConfig.Check gpuCluster = SchedulerConfig.check(CM, KEY, Map.of(KEY, conf), List.of("nvidia.com/gpu"));
        assertThat(gpuCluster.state()).isEqualTo(HardTopology.ENFORCED);
        assertThat(gpuCluster.gpuBinPacked()).isEqualTo(packed);
        if (packed) {
            assertThat(gpuCluster.findings()).isEmpty();
        } else {
            assertThat(gpuCluster.findings()).singleElement().satisfies(f -> {
                assertThat(f.object()).isEqualTo(CM);
                assertThat(f.severity()).isEqualTo(Severity.INFO);
                assertThat(f.reason()).isEqualTo(TopologyReason.GPU_NOT_BIN_PACKED);
                assertThat(f.message())
                        .contains("does not bin-pack the nodes' accelerators across HyperNodes")
                        .contains("add 'hypernode.binpack.resources: nvidia.com/gpu'");
            });
        }
        // without GPU nodes nothing is said, whatever the arguments
        SchedulerConfig.Check cpuCluster = SchedulerConfig.check(CM, KEY, Map.of(KEY, conf), List.of());
        assertThat(cpuCluster.findings()).isEmpty();
        assertThat(cpuCluster.gpuBinPacked()).isEqualTo(packed);
    }

    /** Nodes with AMD's GPUs and Gaudi cards: each resource the nodes offer must be bin-packed, and is named when not. */
    @org.junit.jupiter.api.Test
    void everyAcceleratorTheNodesOfferIsChecked() {
        String nvidiaOnly = withArguments("hypernode.binpack.resources: nvidia.com/gpu");
        SchedulerConfig.Check amd = SchedulerConfig.check(
                CM, KEY, Map.of(KEY, nvidiaOnly), java.util.List.of("amd.com/gpu", "habana.ai/gaudi"));
        assertThat(amd.gpuBinPacked()).isFalse();
        assertThat(amd.findings())
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .contains("does not name amd.com/gpu, habana.ai/gaudi with a weight other than 0")
                        .contains("add 'hypernode.binpack.resources: amd.com/gpu,habana.ai/gaudi'"));
        SchedulerConfig.Check both = SchedulerConfig.check(
                CM,
                KEY,
                Map.of(KEY, withArguments("hypernode.binpack.resources: nvidia.com/gpu, amd.com/gpu")),
                java.util.List.of("amd.com/gpu", "nvidia.com/gpu"));
        assertThat(both.gpuBinPacked()).isTrue();
        assertThat(both.findings()).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void gpuBinPackingIsNotReportedWhileHardTopologyIsNot() {
        assertThat(SchedulerConfig.check(CM, KEY, Map.of(KEY, DEFAULT_CONF), List.of("nvidia.com/gpu"))
                        .findings())
                .singleElement()
                .satisfies(f -> assertThat(f.reason()).isEqualTo(TopologyReason.NETWORK_TOPOLOGY_PLUGIN_DISABLED));
    }
}

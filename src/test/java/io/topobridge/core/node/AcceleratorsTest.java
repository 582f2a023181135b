package io.topobridge.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The configured accelerator resources: defaults, validation, which of a node's resources they are. */
class AcceleratorsTest {

    @Test
    void theDefaultsCoverTheCommonDevicePlugins() {
        assertThat(Accelerators.DEFAULT.resources())
                .contains(
                        "nvidia.com/gpu",
                        "amd.com/gpu",
                        "habana.ai/gaudi",
                        "huawei.com/Ascend910",
                        "gpu.intel.com/xe",
                        "aws.amazon.com/neuron",
                        "google.com/tpu");
        assertThat(Accelerators.parse(null)).isEqualTo(Accelerators.DEFAULT);
        Accelerators.DEFAULT
                .resources()
                .forEach(r -> assertThat(Accelerators.problem(r)).as(r).isNull());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "gpu|it must be <domain>/<name>",
                "cpu|it must be <domain>/<name>",
                "a/b/c|it must be <domain>/<name>",
                "Example.com/gpu|the domain must be a lower-case DNS subdomain",
                "kubernetes.io/gpu|kubernetes.io names",
                "example.com/-gpu|the name must be 1-63",
                "example.com/|the name must be 1-63"
            })
    void refusesWhatIsNoExtendedResourceName(String entry, String problem) {
        assertThatThrownBy(() -> Accelerators.parse(List.of("nvidia.com/gpu", entry)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("topobridge.workloads.accelerator-resources: '" + entry + "'")
                .hasMessageContaining(problem);
    }

    @Test
    void refusesAnEntryListedTwiceAndKeepsTheOrder() {
        assertThatThrownBy(() -> Accelerators.parse(List.of("amd.com/gpu", " amd.com/gpu")))
                .hasMessage("topobridge.workloads.accelerator-resources: 'amd.com/gpu' is listed twice");
        assertThat(Accelerators.parse(List.of(" example.com/npu ", "", "amd.com/gpu"))
                        .resources())
                .containsExactly("example.com/npu", "amd.com/gpu");
    }

    @Test
    void aLongBadEntryIsShownCut() {
        String entry = "x".repeat(300);
        assertThatThrownBy(() -> Accelerators.parse(List.of(entry)))
                .hasMessageStartingWith("topobridge.workloads.accelerator-resources: '" + "x".repeat(80) + "...'");
    }

    @Test
    void theAcceleratorsAmongAResourceMapAreThoseAboveZero() {
        Map<String, BigDecimal> node = Map.of(
                "cpu", BigDecimal.TEN,
                "habana.ai/gaudi", BigDecimal.valueOf(8),
                "nvidia.com/gpu", BigDecimal.ZERO);
        assertThat(Accelerators.DEFAULT.in(node)).containsExactly("habana.ai/gaudi");
        assertThat(Accelerators.noun("amd.com/gpu", false)).isEqualTo("GPUs");
        assertThat(Accelerators.noun("nvidia.com/gpu", true)).isEqualTo("GPU");
        assertThat(Accelerators.noun("habana.ai/gaudi", false)).isEqualTo("habana.ai/gaudi");
    }
}

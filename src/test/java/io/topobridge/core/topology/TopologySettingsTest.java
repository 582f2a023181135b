package io.topobridge.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topobridge.core.topology.TopologySettings.TierLabel;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Parsing {@code topobridge.topology.preset} and {@code .tiers}: valid forms, and one clear message for each error. */
class TopologySettingsTest {

    static Stream<Arguments> valid() {
        return Stream.of(
                Arguments.of("default is auto", "auto", List.of(), "auto", List.of()),
                Arguments.of("preset is trimmed and lower-cased", " AWS ", List.of(), "aws", List.of()),
                Arguments.of("every documented preset", "nvidia-gfd", List.of(), "nvidia-gfd", List.of()),
                Arguments.of(
                        "explicit tiers with names",
                        "auto",
                        List.of("example.com/rack=rack", "topology.kubernetes.io/zone=zone"),
                        "custom",
                        List.of(
                                new TierLabel("example.com/rack", "rack"),
                                new TierLabel("topology.kubernetes.io/zone", "zone"))),
                Arguments.of(
                        "tier name defaults to the key's name part",
                        "auto",
                        List.of("volcano.sh/tor"),
                        "custom",
                        List.of(new TierLabel("volcano.sh/tor", "tor"))),
                Arguments.of(
                        "tiers without a preset",
                        null,
                        List.of(" rack = r "),
                        "custom",
                        List.of(new TierLabel("rack", "r"))),
                Arguments.of(
                        "label keys may use upper case, '_' and '.' in the name part",
                        "auto",
                        List.of("oci.oraclecloud.com/rdma.local_block_id=local"),
                        "custom",
                        List.of(new TierLabel("oci.oraclecloud.com/rdma.local_block_id", "local"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void parses(String name, String preset, List<String> tiers, String wantPreset, List<TierLabel> wantTiers) {
        TopologySettings settings = TopologySettings.parse(preset, tiers);
        assertThat(settings.preset()).isEqualTo(wantPreset);
        assertThat(settings.tiers()).isEqualTo(wantTiers);
        assertThat(settings.schemes()).isNotEmpty();
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of(
                        "unknown preset",
                        "azure",
                        List.of(),
                        "unknown preset 'azure' (known presets: auto, topograph, aws"),
                Arguments.of("empty preset", " ", List.of(), "topobridge.topology.preset: must not be empty"),
                Arguments.of(
                        "preset and tiers both set",
                        "aws",
                        List.of("rack"),
                        "preset='aws' and topobridge.topology.tiers are both set"),
                Arguments.of("duplicate key", "auto", List.of("rack=a", "rack=b"), "label key 'rack' is listed twice"),
                Arguments.of("duplicate name", "auto", List.of("a/rack=r", "b/rack=r"), "tier name 'r' is used twice"),
                Arguments.of("empty name", "auto", List.of("rack="), "entry 'rack=' has an empty tier name"),
                Arguments.of("empty key", "auto", List.of("=rack"), "entry '=rack' has an empty label key"),
                Arguments.of("empty entry", "auto", Arrays.asList("rack", ""), "entry '' has an empty label key"),
                Arguments.of("numeric tier name", "auto", List.of("rack=2"), "tier name '2' must not be a number"),
                Arguments.of(
                        "upper-case tier name", "auto", List.of("rack=Rack"), "tier name 'Rack' must be lower-case"),
                Arguments.of(
                        "default name unusable",
                        "auto",
                        List.of("example.com/Rack_ID"),
                        "tier name 'Rack_ID' must be lower-case letters, digits and '-', start and end with a letter or digit, at most 63 characters; name the tier explicitly"),
                Arguments.of(
                        "invalid key prefix",
                        "auto",
                        List.of("Example.com/rack=r"),
                        "label key 'Example.com/rack' is not a valid label key (the prefix"),
                Arguments.of(
                        "invalid key name",
                        "auto",
                        List.of("example.com/-rack=r"),
                        "label key 'example.com/-rack' is not a valid label key (the name part"),
                Arguments.of("key name too long", "auto", List.of("x".repeat(64) + "=r"), "is not a valid label key"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refuses(String name, String preset, List<String> tiers, String message) {
        assertThatThrownBy(() -> TopologySettings.parse(preset, tiers))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}

package io.topobridge.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.topobridge.wiring.SettingsProducer;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code topobridge.topology.*} through the real config mapping and {@link SettingsProducer#validate}: defaults are valid,
 * each kind of mistake stops start-up with one {@link ConfigurationException} naming the key and value.
 */
class TopologyConfigValidationTest {

    /** The settings the real config mapping gives for these properties (defaults for the rest). */
    static SettingsProducer settings(Map<String, String> properties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(TopobridgeConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build();
        return new SettingsProducer(config.getConfigMapping(TopobridgeConfig.class));
    }

    @Test
    void defaultsAreValidAndMeanAuto() {
        assertThatCode(settings(Map.of())::validate).doesNotThrowAnyException();
        SettingsProducer settings = settings(Map.of());
        assertThat(settings.topology().preset()).isEqualTo("auto");
        assertThat(settings.topologyController().debounce()).isEqualTo(Duration.ofMillis(100));
        assertThat(settings.topologyController().schedulerConfigKey()).isEqualTo("volcano-scheduler.conf");
        assertThat(settings.workloadController().resync()).isEqualTo(Duration.ofMinutes(10));
        // highest-tier: auto waits 5 minutes for room in its tier before it turns soft
        assertThat(settings.workloads().autoWaitForRoom()).isEqualTo(Duration.ofMinutes(5));
        assertThat(settings(Map.of("topobridge.workloads.auto-wait-for-room", "0s"))
                        .workloads()
                        .autoWaitForRoom())
                .isZero();
    }

    @Test
    void explicitTiersAreAccepted() {
        SettingsProducer validator =
                settings(Map.of("topobridge.topology.tiers", "example.com/rack=rack,topology.kubernetes.io/zone=zone"));
        assertThatCode(validator::validate).doesNotThrowAnyException();
        assertThat(settings(Map.of(
                                "topobridge.topology.tiers", "example.com/rack=rack,topology.kubernetes.io/zone=zone"))
                        .topology()
                        .tiers())
                .hasSize(2);
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of(
                        "unknown preset",
                        Map.of("topobridge.topology.preset", "azure"),
                        "topobridge.topology.preset: unknown preset 'azure'"),
                Arguments.of(
                        "duplicate key",
                        Map.of("topobridge.topology.tiers", "rack=a,rack=b"),
                        "label key 'rack' is listed twice"),
                Arguments.of("empty name", Map.of("topobridge.topology.tiers", "rack="), "has an empty tier name"),
                Arguments.of(
                        "preset and tiers",
                        Map.of("topobridge.topology.preset", "gke", "topobridge.topology.tiers", "rack"),
                        "are both set"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void mistakesStopStartUpWithOneMessage(String name, Map<String, String> properties, String message) {
        assertThatThrownBy(settings(properties)::validate)
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("Invalid topobridge configuration: ")
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}

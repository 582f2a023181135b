package io.topobridge.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.runtime.configuration.ConfigurationException;
import io.topobridge.findings.FindingsRegistries;
import io.topobridge.findings.FindingsSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code topobridge.findings.*} and {@code topobridge.events.*}: defaults, overrides and refused values. */
class FindingsConfigTest {

    @Test
    void theDefaultsAreTheSettingsDefaults() {
        assertThat(EnvironmentConfig.validated(Map.of()).findings()).isEqualTo(FindingsRegistries.DEFAULTS);
    }

    @Test
    void everyKeyIsRead() {
        FindingsSettings settings = EnvironmentConfig.validated(Map.of(
                        "TOPOBRIDGE_FINDINGS_MAX_PER_OBJECT", "7",
                        "TOPOBRIDGE_EVENTS_QPS", "2.5",
                        "TOPOBRIDGE_EVENTS_BURST", "9",
                        "TOPOBRIDGE_EVENTS_PER_OBJECT_QPS", "0.5",
                        "TOPOBRIDGE_EVENTS_PER_OBJECT_BURST", "3",
                        "TOPOBRIDGE_EVENTS_QUEUE_SIZE", "11"))
                .findings();
        assertThat(settings).isEqualTo(new FindingsSettings(7, 2.5, 9, 0.5, 3, 11));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
        "TOPOBRIDGE_FINDINGS_MAX_PER_OBJECT, 1, topobridge.findings.max-per-object=1 must be at least 2",
        "TOPOBRIDGE_EVENTS_QPS, 0, topobridge.events.qps=0.0 must be a number above 0",
        "TOPOBRIDGE_EVENTS_QPS, NaN, topobridge.events.qps=NaN must be a number above 0",
        "TOPOBRIDGE_EVENTS_BURST, 0, topobridge.events.burst=0 must be at least 1",
        "TOPOBRIDGE_EVENTS_PER_OBJECT_QPS, -1, topobridge.events.per-object-qps=-1.0 must be a number above 0",
        "TOPOBRIDGE_EVENTS_PER_OBJECT_BURST, 0, topobridge.events.per-object-burst=0 must be at least 1",
        "TOPOBRIDGE_EVENTS_QUEUE_SIZE, 0, topobridge.events.queue-size=0 must be at least 1",
    })
    void anInvalidValueStopsTheStartWithItsKey(String variable, String value, String message) {
        assertThatThrownBy(() -> EnvironmentConfig.validated(Map.of(variable, value)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(message);
    }
}

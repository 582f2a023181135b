package io.topobridge.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.testing.PackagedApp;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Invalid configuration stops the controller at start-up with one message naming the key and value. */
class ConfigValidationIT {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "topobridge.topology.tiers=rack,rack | label key 'rack' is listed twice",
                "topobridge.topology.tiers=rack=,spine | has an empty tier name",
                "topobridge.workloads.debounce=soon | topobridge.workloads.debounce",
                "topobridge.events.qps=0 | topobridge.events.qps=0.0 must be a number above 0",
                "topobridge.workloads.accelerator-resources=nvidia.com/gpu,gpu | topobridge.workloads.accelerator-resources:"
                        + " 'gpu' is not an extended resource name",
            })
    void startUpFailsWithOneClearMessage(String setting, String expected) throws Exception {
        int eq = setting.indexOf('=');
        var run = PackagedApp.run(List.of(
                "-D" + setting.substring(0, eq) + "=" + setting.substring(eq + 1),
                "-Dquarkus.http.port=0",
                "-Dquarkus.kubernetes-client.api-server-url=http://127.0.0.1:9"));
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.stdout() + run.stderr()).contains(expected);
    }
}

package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.topobridge.config.AdmissionConfig;
import io.topobridge.config.TopobridgeConfig;
import io.topobridge.tls.TlsSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Admission configuration is mapped once and every invalid value is refused with its key and value. */
public class WebhookSettingsTest {

    /** {@code topobridge.admission.*} through the real config mapping: its defaults, with overrides by key. */
    public static AdmissionConfig config(Map<String, Object> overrides) {
        Map<String, String> properties = new HashMap<>();
        overrides.forEach((key, value) -> properties.put(
                "topobridge.admission." + key,
                value instanceof Duration d ? d.toMillis() + "ms" : String.valueOf(value)));
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(TopobridgeConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build();
        return config.getConfigMapping(TopobridgeConfig.class).admission();
    }

    @Test
    void defaultsMapToTheDocumentedSettings() {
        WebhookSettings s = WebhookSettings.from(config(Map.of()), false, "topobridge-system");
        assertThat(s.namespace()).isEqualTo("topobridge-system");
        assertThat(s.port()).isEqualTo(8443);
        assertThat(s.podFailurePolicy()).isEqualTo("Ignore");
        assertThat(s.timeoutSeconds()).isEqualTo(3);
        assertThat(s.selfLabelKey()).isEqualTo("app.kubernetes.io/name");
        assertThat(s.selfLabelValue()).isEqualTo("topobridge");
        assertThat(s.tls().mode()).isEqualTo(TlsSettings.Mode.GENERATE);
        assertThat(s.tls().namespace()).isEqualTo("topobridge-system");
        assertThat(s.limits()).isEqualTo(WebhookServerBuilder.DEFAULT_LIMITS);
        assertThat(s.requestDeadline()).isEqualTo(Duration.ofSeconds(4));
        assertThat(s.tls().dnsNames())
                .containsExactly(
                        "topobridge-webhook.topobridge-system.svc",
                        "topobridge-webhook.topobridge-system.svc.cluster.local",
                        "topobridge-webhook.topobridge-system",
                        "topobridge-webhook");
    }

    @Test
    void serviceNamespaceOverridesTheControllersAndPoliciesAreNormalised() {
        WebhookSettings s = WebhookSettings.from(
                config(Map.of("service-namespace", "hooks", "pod-failure-policy", "fail", "tls.mode", "SECRET")),
                true,
                "elsewhere");
        assertThat(s.namespace()).isEqualTo("hooks");
        assertThat(s.podFailurePolicy()).isEqualTo("Fail");
        assertThat(s.tls().mode()).isEqualTo(TlsSettings.Mode.SECRET);
        assertThat(s.workloadsRequireOptIn()).isTrue();
    }

    @Test
    void theServiceCaModeReadsTheSecretAndLeavesTheConfigurationsToTheChart() {
        WebhookSettings s = WebhookSettings.from(
                config(Map.of("tls.mode", "openshift-service-ca", "manage-configurations", false)), false, "ops");
        assertThat(s.tls().mode()).isEqualTo(TlsSettings.Mode.OPENSHIFT_SERVICE_CA);
        assertThat(s.manageConfigurations()).isFalse();
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of(
                        "failure policy",
                        Map.of("pod-failure-policy", "Maybe"),
                        "topobridge.admission.pod-failure-policy=Maybe"),
                // an empty value is no value to the config mapping (the default applies): a blank one is refused
                Arguments.of(
                        "workload failure policy",
                        Map.of("workload-failure-policy", " "),
                        "topobridge.admission.workload-failure-policy="),
                Arguments.of(
                        "timeout above 30s",
                        Map.of("timeout", Duration.ofSeconds(31)),
                        "topobridge.admission.timeout=PT31S"),
                Arguments.of(
                        "timeout below 1s",
                        Map.of("timeout", Duration.ofMillis(500)),
                        "topobridge.admission.timeout=PT0.5S"),
                Arguments.of("fractional timeout", Map.of("timeout", Duration.ofMillis(2500)), "whole seconds"),
                Arguments.of("port", Map.of("port", 70000), "topobridge.admission.port=70000"),
                Arguments.of("service port", Map.of("service-port", 0), "topobridge.admission.service-port=0"),
                Arguments.of(
                        "service name",
                        Map.of("service-name", "Hook_Service"),
                        "topobridge.admission.service-name=Hook_Service"),
                Arguments.of(
                        "namespace label",
                        Map.of("namespace-label", "bad key!"),
                        "topobridge.admission.namespace-label=bad key!"),
                Arguments.of(
                        "self label without value",
                        Map.of("self-pod-label", "app"),
                        "topobridge.admission.self-pod-label=app"),
                Arguments.of(
                        "tls mode", Map.of("tls.mode", "cert-manager"), "topobridge.admission.tls.mode=cert-manager"),
                Arguments.of(
                        "service-CA mode while the bridge applies the configurations (and their caBundle)",
                        Map.of("tls.mode", "openshift-service-ca"),
                        "topobridge.admission.manage-configurations=true is not false with "
                                + "topobridge.admission.tls.mode=openshift-service-ca"),
                Arguments.of(
                        "renew before validity",
                        Map.of("tls.renew-before", Duration.ofDays(400)),
                        "topobridge.admission.tls.renew-before=PT9600H"),
                Arguments.of(
                        "negative validity",
                        Map.of("tls.validity", Duration.ofDays(-1)),
                        "topobridge.admission.tls.validity=PT-24H"),
                Arguments.of(
                        "zero check interval",
                        Map.of("tls.check-interval", Duration.ZERO),
                        "topobridge.admission.tls.check-interval=PT0S"),
                Arguments.of(
                        "body size without a unit Kubernetes knows",
                        Map.of("limits.max-body-size", "3MB"),
                        "topobridge.admission.limits.max-body-size=3MB is not a size"),
                Arguments.of(
                        "body size over 64Mi",
                        Map.of("limits.max-body-size", "1Gi"),
                        "topobridge.admission.limits.max-body-size=1073741824 is not 64Ki to 64Mi"),
                Arguments.of(
                        "depth below 16",
                        Map.of("limits.max-json-depth", 3),
                        "topobridge.admission.limits.max-json-depth=3"),
                Arguments.of(
                        "no reviews in flight",
                        Map.of("limits.max-concurrent-reviews", 0),
                        "topobridge.admission.limits.max-concurrent-reviews=0"),
                Arguments.of(
                        "bytes in flight below one review at both limits",
                        Map.of("limits.max-in-flight-bytes", "16Mi"),
                        "topobridge.admission.limits.max-in-flight-bytes=16777216 is not at least"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void invalidValuesAreRefusedNamingKeyAndValue(String name, Map<String, Object> override, String message) {
        assertThatThrownBy(() -> WebhookSettings.from(config(override), false, "ns"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}

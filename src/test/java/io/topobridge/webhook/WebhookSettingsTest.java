package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topobridge.config.AdmissionConfig;
import io.topobridge.tls.TlsSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Admission configuration is mapped once and every invalid value is refused with its key and value. */
class WebhookSettingsTest {

    /** The defaults of {@link AdmissionConfig}, with overrides by key. */
    static AdmissionConfig config(Map<String, Object> overrides) {
        Map<String, Object> values = new HashMap<>(Map.ofEntries(
                Map.entry("enabled", true), Map.entry("namespace-label", "topobridge.io/enabled"),
                Map.entry("scheduler-name", "volcano"), Map.entry("validate-workloads", true),
                Map.entry("host", "0.0.0.0"), Map.entry("port", 8443), Map.entry("service-name", "topobridge-webhook"),
                Map.entry("service-port", 443), Map.entry("manage-configurations", true),
                Map.entry("configuration-name", "topobridge"), Map.entry("pod-failure-policy", "Ignore"),
                Map.entry("workload-failure-policy", "Ignore"), Map.entry("timeout", Duration.ofSeconds(3)),
                Map.entry("self-pod-label", "app.kubernetes.io/name=topobridge"), Map.entry("tls.mode", "generate"),
                Map.entry("tls.secret-name", "topobridge-webhook-tls"), Map.entry("tls.validity", Duration.ofDays(365)),
                Map.entry("tls.ca-validity", Duration.ofDays(3650)), Map.entry("tls.renew-before", Duration.ofDays(30)),
                Map.entry("tls.check-interval", Duration.ofMinutes(1))));
        values.putAll(overrides);
        AdmissionConfig.Tls tls = new AdmissionConfig.Tls() {
            public String mode() { return (String) values.get("tls.mode"); }
            public String secretName() { return (String) values.get("tls.secret-name"); }
            public Duration validity() { return (Duration) values.get("tls.validity"); }
            public Duration caValidity() { return (Duration) values.get("tls.ca-validity"); }
            public Duration renewBefore() { return (Duration) values.get("tls.renew-before"); }
            public Duration checkInterval() { return (Duration) values.get("tls.check-interval"); }
        };
        return new AdmissionConfig() {
            public boolean enabled() { return (Boolean) values.get("enabled"); }
            public String namespaceLabel() { return (String) values.get("namespace-label"); }
            public String schedulerName() { return (String) values.get("scheduler-name"); }
            public boolean validateWorkloads() { return (Boolean) values.get("validate-workloads"); }
            public String host() { return (String) values.get("host"); }
            public int port() { return (Integer) values.get("port"); }
            public String serviceName() { return (String) values.get("service-name"); }
            public Optional<String> serviceNamespace() { return Optional.ofNullable((String) values.get("service-namespace")); }
            public int servicePort() { return (Integer) values.get("service-port"); }
            public boolean manageConfigurations() { return (Boolean) values.get("manage-configurations"); }
            public String configurationName() { return (String) values.get("configuration-name"); }
            public String podFailurePolicy() { return (String) values.get("pod-failure-policy"); }
            public String workloadFailurePolicy() { return (String) values.get("workload-failure-policy"); }
            public Duration timeout() { return (Duration) values.get("timeout"); }
            public String selfPodLabel() { return (String) values.get("self-pod-label"); }
            public Tls tls() { return tls; }
        };
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
        assertThat(s.tls().dnsNames()).containsExactly("topobridge-webhook.topobridge-system.svc",
                "topobridge-webhook.topobridge-system.svc.cluster.local", "topobridge-webhook.topobridge-system",
                "topobridge-webhook");
    }

    @Test
    void serviceNamespaceOverridesTheControllersAndPoliciesAreNormalised() {
        WebhookSettings s = WebhookSettings.from(config(Map.of("service-namespace", "hooks", "pod-failure-policy", "fail",
                "tls.mode", "SECRET")), true, "elsewhere");
        assertThat(s.namespace()).isEqualTo("hooks");
        assertThat(s.podFailurePolicy()).isEqualTo("Fail");
        assertThat(s.tls().mode()).isEqualTo(TlsSettings.Mode.SECRET);
        assertThat(s.workloadsRequireOptIn()).isTrue();
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("failure policy", Map.of("pod-failure-policy", "Maybe"), "topobridge.admission.pod-failure-policy=Maybe"),
                Arguments.of("workload failure policy", Map.of("workload-failure-policy", ""), "topobridge.admission.workload-failure-policy="),
                Arguments.of("timeout above 30s", Map.of("timeout", Duration.ofSeconds(31)), "topobridge.admission.timeout=PT31S"),
                Arguments.of("timeout below 1s", Map.of("timeout", Duration.ofMillis(500)), "topobridge.admission.timeout=PT0.5S"),
                Arguments.of("fractional timeout", Map.of("timeout", Duration.ofMillis(2500)), "whole seconds"),
                Arguments.of("port", Map.of("port", 70000), "topobridge.admission.port=70000"),
                Arguments.of("service port", Map.of("service-port", 0), "topobridge.admission.service-port=0"),
                Arguments.of("service name", Map.of("service-name", "Hook_Service"), "topobridge.admission.service-name=Hook_Service"),
                Arguments.of("namespace label", Map.of("namespace-label", "bad key!"), "topobridge.admission.namespace-label=bad key!"),
                Arguments.of("self label without value", Map.of("self-pod-label", "app"), "topobridge.admission.self-pod-label=app"),
                Arguments.of("tls mode", Map.of("tls.mode", "cert-manager"), "topobridge.admission.tls.mode=cert-manager"),
                Arguments.of("renew before validity", Map.of("tls.renew-before", Duration.ofDays(400)), "topobridge.admission.tls.renew-before=PT9600H"),
                Arguments.of("negative validity", Map.of("tls.validity", Duration.ofDays(-1)), "topobridge.admission.tls.validity=PT-24H"),
                Arguments.of("zero check interval", Map.of("tls.check-interval", Duration.ZERO), "topobridge.admission.tls.check-interval=PT0S"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void invalidValuesAreRefusedNamingKeyAndValue(String name, Map<String, Object> override, String message) {
        assertThatThrownBy(() -> WebhookSettings.from(config(override), false, "ns"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}

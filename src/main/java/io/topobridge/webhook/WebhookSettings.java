package io.topobridge.webhook;

import io.topobridge.config.AdmissionConfig;
import io.topobridge.tls.TlsSettings;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/** Validated settings of the webhook server, its registration and its TLS, from {@code topobridge.admission.*}. */
public record WebhookSettings(
        boolean enabled,
        String host,
        int port,
        String serviceName,
        String namespace,
        int servicePort,
        boolean manageConfigurations,
        String configurationName,
        String namespaceLabel,
        boolean workloadsRequireOptIn,
        boolean validateWorkloads,
        boolean adoptPodGroups,
        String podFailurePolicy,
        String workloadFailurePolicy,
        int timeoutSeconds,
        String selfLabelKey,
        String selfLabelValue,
        TlsSettings tls,
        Duration checkInterval,
        AdmissionLimits limits) {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    private static final Pattern LABEL_KEY =
            Pattern.compile("([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

    public WebhookSettings {
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(limits, "limits");
    }

    /**
     * A request not answered this long after its headers arrived is answered 408: the webhook's timeout (after which
     * the API server no longer waits) and a second.
     */
    public Duration requestDeadline() {
        return Duration.ofSeconds(timeoutSeconds + 1L);
    }

    /**
     * Maps and checks the configuration; {@code namespace} is where the controller runs (used when
     * {@code service-namespace} is unset). Throws {@link IllegalArgumentException} naming the key and value.
     */
    public static WebhookSettings from(AdmissionConfig config, boolean workloadsRequireOptIn, String namespace) {
        String ns = config.serviceNamespace().filter(s -> !s.isBlank()).orElse(namespace);
        requireMatch(DNS_LABEL, "service-namespace", ns, "a namespace name");
        requireMatch(DNS_LABEL, "service-name", config.serviceName(), "a DNS-1123 label");
        require(config.port() >= 0 && config.port() <= 65535, "port", config.port(), "a port (0 to 65535)");
        require(
                config.servicePort() >= 1 && config.servicePort() <= 65535,
                "service-port",
                config.servicePort(),
                "a port (1 to 65535)");
        requireMatch(DNS_SUBDOMAIN, "configuration-name", config.configurationName(), "a DNS-1123 subdomain");
        requireMatch(LABEL_KEY, "namespace-label", config.namespaceLabel(), "a label key");
        long timeout = config.timeout().toMillis();
        require(
                timeout >= 1000 && timeout <= 30_000 && timeout % 1000 == 0,
                "timeout",
                config.timeout(),
                "whole seconds from 1s to 30s (the API server's limit)");
        String self = config.selfPodLabel();
        int eq = self.indexOf('=');
        require(
                eq > 0
                        && LABEL_KEY.matcher(self.substring(0, eq)).matches()
                        && LABEL_VALUE.matcher(self.substring(eq + 1)).matches(),
                "self-pod-label",
                self,
                "key=value");
        TlsSettings tls = tls(config.tls(), config.serviceName(), ns, config.manageConfigurations());
        // the service-CA operator injects the caBundle; a bridge applying the configurations too would fight it
        require(
                tls.mode() != TlsSettings.Mode.OPENSHIFT_SERVICE_CA || !config.manageConfigurations(),
                "manage-configurations",
                config.manageConfigurations(),
                "false with topobridge.admission.tls.mode=openshift-service-ca (the service-CA operator injects the "
                        + "webhook configurations' caBundle; the Helm chart renders them in that mode)");
        return new WebhookSettings(
                config.enabled(),
                config.host(),
                config.port(),
                config.serviceName(),
                ns,
                config.servicePort(),
                config.manageConfigurations(),
                config.configurationName(),
                config.namespaceLabel(),
                workloadsRequireOptIn,
                config.validateWorkloads(),
                config.adoptPodgroups(),
                failurePolicy("pod-failure-policy", config.podFailurePolicy()),
                failurePolicy("workload-failure-policy", config.workloadFailurePolicy()),
                (int) (timeout / 1000),
                self.substring(0, eq),
                self.substring(eq + 1),
                tls,
                config.tls().checkInterval(),
                limits(config.limits()));
    }

    /**
     * Checks and maps {@code tls.*}; the certificate names the service {@code serviceName} in {@code namespace}, and
     * its CA is needed where the bridge registers it ({@code registersCa}: it applies the webhook configurations).
     */
    private static TlsSettings tls(
            AdmissionConfig.Tls config, String serviceName, String namespace, boolean registersCa) {
        TlsSettings.Mode mode = switch (config.mode().toLowerCase(Locale.ROOT)) {
            case "generate" -> TlsSettings.Mode.GENERATE;
            case "secret" -> TlsSettings.Mode.SECRET;
            case "openshift-service-ca" -> TlsSettings.Mode.OPENSHIFT_SERVICE_CA;
            default -> throw invalid("tls.mode", config.mode(), "generate, secret or openshift-service-ca");
        };
        requireMatch(DNS_SUBDOMAIN, "tls.secret-name", config.secretName(), "a Secret name");
        Duration check = config.checkInterval();
        require(!check.isNegative() && !check.isZero(), "tls.check-interval", check, "a positive duration");
        return new TlsSettings(
                mode,
                namespace,
                config.secretName(),
                TlsSettings.serviceDnsNames(serviceName, namespace),
                config.validity(),
                config.caValidity(),
                config.renewBefore(),
                registersCa);
    }

    private static AdmissionLimits limits(AdmissionConfig.Limits config) {
        long body = AdmissionLimits.parseSize(AdmissionLimits.MAX_BODY_SIZE, config.maxBodySize());
        long inFlight = AdmissionLimits.parseSize(AdmissionLimits.MAX_IN_FLIGHT_BYTES, config.maxInFlightBytes());
        return new AdmissionLimits(
                body, config.maxJsonDepth(), config.maxJsonTokens(), config.maxConcurrentReviews(), inFlight);
    }

    private static String failurePolicy(String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "ignore" -> "Ignore";
            case "fail" -> "Fail";
            default -> throw invalid(key, value, "Ignore or Fail");
        };
    }

    private static void requireMatch(Pattern pattern, String key, String value, String expected) {
        require(pattern.matcher(value).matches(), key, value, expected);
    }

    private static void require(boolean ok, String key, Object value, String expected) {
        if (!ok) {
            throw invalid(key, value, expected);
        }
    }

    private static IllegalArgumentException invalid(String key, Object value, String expected) {
        return new IllegalArgumentException("topobridge.admission." + key + "=" + value + " is not " + expected);
    }
}

package io.topobridge.config;

import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** {@code topobridge.admission.*}: the pod mutating and workload validating webhooks and their TLS. */
public interface AdmissionConfig {

    /** Serve the admission webhooks (and register them, see {@code manage-configurations}). */
    @WithDefault("true")
    boolean enabled();

    /** Namespace label that opts a namespace in to pod admission (value {@code true}); kube-system never is. */
    @WithDefault("topobridge.io/enabled")
    String namespaceLabel();

    /** Scheduler name set on the pods of a gang that name none or {@code default-scheduler}. */
    @WithDefault("volcano")
    String schedulerName();

    /** Also serve and register the validating webhook for the managed workload kinds. */
    @WithDefault("true")
    boolean validateWorkloads();

    /**
     * Also serve and register the mutating webhook that adds the bridge's topology fields to the PodGroups it adopts
     * (AIBrix's and LWS's) in their own writes, so AIBrix's rewrites never drop them.
     */
    @WithDefault("true")
    boolean adoptPodgroups();

    /** Address the HTTPS webhook server binds to. */
    @WithDefault("0.0.0.0")
    String host();

    /** Port of the HTTPS webhook server (0: any free port, for tests). */
    @WithDefault("8443")
    int port();

    /** Name of the Service in front of the webhook server (the certificate names it). */
    @WithDefault("topobridge-webhook")
    String serviceName();

    /** Namespace of that Service and of the certificate Secret (default: the namespace the controller runs in). */
    Optional<String> serviceNamespace();

    /** Port of that Service, as the API server calls it. */
    @WithDefault("443")
    int servicePort();

    /** Apply the MutatingWebhookConfiguration and ValidatingWebhookConfiguration (with caBundle) itself. */
    @WithDefault("true")
    boolean manageConfigurations();

    /** Name of both webhook configurations. */
    @WithDefault("topobridge")
    String configurationName();

    /** failurePolicy of the pod webhook: {@code Ignore} (a dead bridge never blocks pods) or {@code Fail}. */
    @WithDefault("Ignore")
    String podFailurePolicy();

    /** failurePolicy of the workload webhook: {@code Ignore} or {@code Fail}. */
    @WithDefault("Ignore")
    String workloadFailurePolicy();

    /** How long the API server waits for an answer (timeoutSeconds, 1 to 30 seconds). */
    @WithDefault("3s")
    Duration timeout();

    /** {@code key=value} label of the bridge's own pods, which the webhooks never intercept. */
    @WithDefault("app.kubernetes.io/name=topobridge")
    String selfPodLabel();

    /** The webhook's TLS certificate. */
    Tls tls();

    /** {@code topobridge.admission.tls.*}: where the serving certificate comes from and how it is renewed. */
    interface Tls {

        /** {@code generate}: the bridge makes and rotates its own CA and certificate; {@code secret}: it only reads the Secret (e.g. cert-manager's). */
        @WithDefault("generate")
        String mode();

        /** Secret holding {@code tls.crt}, {@code tls.key} and {@code ca.crt} (and {@code ca.key} in generate mode). */
        @WithDefault("topobridge-webhook-tls")
        String secretName();

        /** Lifetime of a generated serving certificate. */
        @WithDefault("365d")
        Duration validity();

        /** Lifetime of a generated CA. */
        @WithDefault("3650d")
        Duration caValidity();

        /** A generated certificate (or CA) is renewed once it expires within this time. */
        @WithDefault("30d")
        Duration renewBefore();

        /** How often the Secret is read to renew, or to reload a certificate another replica or cert-manager renewed. */
        @WithDefault("1m")
        Duration checkInterval();
    }
}

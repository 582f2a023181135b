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

    /** What the webhook port accepts, and how much it holds at once. */
    Limits limits();

    /**
     * {@code topobridge.admission.limits.*}: requests over a size or parse limit are answered 413, those beyond what may
     * be in flight 429, before their body is built into a tree.
     */
    interface Limits {

        /** Largest request body (bytes, or with Ki/Mi): one object at the API server's own request limit (3Mi). */
        @WithDefault("3Mi")
        String maxBodySize();

        /** Deepest JSON nesting of a request, the AdmissionReview's own three levels included (16 to 10000). */
        @WithDefault("100")
        int maxJsonDepth();

        /** Most JSON tokens in a request (each brace, bracket, name and value counts one; 10000 to 100000000). */
        @WithDefault("200000")
        long maxJsonTokens();

        /** Most requests in flight, from their headers to their answer; beyond it they are answered 429 at once. */
        @WithDefault("64")
        int maxConcurrentReviews();

        /** Most bytes in flight: bodies plus 144 bytes per JSON token of their trees (at least one review at both limits). */
        @WithDefault("64Mi")
        String maxInFlightBytes();
    }

    /** {@code topobridge.admission.tls.*}: where the serving certificate comes from and how it is renewed. */
    interface Tls {

        /**
         * {@code generate}: the bridge makes and rotates its own CA and certificate; {@code secret}: it only reads the
         * Secret (e.g. cert-manager's or OLM's; {@code ca.crt} is needed only with {@code manage-configurations=true});
         * {@code openshift-service-ca}: it only reads the Secret OpenShift's service-CA operator keeps (no
         * {@code ca.crt}; needs {@code manage-configurations=false}).
         */
        @WithDefault("generate")
        String mode();

        /**
         * Secret holding {@code tls.crt}, {@code tls.key} and {@code ca.crt} (and {@code ca.key} in generate mode;
         * {@code ca.crt} may be missing where the bridge does not register the webhook configurations).
         */
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

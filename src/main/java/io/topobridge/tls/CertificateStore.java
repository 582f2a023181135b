package io.topobridge.tls;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topobridge.core.Topobridge;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Keeps the webhook's TLS material in one Secret that every replica shares. In {@code generate} mode the Helm chart
 * makes the Secret empty (labelled as the bridge's), so the controller needs only {@code get} and {@code update} on
 * that one name: the first replica to find it empty fills it, and a certificate due for renewal is replaced, each with
 * an update guarded by the Secret's resourceVersion (a conflict means another replica wrote first: its Secret is read
 * and used). Without the chart (dev mode, a plain jar) a missing Secret is created, which needs {@code create} on
 * Secrets; refused that, the error says what to do. In {@code secret} and {@code openshift-service-ca} modes the Secret
 * is only read. Nothing is written while the stored certificates are good.
 */
public class CertificateStore {

    private static final Logger LOG = Logger.getLogger(CertificateStore.class);
    private static final int ATTEMPTS = 5;

    /** The Secret cannot give a usable certificate (absent in {@code secret} mode, foreign, unreadable). */
    public static final class UnavailableException extends RuntimeException {
        public UnavailableException(String message) {
            super(message);
        }
    }

    private final KubernetesClient client;
    private final TlsSettings settings;
    private final Clock clock;

    public CertificateStore(KubernetesClient client, TlsSettings settings, Clock clock) {
        this.client = client;
        this.settings = settings;
        this.clock = clock;
    }

    /** The certificate to serve now, after creating or renewing it when due. */
    public ServingCertificate ensure() {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Secret current = read();
            if (settings.mode() != TlsSettings.Mode.GENERATE) {
                return external(current);
            }
            if (current != null && !Topobridge.managed(current)) {
                throw new UnavailableException(
                        "Secret " + describe() + " exists but was not made by topobridge (no label "
                                + Topobridge.MANAGED_BY_LABEL + "=" + Topobridge.MANAGED_BY + "); delete it, or set "
                                + "topobridge.admission.tls.mode=secret to serve the certificate it holds");
            }
            ServingCertificate stored = current == null ? null : readOrNull(current);
            Instant now = clock.instant();
            RotationPolicy.Decision decision =
                    RotationPolicy.decide(stored, settings.dnsNames(), now, settings.renewBefore());
            if (decision.action() == RotationPolicy.Action.KEEP) {
                return stored;
            }
            ServingCertificate next = renew(stored, decision.action(), now);
            try {
                write(current, next);
                LOG.infof(
                        "%s webhook certificate in Secret %s (%s); valid until %s",
                        current == null ? "created" : "renewed", describe(), decision.why(), next.notAfter());
                return next;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
                LOG.infof("another replica wrote Secret %s first; using its certificate", describe());
            }
        }
        throw new UnavailableException(
                "Secret " + describe() + " kept changing under " + ATTEMPTS + " attempts to renew it");
    }

    /** The Secret as stored now, or null (overridable so tests can simulate a replica reading a stale view). */
    protected Secret read() {
        return client.secrets()
                .inNamespace(settings.namespace())
                .withName(settings.secretName())
                .get();
    }

    private void write(Secret current, ServingCertificate next) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(ServingCertificate.TLS_CRT, base64(next.certificatePem()));
        data.put(ServingCertificate.TLS_KEY, base64(next.keyPem()));
        data.put(ServingCertificate.CA_CRT, base64(next.caBundlePem()));
        data.put(ServingCertificate.CA_KEY, base64(Certificates.keyPem(next.caKey())));
        if (current == null) {
            Secret secret = new SecretBuilder()
                    .withNewMetadata()
                    .withNamespace(settings.namespace())
                    .withName(settings.secretName())
                    .addToLabels(Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY)
                    .endMetadata()
                    .withType("kubernetes.io/tls")
                    .withData(data)
                    .build();
            try {
                client.secrets()
                        .inNamespace(settings.namespace())
                        .resource(secret)
                        .create();
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
                    throw new UnavailableException("Secret " + describe() + " does not exist and topobridge may not "
                            + "create it (the Helm chart makes it, empty, and grants only get and update on it): "
                            + "apply the chart's Secret again (helm upgrade, or helm template | kubectl apply), or "
                            + "grant create on secrets in " + settings.namespace());
                }
                throw e;
            }
        } else {
            // the resourceVersion read above guards the update: a replica that renewed meanwhile makes it fail
            Secret updated = new SecretBuilder(current)
                    .withData(data)
                    .withStringData(null)
                    .build();
            client.secrets().inNamespace(settings.namespace()).resource(updated).update();
        }
    }

    private ServingCertificate renew(ServingCertificate stored, RotationPolicy.Action action, Instant now) {
        Certificates.Issued ca;
        List<X509Certificate> previous;
        if (action == RotationPolicy.Action.NEW_CA || stored == null) {
            ca = Certificates.newCa("topobridge-webhook-ca", now, settings.caValidity());
            previous = stored == null ? List.of() : stored.caCertificates();
        } else {
            ca = new Certificates.Issued(stored.caCertificates().get(0), stored.caKey());
            previous = stored.caCertificates();
        }
        Certificates.Issued serving = Certificates.issueServing(ca, settings.dnsNames(), now, settings.validity());
        return new ServingCertificate(
                serving.certificate(), serving.key(), RotationPolicy.bundle(ca.certificate(), previous, now), ca.key());
    }

    private ServingCertificate external(Secret current) {
        boolean serviceCa = settings.mode() == TlsSettings.Mode.OPENSHIFT_SERVICE_CA;
        if (current == null) {
            throw new UnavailableException("Secret " + describe() + " does not exist "
                    + (serviceCa
                            ? "(topobridge.admission.tls.mode=openshift-service-ca: OpenShift's service-CA operator "
                                    + "makes it for the webhook Service annotated "
                                    + "service.beta.openshift.io/serving-cert-secret-name=" + settings.secretName()
                                    + ")"
                            : "(topobridge.admission.tls.mode=secret: it must be provided, e.g. by cert-manager, with "
                                    + ServingCertificate.TLS_CRT + " and " + ServingCertificate.TLS_KEY
                                    + (settings.registersCa() ? " and " + ServingCertificate.CA_CRT : "") + ")"));
        }
        try {
            ServingCertificate stored = parse(current);
            // the CA is only written as the configurations' caBundle: where something else injects it (the service-CA
            // operator, cert-manager's injector, OLM) the Secret may carry none
            if (stored.caCertificates().isEmpty() && settings.registersCa()) {
                throw new IllegalArgumentException(
                        "it has no " + ServingCertificate.CA_CRT + ", which the bridge writes "
                                + "as the webhook configurations' caBundle (with topobridge.admission.manage-configurations="
                                + "false, where something else injects the caBundle, it needs none)");
            }
            if (!Certificates.matches(stored.key(), stored.certificate())) {
                throw new IllegalArgumentException(
                        ServingCertificate.TLS_KEY + " does not belong to " + ServingCertificate.TLS_CRT);
            }
            return stored;
        } catch (IllegalArgumentException e) {
            throw new UnavailableException("Secret " + describe() + " holds no usable certificate: " + e.getMessage());
        }
    }

    private ServingCertificate readOrNull(Secret secret) {
        if (secret.getData() == null || secret.getData().isEmpty()) {
            LOG.infof("Secret %s is empty (as the Helm chart makes it): issuing the first certificate", describe());
            return null;
        }
        try {
            return parse(secret);
        } catch (IllegalArgumentException e) {
            LOG.warnf("Secret %s holds no usable certificate (%s); making a new one", describe(), e.getMessage());
            return null;
        }
    }

    /** The certificate a Secret holds; {@code ca.key} is optional. */
    static ServingCertificate parse(Secret secret) {
        Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
        List<X509Certificate> chain = Certificates.parseCertificates(decode(data, ServingCertificate.TLS_CRT));
        if (chain.isEmpty()) {
            throw new IllegalArgumentException(ServingCertificate.TLS_CRT + " holds no certificate");
        }
        PrivateKey key = Certificates.parsePrivateKey(decode(data, ServingCertificate.TLS_KEY));
        List<X509Certificate> cas = data.containsKey(ServingCertificate.CA_CRT)
                ? Certificates.parseCertificates(decode(data, ServingCertificate.CA_CRT))
                : List.of();
        PrivateKey caKey = data.containsKey(ServingCertificate.CA_KEY)
                ? Certificates.parsePrivateKey(decode(data, ServingCertificate.CA_KEY))
                : null;
        return new ServingCertificate(chain.get(0), key, cas, caKey);
    }

    private static String decode(Map<String, String> data, String key) {
        String value = data.get(key);
        if (value == null) {
            throw new IllegalArgumentException("it has no " + key);
        }
        try {
            return new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " is not base64");
        }
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private String describe() {
        return settings.namespace() + "/" + settings.secretName();
    }
}

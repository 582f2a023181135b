package io.topobridge.tls;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The webhook server's TLS material as stored in its Secret: the serving certificate and key, the CA
 * certificates the API server must trust ({@code caBundle}: the signing CA first, then a retired CA that is
 * still valid, so replicas still serving a certificate of the old CA keep working through a CA rotation),
 * and the signing CA's key when the bridge made the CA itself (absent for an external Secret).
 */
public record ServingCertificate(
        X509Certificate certificate, PrivateKey key, List<X509Certificate> caCertificates, PrivateKey caKey) {

    public ServingCertificate {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(key, "key");
        caCertificates = List.copyOf(caCertificates);
    }

    /** Secret data keys, as cert-manager writes them ({@code ca.key} only when the bridge is the CA). */
    public static final String TLS_CRT = "tls.crt";

    public static final String TLS_KEY = "tls.key";
    public static final String CA_CRT = "ca.crt";
    public static final String CA_KEY = "ca.key";

    public String certificatePem() {
        return Certificates.pem(List.of(certificate));
    }

    public String keyPem() {
        return Certificates.keyPem(key);
    }

    /** PEM of the CA certificates, the value (base64-encoded) of the webhook configurations' {@code caBundle}. */
    public String caBundlePem() {
        return Certificates.pem(caCertificates);
    }

    public Instant notAfter() {
        return certificate.getNotAfter().toInstant();
    }

    /** Same certificate and CA bundle (keys follow from them). */
    public boolean sameAs(ServingCertificate other) {
        return other != null && certificate.equals(other.certificate) && caCertificates.equals(other.caCertificates);
    }
}

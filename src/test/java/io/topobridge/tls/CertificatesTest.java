package io.topobridge.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringWriter;
import java.security.KeyPairGenerator;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;

/** The CA and serving certificates made with BouncyCastle verify as a TLS client would verify them. */
class CertificatesTest {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private static final List<String> NAMES = TlsSettings.serviceDnsNames("topobridge-webhook", "ops");

    @Test
    void servingCertificateChainsToTheCaForEveryServiceName() throws Exception {
        var ca = Certificates.newCa("test-ca", NOW, Duration.ofDays(3650));
        var serving = Certificates.issueServing(ca, NAMES, NOW, Duration.ofDays(365));

        assertThat(Certificates.dnsNames(serving.certificate()))
                .containsExactlyElementsOf(NAMES)
                .contains("topobridge-webhook.ops.svc", "topobridge-webhook.ops.svc.cluster.local");
        assertThat(ca.certificate().getBasicConstraints()).isGreaterThanOrEqualTo(0);
        assertThat(serving.certificate().getBasicConstraints()).isEqualTo(-1);
        assertThat(serving.certificate().getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(Certificates.signedBy(serving.certificate(), ca.certificate()))
                .isTrue();
        assertThat(Certificates.matches(serving.key(), serving.certificate())).isTrue();
        assertThat(Certificates.matches(ca.key(), serving.certificate())).isFalse();
        assertThat(serving.certificate().getNotAfter().toInstant()).isEqualTo(NOW.plus(Duration.ofDays(365)));
        assertThat(serving.certificate().getNotBefore().toInstant()).isBefore(NOW);

        // the JDK's own PKIX validation, as a TLS client does it, at a time inside the validity window
        var factory = CertificateFactory.getInstance("X.509");
        var path = factory.generateCertPath(List.of(serving.certificate()));
        var params = new PKIXParameters(Set.of(new TrustAnchor(ca.certificate(), null)));
        params.setRevocationEnabled(false);
        params.setDate(Date.from(NOW.plus(Duration.ofDays(1))));
        CertPathValidator.getInstance("PKIX").validate(path, params);
    }

    @Test
    void servingCertificateNeverOutlivesItsCa() {
        var ca = Certificates.newCa("short-ca", NOW, Duration.ofDays(10));
        var serving = Certificates.issueServing(ca, NAMES, NOW, Duration.ofDays(365));
        assertThat(serving.certificate().getNotAfter())
                .isEqualTo(ca.certificate().getNotAfter());
    }

    @Test
    void pemRoundTripsCertificatesAndKeys() {
        var ca = Certificates.newCa("test-ca", NOW, Duration.ofDays(30));
        var serving = Certificates.issueServing(ca, NAMES, NOW, Duration.ofDays(20));
        String bundle = Certificates.pem(List.of(serving.certificate(), ca.certificate()));
        assertThat(bundle).startsWith("-----BEGIN CERTIFICATE-----");
        assertThat(Certificates.parseCertificates(bundle)).containsExactly(serving.certificate(), ca.certificate());
        assertThat(Certificates.keyPem(serving.key())).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(Certificates.parsePrivateKey(Certificates.keyPem(serving.key())))
                .isEqualTo(serving.key());
    }

    @Test
    void readsPkcs1RsaKeysAsCertManagerWritesThem() throws Exception {
        var generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        var pair = generator.generateKeyPair();
        var out = new StringWriter();
        try (var writer = new JcaPEMWriter(out)) {
            writer.writeObject(pair); // a KeyPair is written as PKCS#1 "RSA PRIVATE KEY"
        }
        assertThat(out.toString()).contains("BEGIN RSA PRIVATE KEY");
        assertThat(Certificates.parsePrivateKey(out.toString()).getEncoded())
                .isEqualTo(pair.getPrivate().getEncoded());
    }

    @Test
    void unreadablePemSaysSo() {
        assertThatThrownBy(() ->
                        Certificates.parsePrivateKey("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PEM");
        assertThatThrownBy(() -> Certificates.parsePrivateKey("no pem here"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no private key");
        assertThat(Certificates.parseCertificates("nothing")).isEmpty();
    }

    @Test
    void signedByRejectsAnotherCa() {
        var ca = Certificates.newCa("a", NOW, Duration.ofDays(30));
        var other = Certificates.newCa("b", NOW, Duration.ofDays(30));
        X509Certificate serving =
                Certificates.issueServing(ca, NAMES, NOW, Duration.ofDays(20)).certificate();
        assertThat(Certificates.signedBy(serving, other.certificate())).isFalse();
        assertThat(Certificates.signedBy(serving, ca.certificate())).isTrue();
    }
}

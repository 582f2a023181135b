package io.topobridge.tls;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * X.509 for the webhook server, made with BouncyCastle: a self-signed CA and serving certificates it signs,
 * ECDSA P-256 throughout (fast to generate, accepted by the Kubernetes API server), PEM in and out. Private
 * keys are written as PKCS#8; PKCS#1 and SEC1 keys (as cert-manager writes them) are read too.
 */
public final class Certificates {

    /** A certificate and its private key. */
    public record Issued(X509Certificate certificate, PrivateKey key) {}

    /** Certificates start to be valid a little in the past so clock skew between nodes does not reject them. */
    static final Duration BACKDATE = Duration.ofMinutes(5);

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String SIGNATURE = "SHA256withECDSA";

    /** A self-signed CA certificate valid from {@code now} for {@code validity}. */
    public static Issued newCa(String commonName, Instant now, Duration validity) {
        KeyPair keys = newKeyPair();
        var subject = new X500Principal("CN=" + commonName);
        try {
            var extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                            subject,
                            serial(),
                            Date.from(now.minus(BACKDATE)),
                            Date.from(now.plus(validity)),
                            subject,
                            keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(
                            Extension.subjectKeyIdentifier,
                            false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()));
            return new Issued(sign(builder, keys.getPrivate()), keys.getPrivate());
        } catch (CertIOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot create a CA certificate", e);
        }
    }

    /**
     * A serving certificate for {@code dnsNames} (at least one, as {@link TlsSettings} requires) signed by {@code ca},
     * valid from {@code now} for {@code validity} but never beyond the CA itself.
     */
    public static Issued issueServing(Issued ca, List<String> dnsNames, Instant now, Duration validity) {
        KeyPair keys = newKeyPair();
        Instant notAfter = now.plus(validity);
        if (notAfter.isAfter(ca.certificate().getNotAfter().toInstant())) {
            notAfter = ca.certificate().getNotAfter().toInstant();
        }
        GeneralName[] names = dnsNames.stream()
                .map(n -> new GeneralName(GeneralName.dNSName, n))
                .toArray(GeneralName[]::new);
        try {
            var extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                            ca.certificate().getSubjectX500Principal(),
                            serial(),
                            Date.from(now.minus(BACKDATE)),
                            Date.from(notAfter),
                            new X500Principal("CN=" + dnsNames.get(0)),
                            keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(
                            Extension.keyUsage,
                            true,
                            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
                    .addExtension(
                            Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names))
                    .addExtension(
                            Extension.subjectKeyIdentifier,
                            false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()))
                    .addExtension(
                            Extension.authorityKeyIdentifier,
                            false,
                            extensions.createAuthorityKeyIdentifier(ca.certificate()));
            return new Issued(sign(builder, ca.key()), keys.getPrivate());
        } catch (CertIOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot issue a serving certificate for " + dnsNames, e);
        }
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("EC P-256 key generation is unavailable", e);
        }
    }

    private static BigInteger serial() {
        return new BigInteger(159, RANDOM).setBit(0);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
            throws CertificateException {
        try {
            X509CertificateHolder holder = builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer));
            return new JcaX509CertificateConverter().getCertificate(holder);
        } catch (OperatorCreationException e) {
            throw new IllegalStateException("cannot sign with " + SIGNATURE, e);
        }
    }

    /** Certificates as concatenated PEM blocks. */
    public static String pem(List<X509Certificate> certificates) {
        var out = new StringWriter();
        try (var writer = new JcaPEMWriter(out)) {
            for (X509Certificate certificate : certificates) {
                writer.writeObject(certificate);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** A private key as a PKCS#8 PEM block ({@code PRIVATE KEY}). */
    public static String keyPem(PrivateKey key) {
        var out = new StringWriter();
        try (var writer = new JcaPEMWriter(out)) {
            writer.writeObject(new JcaPKCS8Generator(key, null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Every certificate in a PEM text, in order; other blocks are skipped. */
    public static List<X509Certificate> parseCertificates(String pem) {
        List<X509Certificate> out = new ArrayList<>();
        try (var parser = new PEMParser(new StringReader(pem))) {
            var converter = new JcaX509CertificateConverter();
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                if (object instanceof X509CertificateHolder holder) {
                    out.add(converter.getCertificate(holder));
                }
            }
        } catch (IOException | CertificateException e) {
            throw new IllegalArgumentException("unreadable PEM certificate: " + e.getMessage(), e);
        }
        return List.copyOf(out);
    }

    /** The first private key in a PEM text (PKCS#8, PKCS#1 RSA or SEC1 EC). */
    public static PrivateKey parsePrivateKey(String pem) {
        try (var parser = new PEMParser(new StringReader(pem))) {
            var converter = new JcaPEMKeyConverter();
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                if (object instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                if (object instanceof PEMKeyPair pair) {
                    return converter.getKeyPair(pair).getPrivate();
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("unreadable PEM private key: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("no private key in the PEM text");
    }

    /** Whether {@code key} is the private half of {@code certificate}'s public key (sign and verify a probe). */
    public static boolean matches(PrivateKey key, X509Certificate certificate) {
        PublicKey publicKey = certificate.getPublicKey();
        if (!publicKey.getAlgorithm().equals(key.getAlgorithm())) {
            return false;
        }
        String algorithm = "EC".equals(key.getAlgorithm()) ? SIGNATURE : "SHA256with" + key.getAlgorithm();
        try {
            byte[] probe = new byte[32];
            RANDOM.nextBytes(probe);
            var signer = java.security.Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            var verifier = java.security.Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** Whether {@code certificate} carries a signature {@code issuer}'s key made. */
    public static boolean signedBy(X509Certificate certificate, X509Certificate issuer) {
        try {
            certificate.verify(issuer.getPublicKey());
            return certificate.getIssuerX500Principal().equals(issuer.getSubjectX500Principal());
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** The DNS subject alternative names of a certificate. */
    public static List<String> dnsNames(X509Certificate certificate) {
        try {
            var names = certificate.getSubjectAlternativeNames();
            if (names == null) {
                return List.of();
            }
            return names.stream()
                    .filter(n -> Integer.valueOf(GeneralName.dNSName).equals(n.get(0)))
                    .map(n -> (String) n.get(1))
                    .toList();
        } catch (CertificateException e) {
            return List.of();
        }
    }
}

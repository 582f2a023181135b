package io.topobridge.tls;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * When the bridge's own certificates must be made again, and how: a pure decision over what the Secret holds,
 * the DNS names the webhook Service answers to, the time and the renewal margin.
 */
public final class RotationPolicy {

    /** What to do with the stored certificates. */
    public enum Action {
        /** Everything is present, matching and valid beyond the renewal margin. */
        KEEP,
        /** The CA is good; issue a new serving certificate with it. */
        ISSUE_SERVING,
        /** Make a new CA (retiring the old one into the bundle while it is valid) and a serving certificate. */
        NEW_CA
    }

    /** The action and why, for the log line. */
    public record Decision(Action action, String why) {}

    /**
     * Decides for {@code stored} (null when the Secret is absent or unreadable) at {@code now}: a certificate
     * is renewed once it expires within {@code renewBefore}.
     */
    public static Decision decide(ServingCertificate stored, List<String> dnsNames, Instant now, Duration renewBefore) {
        if (stored == null) {
            return new Decision(Action.NEW_CA, "no readable certificate is stored");
        }
        X509Certificate ca = stored.caCertificates().isEmpty()
                ? null
                : stored.caCertificates().get(0);
        if (ca == null || stored.caKey() == null) {
            return new Decision(Action.NEW_CA, "the CA certificate or key is missing");
        }
        if (!Certificates.matches(stored.caKey(), ca)) {
            return new Decision(Action.NEW_CA, "the CA key does not belong to the CA certificate");
        }
        Instant caExpiry = ca.getNotAfter().toInstant();
        if (!caExpiry.isAfter(now.plus(renewBefore))) {
            return new Decision(Action.NEW_CA, "the CA expires at " + caExpiry);
        }
        if (!Certificates.signedBy(stored.certificate(), ca)) {
            return new Decision(Action.ISSUE_SERVING, "the serving certificate is not signed by the current CA");
        }
        if (!Certificates.matches(stored.key(), stored.certificate())) {
            return new Decision(Action.ISSUE_SERVING, "the serving key does not belong to the serving certificate");
        }
        if (!new HashSet<>(Certificates.dnsNames(stored.certificate())).containsAll(dnsNames)) {
            return new Decision(Action.ISSUE_SERVING, "the serving certificate does not name all of " + dnsNames);
        }
        Instant expiry = stored.notAfter();
        if (!expiry.isAfter(now.plus(renewBefore))) {
            return new Decision(Action.ISSUE_SERVING, "the serving certificate expires at " + expiry);
        }
        if (stored.certificate().getNotBefore().toInstant().isAfter(now)) {
            return new Decision(Action.ISSUE_SERVING, "the serving certificate is not valid yet");
        }
        return new Decision(Action.KEEP, "valid until " + expiry);
    }

    /** CA certificates to keep trusting after {@code next} becomes the signer: the still valid old ones. */
    public static List<X509Certificate> bundle(X509Certificate next, List<X509Certificate> previous, Instant now) {
        List<X509Certificate> out = new ArrayList<>();
        out.add(next);
        previous.stream()
                .filter(c -> c.getNotAfter().toInstant().isAfter(now) && !c.equals(next))
                .limit(1)
                .forEach(out::add);
        return List.copyOf(out);
    }
}

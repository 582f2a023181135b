package io.topobridge.tls;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where the webhook's TLS material lives and how the bridge keeps it: {@link Mode#GENERATE} makes and rotates
 * its own CA and serving certificate in the Secret; {@link Mode#SECRET} only reads a Secret someone else keeps
 * (e.g. cert-manager) and reloads it when it changes; {@link Mode#OPENSHIFT_SERVICE_CA} reads the Secret OpenShift's
 * service-CA operator keeps, which holds no {@code ca.crt}.
 */
public record TlsSettings(
        Mode mode,
        String namespace,
        String secretName,
        List<String> dnsNames,
        Duration validity,
        Duration caValidity,
        Duration renewBefore,
        boolean registersCa) {

    /** Who makes the certificates. */
    public enum Mode {
        GENERATE,
        SECRET,
        /**
         * The service-CA operator writes the Secret ({@code tls.crt}, {@code tls.key}, no {@code ca.crt}) and injects
         * its CA into the webhook configurations itself, so the bridge never registers a {@code caBundle}.
         */
        OPENSHIFT_SERVICE_CA
    }

    public TlsSettings {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(secretName, "secretName");
        dnsNames = List.copyOf(dnsNames);
        if (dnsNames.isEmpty()) {
            throw new IllegalArgumentException("the serving certificate needs at least one DNS name");
        }
        requirePositive("validity", validity);
        requirePositive("ca-validity", caValidity);
        requirePositive("renew-before", renewBefore);
        if (renewBefore.compareTo(validity) >= 0) {
            throw new IllegalArgumentException("topobridge.admission.tls.renew-before=" + renewBefore
                    + " must be shorter than topobridge.admission.tls.validity=" + validity
                    + " (or every certificate would be renewed at once)");
        }
        if (renewBefore.compareTo(caValidity) >= 0) {
            throw new IllegalArgumentException("topobridge.admission.tls.renew-before=" + renewBefore
                    + " must be shorter than topobridge.admission.tls.ca-validity=" + caValidity);
        }
    }

    private static void requirePositive(String key, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("topobridge.admission.tls." + key + "=" + value + " must be positive");
        }
    }

    /** The names a Service {@code name} in {@code namespace} answers to inside the cluster. */
    public static List<String> serviceDnsNames(String service, String namespace) {
        return List.of(
                service + "." + namespace + ".svc",
                service + "." + namespace + ".svc.cluster.local",
                service + "." + namespace,
                service);
    }
}

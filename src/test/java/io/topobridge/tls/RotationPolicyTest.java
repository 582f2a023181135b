package io.topobridge.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.tls.RotationPolicy.Action;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** When stored certificates are kept, re-issued, or replaced together with a new CA. */
class RotationPolicyTest {

    private static final Instant NOW = Instant.parse("2030-06-01T00:00:00Z");
    private static final Duration RENEW = Duration.ofDays(30);
    private static final List<String> NAMES = TlsSettings.serviceDnsNames("hook", "ops");

    private static final Certificates.Issued CA =
            Certificates.newCa("ca", NOW.minus(Duration.ofDays(100)), Duration.ofDays(3650));
    private static final Certificates.Issued OLD_CA =
            Certificates.newCa("old", NOW.minus(Duration.ofDays(3600)), Duration.ofDays(3620));
    private static final Certificates.Issued OTHER_CA =
            Certificates.newCa("other", NOW.minus(Duration.ofDays(1)), Duration.ofDays(3650));

    private static ServingCertificate stored(Certificates.Issued ca, Certificates.Issued serving) {
        return new ServingCertificate(serving.certificate(), serving.key(), List.of(ca.certificate()), ca.key());
    }

    private static Certificates.Issued serving(
            Certificates.Issued ca, List<String> names, Instant from, Duration validity) {
        return Certificates.issueServing(ca, names, from, validity);
    }

    static Stream<Arguments> cases() {
        Function<Void, ServingCertificate> fresh =
                v -> stored(CA, serving(CA, NAMES, NOW.minus(Duration.ofDays(1)), Duration.ofDays(365)));
        return Stream.of(
                Arguments.of("nothing stored: new CA", (Function<Void, ServingCertificate>) v -> null, Action.NEW_CA),
                Arguments.of("fresh certificate: keep", fresh, Action.KEEP),
                Arguments.of(
                        "serving certificate expires within the margin: re-issue",
                        (Function<Void, ServingCertificate>) v ->
                                stored(CA, serving(CA, NAMES, NOW.minus(Duration.ofDays(340)), Duration.ofDays(365))),
                        Action.ISSUE_SERVING),
                Arguments.of(
                        "serving certificate already expired: re-issue",
                        (Function<Void, ServingCertificate>) v ->
                                stored(CA, serving(CA, NAMES, NOW.minus(Duration.ofDays(400)), Duration.ofDays(365))),
                        Action.ISSUE_SERVING),
                Arguments.of(
                        "serving certificate lacks a service name: re-issue",
                        (Function<Void, ServingCertificate>)
                                v -> stored(CA, serving(CA, List.of("hook.ops.svc"), NOW, Duration.ofDays(365))),
                        Action.ISSUE_SERVING),
                Arguments.of(
                        "serving certificate signed by another CA: re-issue",
                        (Function<Void, ServingCertificate>)
                                v -> stored(CA, serving(OTHER_CA, NAMES, NOW, Duration.ofDays(365))),
                        Action.ISSUE_SERVING),
                Arguments.of(
                        "serving key of another certificate: re-issue",
                        (Function<Void, ServingCertificate>) v -> {
                            var a = serving(CA, NAMES, NOW, Duration.ofDays(365));
                            var b = serving(CA, NAMES, NOW, Duration.ofDays(365));
                            return new ServingCertificate(
                                    a.certificate(), b.key(), List.of(CA.certificate()), CA.key());
                        },
                        Action.ISSUE_SERVING),
                Arguments.of(
                        "CA expires within the margin: new CA",
                        (Function<Void, ServingCertificate>)
                                v -> stored(OLD_CA, serving(OLD_CA, NAMES, NOW, Duration.ofDays(365))),
                        Action.NEW_CA),
                Arguments.of(
                        "CA key missing: new CA",
                        (Function<Void, ServingCertificate>) v -> {
                            var s = serving(CA, NAMES, NOW, Duration.ofDays(365));
                            return new ServingCertificate(s.certificate(), s.key(), List.of(CA.certificate()), null);
                        },
                        Action.NEW_CA),
                Arguments.of(
                        "CA key of another CA: new CA",
                        (Function<Void, ServingCertificate>) v -> {
                            var s = serving(CA, NAMES, NOW, Duration.ofDays(365));
                            return new ServingCertificate(
                                    s.certificate(), s.key(), List.of(CA.certificate()), OTHER_CA.key());
                        },
                        Action.NEW_CA));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(String name, Function<Void, ServingCertificate> stored, Action expected) {
        RotationPolicy.Decision decision = RotationPolicy.decide(stored.apply(null), NAMES, NOW, RENEW);
        assertThat(decision.action()).as(decision.why()).isEqualTo(expected);
        assertThat(decision.why()).isNotBlank();
    }

    @Test
    void bundleKeepsTheRetiredCaWhileValidAndDropsExpiredOnes() {
        var expired = Certificates.newCa("expired", NOW.minus(Duration.ofDays(20)), Duration.ofDays(10));
        assertThat(RotationPolicy.bundle(CA.certificate(), List.of(OLD_CA.certificate()), NOW))
                .containsExactly(CA.certificate(), OLD_CA.certificate());
        assertThat(RotationPolicy.bundle(CA.certificate(), List.of(expired.certificate()), NOW))
                .containsExactly(CA.certificate());
        assertThat(RotationPolicy.bundle(CA.certificate(), List.of(CA.certificate(), OLD_CA.certificate()), NOW))
                .containsExactly(CA.certificate(), OLD_CA.certificate());
    }
}

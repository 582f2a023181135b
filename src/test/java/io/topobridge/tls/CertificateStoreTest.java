package io.topobridge.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The certificate Secret against the mock API server: bootstrap, renewal, external Secrets, replicas racing. */
class CertificateStoreTest {

    private static final String NS = "ops";
    private static final String SECRET = "hook-tls";
    private static final Instant NOW = Instant.parse("2031-03-01T00:00:00Z");

    private MockCluster cluster;

    @BeforeEach
    void start() {
        cluster = RecordingDispatcher.start();
        RecordingDispatcher.of(cluster).clearLog();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private static TlsSettings settings(TlsSettings.Mode mode) {
        // the bridge applies the configurations (and so registers the CA) by default; the service-CA mode never does
        return settings(mode, mode != TlsSettings.Mode.OPENSHIFT_SERVICE_CA);
    }

    private static TlsSettings settings(TlsSettings.Mode mode, boolean registersCa) {
        return new TlsSettings(
                mode,
                NS,
                SECRET,
                TlsSettings.serviceDnsNames("hook", NS),
                Duration.ofDays(365),
                Duration.ofDays(3650),
                Duration.ofDays(30),
                registersCa);
    }

    /** The labels that mark a Secret as the bridge's own. */
    private static final Map<String, String> OURS = Map.of("app.kubernetes.io/managed-by", "topobridge");

    private CertificateStore store(Instant now) {
        return new CertificateStore(
                cluster.client(), settings(TlsSettings.Mode.GENERATE), Clock.fixed(now, ZoneOffset.UTC));
    }

    /** A Secret already at the store's name; null labels, type or data are left out. */
    private void existingSecret(Map<String, String> labels, String type, Map<String, String> data) {
        cluster.client()
                .secrets()
                .inNamespace(NS)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(SECRET)
                        .withNamespace(NS)
                        .withLabels(labels)
                        .endMetadata()
                        .withType(type)
                        .withData(data)
                        .build())
                .create();
    }

    /** A store that only reads a Secret someone else makes (tls.mode=secret). */
    private CertificateStore external(Instant now) {
        return new CertificateStore(
                cluster.client(), settings(TlsSettings.Mode.SECRET), Clock.fixed(now, ZoneOffset.UTC));
    }

    private Secret secret() {
        return cluster.client().secrets().inNamespace(NS).withName(SECRET).get();
    }

    private int secretWrites() {
        return RecordingDispatcher.of(cluster).writes("/secrets").size();
    }

    private static String decode(Secret secret, String key) {
        return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    }

    @Test
    void bootstrapCreatesTheSecretOnceThenWritesNothing() {
        ServingCertificate first = store(NOW).ensure();
        assertThat(secretWrites()).isEqualTo(1);
        Secret secret = secret();
        assertThat(secret.getType()).isEqualTo("kubernetes.io/tls");
        assertThat(secret.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "topobridge");
        assertThat(secret.getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt", "ca.key");
        assertThat(Certificates.parseCertificates(decode(secret, "tls.crt"))).containsExactly(first.certificate());
        assertThat(Certificates.parseCertificates(decode(secret, "ca.crt")))
                .containsExactlyElementsOf(first.caCertificates());
        assertThat(Certificates.dnsNames(first.certificate())).contains("hook.ops.svc", "hook.ops.svc.cluster.local");

        for (int i = 0; i < 3; i++) {
            assertThat(store(NOW.plus(Duration.ofDays(i))).ensure().sameAs(first))
                    .isTrue();
        }
        assertThat(secretWrites()).as("unchanged checks write nothing").isEqualTo(1);
    }

    @Test
    void servingCertificateNearExpiryIsRenewedWithTheSameCa() {
        ServingCertificate first = store(NOW).ensure();
        Instant later = NOW.plus(Duration.ofDays(340)); // 25 days left < 30 days renew-before
        ServingCertificate renewed = store(later).ensure();
        assertThat(renewed.certificate()).isNotEqualTo(first.certificate());
        assertThat(renewed.caCertificates()).containsExactlyElementsOf(first.caCertificates());
        assertThat(renewed.notAfter()).isEqualTo(later.plus(Duration.ofDays(365)));
        assertThat(secretWrites()).isEqualTo(2);
        assertThat(CertificateStore.parse(secret()).sameAs(renewed)).isTrue();
        assertThat(store(later).ensure().sameAs(renewed)).isTrue();
        assertThat(secretWrites()).isEqualTo(2);
    }

    @Test
    void caNearExpiryIsReplacedAndTheOldCaStaysTrustedWhileValid() {
        ServingCertificate first = store(NOW).ensure();
        Instant later = NOW.plus(Duration.ofDays(3630)); // the CA has 20 days left
        ServingCertificate renewed = store(later).ensure();
        assertThat(renewed.caCertificates()).hasSize(2);
        assertThat(renewed.caCertificates().get(1))
                .isEqualTo(first.caCertificates().get(0));
        assertThat(Certificates.signedBy(
                        renewed.certificate(), renewed.caCertificates().get(0)))
                .isTrue();
        assertThat(Certificates.signedBy(
                        renewed.certificate(), first.caCertificates().get(0)))
                .isFalse();

        // once the retired CA has expired, the next renewal drops it from the bundle
        Instant muchLater = later.plus(Duration.ofDays(340));
        ServingCertificate next = store(muchLater).ensure();
        assertThat(next.caCertificates())
                .containsExactly(renewed.caCertificates().get(0));
    }

    @Test
    void aSecretItDidNotMakeIsNeverOverwritten() {
        existingSecret(null, "kubernetes.io/tls", Map.of("tls.crt", "eA==", "tls.key", "eA=="));
        RecordingDispatcher.of(cluster).clearLog();
        assertThatThrownBy(() -> store(NOW).ensure())
                .isInstanceOf(CertificateStore.UnavailableException.class)
                .hasMessageContaining("ops/hook-tls")
                .hasMessageContaining("tls.mode=secret");
        assertThat(secretWrites()).isZero();
    }

    @Test
    void anUnreadableSecretOfItsOwnIsReplaced() {
        existingSecret(OURS, null, Map.of("tls.crt", "bm90IGEgY2VydA=="));
        ServingCertificate made = store(NOW).ensure();
        assertThat(CertificateStore.parse(secret()).sameAs(made)).isTrue();
    }

    @Test
    void externalSecretIsReadNeverWritten() {
        var external = external(NOW);
        assertThatThrownBy(external::ensure)
                .isInstanceOf(CertificateStore.UnavailableException.class)
                .hasMessageContaining("ops/hook-tls")
                .hasMessageContaining("does not exist");

        // what cert-manager writes: tls.crt, tls.key, ca.crt, no ca.key
        var ca = Certificates.newCa("cert-manager-ca", NOW, Duration.ofDays(100));
        var serving = Certificates.issueServing(ca, List.of("hook.ops.svc"), NOW, Duration.ofDays(90));
        existingSecret(
                null,
                "kubernetes.io/tls",
                Map.of(
                        "tls.crt",
                        b64(Certificates.pem(List.of(serving.certificate()))),
                        "tls.key",
                        b64(Certificates.keyPem(serving.key())),
                        "ca.crt",
                        b64(Certificates.pem(List.of(ca.certificate())))));
        RecordingDispatcher.of(cluster).clearLog();
        ServingCertificate read = external.ensure();
        assertThat(read.certificate()).isEqualTo(serving.certificate());
        assertThat(read.caCertificates()).containsExactly(ca.certificate());
        assertThat(read.caKey()).isNull();
        assertThat(secretWrites()).isZero();

        // an expired external certificate is still only read: renewing it is its owner's job
        var late = external(NOW.plus(Duration.ofDays(200)));
        assertThat(late.ensure().certificate()).isEqualTo(serving.certificate());
        assertThat(secretWrites()).isZero();
    }

    @Test
    void theServiceCaSecretWithoutCaCrtIsReadNeverWrittenAndItsRotationIsPickedUp() {
        var serviceCa = new CertificateStore(
                cluster.client(), settings(TlsSettings.Mode.OPENSHIFT_SERVICE_CA), Clock.fixed(NOW, ZoneOffset.UTC));
        assertThatThrownBy(serviceCa::ensure)
                .isInstanceOf(CertificateStore.UnavailableException.class)
                .hasMessageContaining("ops/hook-tls does not exist")
                .hasMessageContaining("service.beta.openshift.io/serving-cert-secret-name=hook-tls");

        // what the service-CA operator writes: tls.crt and tls.key only
        var ca = Certificates.newCa("openshift-service-serving-signer", NOW, Duration.ofDays(790));
        var serving = Certificates.issueServing(ca, List.of("hook.ops.svc"), NOW, Duration.ofDays(730));
        existingSecret(
                null,
                "kubernetes.io/tls",
                Map.of(
                        "tls.crt",
                        b64(Certificates.pem(List.of(serving.certificate()))),
                        "tls.key",
                        b64(Certificates.keyPem(serving.key()))));
        RecordingDispatcher.of(cluster).clearLog();
        ServingCertificate read = serviceCa.ensure();
        assertThat(read.certificate()).isEqualTo(serving.certificate());
        assertThat(read.caCertificates()).isEmpty();
        assertThat(secretWrites()).isZero();

        // the same Secret in secret mode is refused where the bridge registers ca.crt as the caBundle...
        assertThatThrownBy(() -> external(NOW).ensure())
                .hasMessageContaining(
                        "it has no ca.crt, which the bridge writes as the webhook configurations' caBundle")
                .hasMessageContaining("manage-configurations=false");
        // ...and served where something else injects the caBundle (cert-manager's injector, OLM's Secret)
        var injected = new CertificateStore(
                cluster.client(), settings(TlsSettings.Mode.SECRET, false), Clock.fixed(NOW, ZoneOffset.UTC));
        assertThat(injected.ensure().certificate()).isEqualTo(serving.certificate());
        assertThat(secretWrites()).isZero();

        // the operator rotates: a new CA and certificate in the same Secret are what the next check serves
        var nextCa = Certificates.newCa("openshift-service-serving-signer", NOW, Duration.ofDays(790));
        var next = Certificates.issueServing(nextCa, List.of("hook.ops.svc"), NOW, Duration.ofDays(730));
        cluster.client().secrets().inNamespace(NS).withName(SECRET).edit(secret -> {
            secret.setData(Map.of(
                    "tls.crt",
                    b64(Certificates.pem(List.of(next.certificate()))),
                    "tls.key",
                    b64(Certificates.keyPem(next.key()))));
            return secret;
        });
        RecordingDispatcher.of(cluster).clearLog();
        ServingCertificate rotated = serviceCa.ensure();
        assertThat(rotated.certificate()).isEqualTo(next.certificate());
        assertThat(rotated.sameAs(read)).isFalse();
        assertThat(secretWrites()).isZero();

        // a key that is not the certificate's is still refused
        cluster.client().secrets().inNamespace(NS).withName(SECRET).edit(secret -> {
            secret.setData(Map.of(
                    "tls.crt",
                    b64(Certificates.pem(List.of(next.certificate()))),
                    "tls.key",
                    b64(Certificates.keyPem(serving.key()))));
            return secret;
        });
        assertThatThrownBy(serviceCa::ensure).hasMessageContaining("tls.key does not belong to tls.crt");
    }

    @Test
    void externalSecretWithAForeignKeyIsRefused() {
        var ca = Certificates.newCa("ca", NOW, Duration.ofDays(100));
        var a = Certificates.issueServing(ca, List.of("hook.ops.svc"), NOW, Duration.ofDays(90));
        var b = Certificates.issueServing(ca, List.of("hook.ops.svc"), NOW, Duration.ofDays(90));
        existingSecret(
                null,
                null,
                Map.of(
                        "tls.crt",
                        b64(Certificates.pem(List.of(a.certificate()))),
                        "tls.key",
                        b64(Certificates.keyPem(b.key())),
                        "ca.crt",
                        b64(Certificates.pem(List.of(ca.certificate())))));
        var external = external(NOW);
        assertThatThrownBy(external::ensure).hasMessageContaining("tls.key does not belong to tls.crt");
    }

    /** A replica whose first read is stale: it saw no Secret (or an old one) just before another replica wrote. */
    private CertificateStore staleReplica(Instant now, Secret staleView) {
        AtomicReference<Boolean> first = new AtomicReference<>(true);
        return new CertificateStore(
                cluster.client(), settings(TlsSettings.Mode.GENERATE), Clock.fixed(now, ZoneOffset.UTC)) {
            @Override
            protected Secret read() {
                return first.getAndSet(false) ? staleView : super.read();
            }
        };
    }

    /** The Secret as the Helm chart makes it: empty, Opaque, labelled as the bridge's. */
    private void chartsEmptySecret() {
        existingSecret(OURS, "Opaque", null);
        RecordingDispatcher.of(cluster).clearLog();
    }

    @Test
    void theChartsEmptySecretIsFilledByUpdatesOnlyAndReplicasStartingTogetherAgree() throws Exception {
        chartsEmptySecret();
        var barrier = new CyclicBarrier(4);
        var pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<ServingCertificate>> results = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                results.add(pool.submit(() -> {
                    barrier.await();
                    return store(NOW).ensure();
                }));
            }
            List<ServingCertificate> served = new ArrayList<>();
            for (Future<ServingCertificate> result : results) {
                served.add(result.get());
            }
            ServingCertificate stored = CertificateStore.parse(secret());
            assertThat(served).allSatisfy(c -> assertThat(c.sameAs(stored)).isTrue());
        } finally {
            pool.shutdownNow();
        }
        assertThat(RecordingDispatcher.of(cluster).writes("/secrets"))
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.method())
                        .as("no create: the chart made it")
                        .isEqualTo("PUT"));
        assertThat(secret().getType()).isEqualTo("Opaque");
        assertThat(secret().getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt", "ca.key");
        RecordingDispatcher.of(cluster).clearLog();
        store(NOW).ensure();
        assertThat(secretWrites()).isZero();
    }

    @Test
    void withoutTheRightToCreateAMissingSecretTheErrorSaysWhatToDo() {
        var server = new io.fabric8.kubernetes.client.server.mock.KubernetesMockServer(false);
        server.init();
        try {
            server.expect()
                    .get()
                    .withPath("/api/v1/namespaces/" + NS + "/secrets/" + SECRET)
                    .andReturn(
                            404,
                            new io.fabric8.kubernetes.api.model.StatusBuilder()
                                    .withCode(404)
                                    .withReason("NotFound")
                                    .build())
                    .always();
            server.expect()
                    .post()
                    .withPath("/api/v1/namespaces/" + NS + "/secrets")
                    .andReturn(
                            403,
                            new io.fabric8.kubernetes.api.model.StatusBuilder()
                                    .withCode(403)
                                    .withReason("Forbidden")
                                    .withMessage(
                                            "secrets is forbidden: User \"system:serviceaccount:ops:tb\" cannot create")
                                    .build())
                    .always();
            var store = new CertificateStore(
                    server.createClient(), settings(TlsSettings.Mode.GENERATE), Clock.fixed(NOW, ZoneOffset.UTC));
            assertThatThrownBy(store::ensure)
                    .isInstanceOf(CertificateStore.UnavailableException.class)
                    .hasMessageContaining("Secret ops/hook-tls does not exist and topobridge may not create it")
                    .hasMessageContaining("helm template | kubectl apply");
        } finally {
            server.destroy();
        }
    }

    @Test
    void aReplicaThatLosesTheCreateUsesTheWinnersCertificate() {
        ServingCertificate winner = store(NOW).ensure();
        RecordingDispatcher.of(cluster).clearLog();
        ServingCertificate loser = staleReplica(NOW, null).ensure();
        assertThat(loser.sameAs(winner)).isTrue();
        assertThat(RecordingDispatcher.of(cluster).writes("/secrets"))
                .hasSize(1)
                .allSatisfy(r -> assertThat(r.method()).isEqualTo("POST"));
        assertThat(CertificateStore.parse(secret()).sameAs(winner)).isTrue();
    }

    @Test
    void aReplicaThatLosesTheRenewalUsesTheWinnersCertificate() {
        store(NOW).ensure();
        Secret before = secret();
        Instant later = NOW.plus(Duration.ofDays(340));
        ServingCertificate winner = store(later).ensure();
        RecordingDispatcher.of(cluster).clearLog();
        ServingCertificate loser = staleReplica(later, before).ensure();
        assertThat(loser.sameAs(winner)).isTrue();
        assertThat(RecordingDispatcher.of(cluster).writes("/secrets"))
                .hasSize(1)
                .allSatisfy(r -> assertThat(r.method()).isEqualTo("PUT"));
    }

    @Test
    void replicasStartingTogetherAgreeOnOneCertificate() throws Exception {
        int replicas = 4;
        for (int round = 0; round < 5; round++) {
            cluster.client().secrets().inNamespace(NS).withName(SECRET).delete();
            var barrier = new CyclicBarrier(replicas);
            var pool = Executors.newFixedThreadPool(replicas);
            try {
                List<Future<ServingCertificate>> results = new ArrayList<>();
                for (int r = 0; r < replicas; r++) {
                    Callable<ServingCertificate> replica = () -> {
                        barrier.await();
                        return store(NOW).ensure();
                    };
                    results.add(pool.submit(replica));
                }
                ServingCertificate stored = null;
                for (Future<ServingCertificate> result : results) {
                    ServingCertificate got = result.get();
                    if (stored == null) {
                        stored = CertificateStore.parse(secret());
                    }
                    assertThat(got.sameAs(stored))
                            .as("round %d: every replica serves the stored certificate", round)
                            .isTrue();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}

package io.topobridge.webhook;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.MockApiServer;
import io.topobridge.testing.PendingPod;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.tls.Certificates;
import io.topobridge.tls.ServingCertificate;
import io.topobridge.tls.TlsSettings;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The controller process runs admission end to end against the mock API server: it makes its certificate
 * Secret, serves HTTPS with it, registers both webhook configurations with the CA, renews and reloads
 * certificates, and writes nothing while nothing changed.
 */
@QuarkusTest
@QuarkusTestResource(MockApiServer.class)
class AdmissionServerTest {

    private static final String SECRET = "topobridge-webhook-tls";
    private static final String NS = "default";
    private static final List<String> NAMES = TlsSettings.serviceDnsNames("topobridge-webhook", NS);

    @Inject
    AdmissionServer controller;

    @Inject
    KubernetesClient client;

    @BeforeEach
    void serving() {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> controller.ready() && AdmissionServers.port(controller) > 0);
    }

    private MockCluster cluster() {
        return MockApiServer.cluster();
    }

    private Secret secret() {
        return client.secrets().inNamespace(NS).withName(SECRET).get();
    }

    private MutatingWebhookConfiguration mutating() {
        return client.admissionRegistration()
                .v1()
                .mutatingWebhookConfigurations()
                .withName("topobridge")
                .get();
    }

    private ValidatingWebhookConfiguration validating() {
        return client.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withName("topobridge")
                .get();
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }

    private static List<X509Certificate> bundle(String caBundle) {
        return Certificates.parseCertificates(decode(caBundle));
    }

    private int writes() {
        return RecordingDispatcher.of(cluster()).writes("/secrets/").size()
                + RecordingDispatcher.of(cluster()).writes("/secrets?").size()
                + RecordingDispatcher.of(cluster())
                        .writes("webhookconfigurations")
                        .size();
    }

    private RequestSpecification https() {
        return given().relaxedHTTPSValidation().baseUri("https://localhost").port(AdmissionServers.port(controller));
    }

    private X509Certificate presented() throws Exception {
        return WebhookServerTest.presented(
                WebhookServerTest.trusting(new ServingCertificate(
                        controller.serving().certificate(),
                        controller.serving().key(),
                        bundle(mutating().getWebhooks().get(0).getClientConfig().getCaBundle()),
                        null)),
                AdmissionServers.port(controller));
    }

    @Test
    void bootstrapMakesTheSecretAndRegistersBothWebhooksWithItsCa() throws Exception {
        Secret secret = secret();
        assertThat(secret.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "topobridge");
        String caPem = decode(secret.getData().get("ca.crt"));

        MutatingWebhook pods = mutating().getWebhooks().get(0);
        assertThat(mutating().getWebhooks())
                .extracting(MutatingWebhook::getName)
                .containsExactly("pods.topobridge.io", "podgroups.topobridge.io");
        MutatingWebhook podGroups = mutating().getWebhooks().get(1);
        assertThat(decode(podGroups.getClientConfig().getCaBundle())).isEqualTo(caPem);
        assertThat(podGroups.getClientConfig().getService().getPath()).isEqualTo("/mutate/podgroups");
        assertThat(podGroups.getRules()).singleElement().satisfies(r -> {
            assertThat(r.getApiGroups()).containsExactly("scheduling.volcano.sh");
            assertThat(r.getResources()).containsExactly("podgroups");
            assertThat(r.getOperations()).containsExactly("CREATE", "UPDATE");
        });
        assertThat(podGroups.getObjectSelector().getMatchExpressions())
                .singleElement()
                .satisfies(e -> assertThat(e.getKey()).isEqualTo("app.kubernetes.io/managed-by"));
        assertThat(pods.getName()).isEqualTo("pods.topobridge.io");
        assertThat(decode(pods.getClientConfig().getCaBundle())).isEqualTo(caPem);
        assertThat(pods.getClientConfig().getService().getName()).isEqualTo("topobridge-webhook");
        assertThat(pods.getClientConfig().getService().getNamespace()).isEqualTo(NS);
        assertThat(pods.getClientConfig().getService().getPath()).isEqualTo("/mutate/pods");
        assertThat(pods.getClientConfig().getService().getPort()).isEqualTo(443);
        assertThat(pods.getFailurePolicy()).isEqualTo("Ignore");
        assertThat(pods.getSideEffects()).isEqualTo("None");
        assertThat(pods.getTimeoutSeconds()).isEqualTo(3);
        assertThat(pods.getAdmissionReviewVersions()).containsExactly("v1");
        assertThat(pods.getMatchPolicy()).isEqualTo("Equivalent");
        assertThat(pods.getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getOperations()).containsExactly("CREATE");
            assertThat(rule.getResources()).containsExactly("pods");
            assertThat(rule.getApiGroups()).containsExactly("");
        });
        assertThat(pods.getNamespaceSelector().getMatchExpressions())
                .containsExactly(
                        new LabelSelectorRequirement("topobridge.io/enabled", "In", List.of("true")),
                        new LabelSelectorRequirement(
                                "kubernetes.io/metadata.name", "NotIn", List.of("kube-system", "default")));
        assertThat(pods.getObjectSelector().getMatchExpressions())
                .containsExactly(
                        new LabelSelectorRequirement("app.kubernetes.io/name", "NotIn", List.of("topobridge")));

        ValidatingWebhook workloads = validating().getWebhooks().get(0);
        assertThat(workloads.getName()).isEqualTo("workloads.topobridge.io");
        assertThat(decode(workloads.getClientConfig().getCaBundle())).isEqualTo(caPem);
        assertThat(workloads.getClientConfig().getService().getPath()).isEqualTo("/validate/workloads");
        assertThat(workloads.getRules())
                .extracting(r -> r.getResources().get(0))
                .containsExactlyInAnyOrder(
                        "stormservices",
                        "rolesets",
                        "leaderworkersets",
                        "disaggregatedsets",
                        "deployments",
                        "statefulsets");
        assertThat(workloads.getRules())
                .allSatisfy(r -> assertThat(r.getOperations()).containsExactly("CREATE", "UPDATE"));
        // workloads are managed in opted-in namespaces only (topobridge.workloads.require-namespace-opt-in=true)
        assertThat(workloads.getNamespaceSelector().getMatchExpressions())
                .containsExactly(
                        new LabelSelectorRequirement("topobridge.io/enabled", "In", List.of("true")),
                        new LabelSelectorRequirement(
                                "kubernetes.io/metadata.name", "NotIn", List.of("kube-system", "default")));

        // the server presents the Secret's certificate, and it verifies against the registered caBundle
        X509Certificate served = presented();
        assertThat(served)
                .isEqualTo(
                        Certificates.parseCertificates(decode(secret.getData().get("tls.crt")))
                                .get(0));
        assertThat(Certificates.dnsNames(served))
                .contains("topobridge-webhook.default.svc", "topobridge-webhook.default.svc.cluster.local");
    }

    @Test
    void aCheckWithNothingChangedWritesNothing() {
        controller.check();
        RecordingDispatcher.of(cluster()).clearLog();
        for (int i = 0; i < 3; i++) {
            controller.check();
        }
        assertThat(writes()).isZero();
    }

    @Test
    void aServingCertificateNearExpiryIsRenewedServedAndTheCaBundleKept() throws Exception {
        controller.check();
        Secret before = secret();
        String caBundle = mutating().getWebhooks().get(0).getClientConfig().getCaBundle();
        var ca = new Certificates.Issued(
                bundle(caBundle).get(0),
                Certificates.parsePrivateKey(decode(before.getData().get("ca.key"))));
        // a certificate that expires in two days, well inside the 30-day renewal margin
        var expiring =
                Certificates.issueServing(ca, NAMES, Instant.now().minus(Duration.ofDays(363)), Duration.ofDays(365));
        storeServing(before, expiring);
        controller.check(); // reloads what the Secret holds … and renews it, since it is due
        RecordingDispatcher.of(cluster()).clearLog();

        X509Certificate stored = Certificates.parseCertificates(
                        decode(secret().getData().get("tls.crt")))
                .get(0);
        assertThat(stored).isNotEqualTo(expiring.certificate());
        assertThat(stored.getNotAfter().toInstant()).isAfter(Instant.now().plus(Duration.ofDays(300)));
        assertThat(presented()).isEqualTo(stored);
        assertThat(mutating().getWebhooks().get(0).getClientConfig().getCaBundle())
                .isEqualTo(caBundle);

        controller.check();
        assertThat(writes()).isZero();
    }

    @Test
    void aCaNearExpiryIsReplacedAndBothWebhooksTrustTheNewAndTheRetiredCa() throws Exception {
        controller.check();
        Instant now = Instant.now();
        var oldCa = Certificates.newCa("expiring-ca", now.minus(Duration.ofDays(100)), Duration.ofDays(110));
        var serving = Certificates.issueServing(oldCa, NAMES, now, Duration.ofDays(365));
        client.secrets()
                .inNamespace(NS)
                .resource(new SecretBuilder(secret())
                        .withData(Map.of(
                                "tls.crt",
                                b64(Certificates.pem(List.of(serving.certificate()))),
                                "tls.key",
                                b64(Certificates.keyPem(serving.key())),
                                "ca.crt",
                                b64(Certificates.pem(List.of(oldCa.certificate()))),
                                "ca.key",
                                b64(Certificates.keyPem(oldCa.key()))))
                        .build())
                .update();

        controller.check();

        List<X509Certificate> pods =
                bundle(mutating().getWebhooks().get(0).getClientConfig().getCaBundle());
        List<X509Certificate> workloads =
                bundle(validating().getWebhooks().get(0).getClientConfig().getCaBundle());
        assertThat(pods).hasSize(2).isEqualTo(workloads);
        assertThat(pods.get(1)).isEqualTo(oldCa.certificate());
        X509Certificate served = presented();
        assertThat(Certificates.signedBy(served, pods.get(0))).isTrue();
        assertThat(served.getNotAfter().toInstant()).isAfter(now.plus(Duration.ofDays(300)));
    }

    @Test
    void aCertificateAnotherReplicaRenewedIsReloadedWithoutWritingTheSecret() throws Exception {
        controller.check();
        Secret current = secret();
        var ca = new Certificates.Issued(
                Certificates.parseCertificates(decode(current.getData().get("ca.crt")))
                        .get(0),
                Certificates.parsePrivateKey(decode(current.getData().get("ca.key"))));
        var theirs = Certificates.issueServing(ca, NAMES, Instant.now(), Duration.ofDays(200));
        storeServing(current, theirs);
        RecordingDispatcher.of(cluster()).clearLog();

        controller.check();
        assertThat(presented()).isEqualTo(theirs.certificate());
        assertThat(writes()).isZero();
    }

    @Test
    void aDriftedWebhookConfigurationIsRestored() {
        controller.check();
        MutatingWebhookConfiguration edited = mutating();
        edited.getWebhooks().get(0).setFailurePolicy("Fail");
        edited.getWebhooks().get(0).getClientConfig().setCaBundle(b64("stale"));
        client.resource(edited).update();
        RecordingDispatcher.of(cluster()).clearLog();

        controller.check();
        MutatingWebhook restored = mutating().getWebhooks().get(0);
        assertThat(restored.getFailurePolicy()).isEqualTo("Ignore");
        assertThat(decode(restored.getClientConfig().getCaBundle()))
                .isEqualTo(decode(secret().getData().get("ca.crt")));
        assertThat(RecordingDispatcher.of(cluster()).writes("mutatingwebhookconfigurations"))
                .hasSize(1);
    }

    @Test
    void everyServedWebhookAnsweredItsWarmUpReviewBeforeRegistration() {
        @SuppressWarnings("unchecked")
        Map<String, Long> answers = (Map<String, Long>) controller.details().get("warmUpAnswerMillis");
        assertThat(answers)
                .as("one warm-up answer per served path, none failed (-1)")
                .containsOnlyKeys(PodMutator.PATH, WorkloadValidator.PATH, PodGroupMutator.PATH)
                .allSatisfy((path, ms) -> assertThat(ms).as(path).isNotNegative());
        assertThat((Long) controller.details().get("warmUpMillis"))
                .isGreaterThanOrEqualTo(
                        answers.values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void theRunningWebhooksAnswerOverHttps() {
        var pod = PendingPod.generated("plain-").label("app", "plain").build();
        var review = Reviews.podCreate("admission-plain", pod);
        https().contentType("application/json")
                .body(review.toString())
                .post("/mutate/pods")
                .then()
                .statusCode(200)
                .body("response.uid", equalTo(Reviews.uid(review)))
                .body("response.allowed", equalTo(true))
                .body("response.patch", nullValue());
        https().contentType("application/json")
                .body("{}")
                .post("/mutate/pods")
                .then()
                .statusCode(400)
                .body("message", containsString("kind is absent, expected AdmissionReview"));
        var deployment =
                Reviews.JSON.createObjectNode().put("apiVersion", "apps/v1").put("kind", "Deployment");
        deployment.putObject("metadata").put("name", "plain").put("namespace", "admission-plain");
        var validation = Reviews.deployment("CREATE", "admission-plain", deployment, null);
        https().contentType("application/json")
                .body(validation.toString())
                .post("/validate/workloads")
                .then()
                .statusCode(200)
                .body("response.allowed", equalTo(true));

        given().get("/q/metrics")
                .then()
                .statusCode(200)
                .body(containsString(
                        "topobridge_admission_reviews_seconds_count{result=\"unchanged\",webhook=\"pods\"}"))
                .body(containsString(
                        "topobridge_admission_reviews_seconds_count{result=\"malformed\",webhook=\"pods\"}"))
                .body(containsString("topobridge_admission_certificate_expiry_seconds "));
    }

    /** Puts {@code serving} in the Secret (as read in {@code read}), as another replica renewing it would. */
    private void storeServing(Secret read, Certificates.Issued serving) {
        client.secrets()
                .inNamespace(NS)
                .resource(new SecretBuilder(read)
                        .addToData(Map.of(
                                "tls.crt",
                                b64(Certificates.pem(List.of(serving.certificate()))),
                                "tls.key",
                                b64(Certificates.keyPem(serving.key()))))
                        .build())
                .update();
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}

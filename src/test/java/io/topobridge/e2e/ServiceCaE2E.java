package io.topobridge.e2e;

import static io.topobridge.e2e.HelmInstallE2E.FULLNAME;
import static io.topobridge.e2e.HelmInstallE2E.NS;
import static io.topobridge.e2e.HelmInstallE2E.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.e2e.AuditLog.Request;
import io.topobridge.testing.FreePort;
import io.topobridge.testing.HelmChart;
import io.topobridge.testing.HelmChart.Rendered;
import io.topobridge.testing.TrustAll;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import io.topobridge.tls.Certificates;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The chart with {@code admission.tls.mode=openshift-service-ca} on the real API server, the test playing OpenShift's
 * service-CA operator: it reads the Secret name from the webhook Service's annotation, writes that Secret (a CA of its
 * own and a serving certificate for the Service's DNS names; {@code tls.crt} and {@code tls.key}, no {@code ca.crt})
 * and injects the CA into every webhook configuration annotated {@code inject-cabundle}. The controller, run as the
 * chart's ServiceAccount with the chart's environment, serves that certificate, both webhooks answer (failure policy
 * Fail, so an unanswered call would refuse the request), and through a rotation (new CA and certificate, the bundle
 * holding both CAs, then only the new one) no call fails. The audit log shows the controller read the Secret and wrote
 * neither it nor any webhook configuration (it only reads them, for the doctor): the caBundle is the injector's alone.
 */
@ExtendWith(RealClusterExtension.class)
class ServiceCaE2E {

    static final String APPS = "service-ca-e2e";
    static final String SERVING_CERT_SECRET = "service.beta.openshift.io/serving-cert-secret-name";
    static final String INJECT_CABUNDLE = "service.beta.openshift.io/inject-cabundle";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int WEBHOOK_PORT = FreePort.find();

    static final Map<String, Object> VALUES = Map.of(
            "admission.tls.mode", "openshift-service-ca",
            "admission.tls.checkInterval", "2s",
            "admission.podFailurePolicy", "Fail",
            "admission.workloadFailurePolicy", "Fail",
            "replicaCount", 1);

    private final RealCluster cluster;
    private final KubernetesClient admin;
    private final Rendered chart = HelmChart.render(FULLNAME, NS, VALUES);
    private Bridge bridge;

    ServiceCaE2E(RealCluster cluster) {
        this.cluster = cluster;
        this.admin = cluster.client();
    }

    @Test
    void theBridgeServesTheOperatorsCertificateThroughARotationAndNeverWritesACaBundle() throws Exception {
        Map<String, String> env = chart.controllerEnv();
        String secretName = env.get("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME");
        cluster.stopBridge();
        removeWebhookConfigurationsAndSecret(secretName);
        long mark = cluster.audit().mark();
        install(kind -> true);

        // the service-CA operator's part: the Secret the Service asks for, the CA in every configuration that asks
        String asked = admin.services()
                .inNamespace(NS)
                .withName(env.get("TOPOBRIDGE_ADMISSION_SERVICE_NAME"))
                .get()
                .getMetadata()
                .getAnnotations()
                .get(SERVING_CERT_SECRET);
        assertThat(asked).isEqualTo(secretName);
        Certificates.Issued firstCa = newCa(1);
        X509Certificate first = serve(secretName, firstCa);
        injectCaBundle(List.of(firstCa));

        bridge = startBridge();
        cluster.waitFor("the controller ready", TIMEOUT, () -> {
            bridge.process().assertAlive();
            return bridge.get("/q/health/ready").statusCode() == 200;
        });
        assertThat(servedCertificate()).isEqualTo(first);
        cluster.createOptedInNamespace(APPS);
        cluster.waitFor(
                "the default ServiceAccount in " + APPS,
                TIMEOUT,
                () -> admin.serviceAccounts()
                                .inNamespace(APPS)
                                .withName("default")
                                .get()
                        != null);
        bothWebhooksAnswer();

        // a helm upgrade applies the chart's configurations again: they carry no caBundle, so the injected one stays
        String injected = caBundles().get(0);
        install(kind -> kind.endsWith("WebhookConfiguration"));
        assertThat(caBundles()).containsOnly(injected);

        // rotation: the bundle first holds both CAs, the Secret gets the new CA's certificate, then the old CA goes
        List<String> failures = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean probing = new AtomicBoolean(true);
        Thread prober = new Thread(() -> {
            while (probing.get()) {
                try {
                    podAdmitted("probe-" + calls.incrementAndGet());
                } catch (RuntimeException e) {
                    failures.add(e.getMessage());
                }
                RealCluster.sleep(Duration.ofMillis(200));
            }
        });
        prober.setDaemon(true);
        prober.start();
        Certificates.Issued nextCa = newCa(2);
        long reloadMillis;
        try {
            RealCluster.sleep(Duration.ofSeconds(1));
            injectCaBundle(List.of(nextCa, firstCa));
            RealCluster.sleep(Duration.ofSeconds(1));
            X509Certificate next = serve(secretName, nextCa);
            long rotated = System.nanoTime();
            cluster.waitFor(
                    "the controller serving the new certificate", TIMEOUT, () -> next.equals(servedCertificate()));
            reloadMillis = (System.nanoTime() - rotated) / 1_000_000;
            injectCaBundle(List.of(nextCa));
            RealCluster.sleep(Duration.ofSeconds(3));
        } finally {
            probing.set(false);
            prober.join(10_000);
        }
        System.out.printf(
                "service-CA rotation: %d admission calls, %d failed; the new certificate served %d ms after the "
                        + "Secret changed%n",
                calls.get(), failures.size(), reloadMillis);
        assertThat(failures)
                .as("admission calls that failed during the rotation")
                .isEmpty();
        assertThat(calls.get()).isGreaterThan(10);
        // only the new CA is trusted now: the webhooks answer with the reloaded certificate
        bothWebhooksAnswer();
        String onlyNext = base64(Certificates.pem(List.of(nextCa.certificate())));
        assertThat(caBundles()).containsOnly(onlyNext);

        bridge.stop(); // its watches end and are audited
        List<Request> requests =
                cluster.audit().requestsSince(mark, r -> r.user().equals(USER));
        // in other namespaces a 403 may also be a namespace still terminating (an earlier class's): not RBAC's
        assertThat(requests)
                .filteredOn(r -> r.forbidden()
                        && (r.namespace().isEmpty() || r.namespace().equals(NS)))
                .as("requests RBAC refused")
                .isEmpty();
        assertThat(requests)
                .filteredOn(r -> r.resource().equals("secrets"))
                .as("the Secret is read, never written")
                .isNotEmpty()
                .extracting(Request::verb)
                .containsOnly("get");
        assertThat(requests)
                .filteredOn(r -> r.resource().endsWith("webhookconfigurations")
                        && !r.verb().equals("get"))
                .as("the controller only reads the webhook configurations (the doctor's webhooks check)")
                .isEmpty();
        assertThat(cluster.audit()
                        .writesSince(
                                mark,
                                w -> w.resource().endsWith("webhookconfigurations")
                                        && !w.user().equals(RealCluster.ADMIN)))
                .as("writes to the configurations by anyone but the installer and the operator stand-in")
                .isEmpty();
    }

    /** Both webhooks are called and answer: failure policy Fail would refuse the requests otherwise. */
    private void bothWebhooksAnswer() {
        podAdmitted("answer");
        Throwable refused = catchThrowable(() -> admin.apps()
                .deployments()
                .inNamespace(APPS)
                .resource(DeploymentWrapper.make("bad", null)
                        .highestTier("leaf")
                        .annotation("topobridge.io/mode", "sideways")
                        .replicas(1)
                        .cpu("1")
                        .schedulerName(null)
                        .obj())
                .dryRun()
                .create());
        assertThat(refused)
                .as("the workload webhook's own refusal")
                .hasMessageContaining("topobridge.io/mode")
                .hasMessageContaining("sideways");
    }

    /** A pod created (dry run) in the opted-in namespace: the pod webhook was called and answered. */
    private void podAdmitted(String name) {
        admin.pods()
                .inNamespace(APPS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("app")
                        .withImage("registry.example.com/app:1")
                        .endContainer()
                        .endSpec()
                        .build())
                .dryRun()
                .create();
    }

    // ---- the service-CA operator's part ----------------------------------------------------------------------

    private static Certificates.Issued newCa(int generation) {
        return Certificates.newCa(
                "openshift-service-serving-signer@" + generation, Instant.now(), Duration.ofDays(790));
    }

    /** Writes the Secret as the operator does (tls.crt, tls.key, no ca.crt); returns the serving certificate. */
    private X509Certificate serve(String secretName, Certificates.Issued ca) {
        String service = chart.controllerEnv().get("TOPOBRIDGE_ADMISSION_SERVICE_NAME");
        Certificates.Issued serving = Certificates.issueServing(
                ca,
                List.of(service + "." + NS + ".svc", service + "." + NS + ".svc.cluster.local"),
                Instant.now(),
                Duration.ofDays(730));
        admin.secrets()
                .inNamespace(NS)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(secretName)
                        .withNamespace(NS)
                        .addToAnnotations("service.beta.openshift.io/originating-service-name", service)
                        .endMetadata()
                        .withType("kubernetes.io/tls")
                        .addToData("tls.crt", base64(Certificates.pem(List.of(serving.certificate()))))
                        .addToData("tls.key", base64(Certificates.keyPem(serving.key())))
                        .build())
                .createOr(existing -> existing.update());
        return serving.certificate();
    }

    /** Sets the caBundle of every webhook of the configurations annotated {@code inject-cabundle: "true"}. */
    private void injectCaBundle(List<Certificates.Issued> cas) {
        String bundle = base64(Certificates.pem(
                cas.stream().map(Certificates.Issued::certificate).toList()));
        var registration = admin.admissionRegistration().v1();
        int injected = 0;
        for (MutatingWebhookConfiguration c :
                registration.mutatingWebhookConfigurations().list().getItems()) {
            if (asksForInjection(c)) {
                injected++;
                registration
                        .mutatingWebhookConfigurations()
                        .withName(c.getMetadata().getName())
                        .edit(e -> {
                            e.getWebhooks().forEach(w -> w.getClientConfig().setCaBundle(bundle));
                            return e;
                        });
            }
        }
        for (ValidatingWebhookConfiguration c :
                registration.validatingWebhookConfigurations().list().getItems()) {
            if (asksForInjection(c)) {
                injected++;
                registration
                        .validatingWebhookConfigurations()
                        .withName(c.getMetadata().getName())
                        .edit(e -> {
                            e.getWebhooks().forEach(w -> w.getClientConfig().setCaBundle(bundle));
                            return e;
                        });
            }
        }
        assertThat(injected).as("configurations that asked for the CA").isEqualTo(2);
        assertThat(caBundles()).as("every webhook's caBundle").hasSize(3).containsOnly(bundle);
    }

    private static boolean asksForInjection(HasMetadata object) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        return annotations != null && "true".equals(annotations.get(INJECT_CABUNDLE));
    }

    /** The caBundle of each webhook of the chart's two configurations. */
    private List<String> caBundles() {
        var registration = admin.admissionRegistration().v1();
        List<String> out = new ArrayList<>();
        registration
                .mutatingWebhookConfigurations()
                .withName(FULLNAME)
                .get()
                .getWebhooks()
                .forEach(w -> out.add(w.getClientConfig().getCaBundle()));
        registration
                .validatingWebhookConfigurations()
                .withName(FULLNAME)
                .get()
                .getWebhooks()
                .forEach(w -> out.add(w.getClientConfig().getCaBundle()));
        return out;
    }

    // ---- install and run -------------------------------------------------------------------------------------

    /**
     * Applies what {@code helm install} applies. The webhook configurations name the port the API server reaches this
     * machine's controller on (the stand-in for the chart's Service is an ExternalName Service, whose port is the
     * one the configuration names); nothing else differs. {@code kinds} chooses what is applied.
     */
    private void install(java.util.function.Predicate<String> kinds) {
        for (JsonNode document : chart.objects()) {
            if (!kinds.test(document.path("kind").asText())) {
                continue;
            }
            ObjectNode object = document.deepCopy();
            if (object.path("kind").asText().endsWith("WebhookConfiguration")) {
                object.path("webhooks")
                        .forEach(w -> ((ObjectNode) w.path("clientConfig").path("service"))
                                .set("port", IntNode.valueOf(WEBHOOK_PORT)));
            }
            HasMetadata resource = admin.getKubernetesSerialization().convertValue(object, HasMetadata.class);
            admin.resource(resource).fieldManager("helm").forceConflicts().serverSideApply();
        }
    }

    private Bridge startBridge() {
        String token = RealCluster.token(admin, NS, FULLNAME);
        Bridge.Builder builder = Bridge.on(cluster, "topobridge-service-ca")
                .kubeconfig(cluster.writeKubeconfig("serviceaccount-" + FULLNAME, token))
                .webhookPort(WEBHOOK_PORT);
        chart.controllerEnv().forEach(builder::env);
        return builder.start();
    }

    /** The certificate the controller's webhook port presents. */
    private X509Certificate servedCertificate() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new javax.net.ssl.TrustManager[] {new TrustAll()}, null);
            try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", WEBHOOK_PORT)) {
                socket.startHandshake();
                return (X509Certificate) socket.getSession().getPeerCertificates()[0];
            }
        } catch (Exception e) {
            return null;
        }
    }

    private void removeWebhookConfigurationsAndSecret(String secretName) {
        var registration = admin.admissionRegistration().v1();
        registration.mutatingWebhookConfigurations().withName(FULLNAME).delete();
        registration.validatingWebhookConfigurations().withName(FULLNAME).delete();
        admin.secrets().inNamespace(NS).withName(secretName).delete();
        cluster.waitFor(
                "the configurations and the Secret gone",
                TIMEOUT,
                () -> registration
                                        .mutatingWebhookConfigurations()
                                        .withName(FULLNAME)
                                        .get()
                                == null
                        && registration
                                        .validatingWebhookConfigurations()
                                        .withName(FULLNAME)
                                        .get()
                                == null
                        && admin.secrets().inNamespace(NS).withName(secretName).get() == null);
    }

    /** Leaves no configuration with failure policy Fail behind, nor the chart's objects, for the fork's next class. */
    @AfterEach
    void uninstall() {
        if (bridge != null) {
            bridge.stop();
        }
        for (HasMetadata object : chart.resources(admin.getKubernetesSerialization())) {
            admin.resource(object).delete();
        }
        removeWebhookConfigurationsAndSecret(chart.controllerEnv().get("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME"));
        admin.namespaces().withName(APPS).delete();
        for (HasMetadata object : chart.resources(admin.getKubernetesSerialization())) {
            cluster.waitFor(
                    object.getKind() + " " + object.getMetadata().getName() + " gone",
                    TIMEOUT,
                    () -> admin.resource(object).get() == null);
        }
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}

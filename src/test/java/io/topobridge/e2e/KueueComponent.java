package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.topobridge.testing.FreePort;
import io.topobridge.tls.Certificates;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Kueue with Topology-Aware Scheduling in a {@link RealCluster}, started on demand: its controller manager (the
 * pinned module's build, its CRDs with their conversion webhooks, the webhooks of plain pods and of its own kinds
 * pointed at this machine, leader election off, only the {@code pod} integration on), and kube-scheduler, which binds
 * the pods Kueue admits (scheduler name {@code default-scheduler}; Volcano keeps {@code volcano}). Kueue manages its
 * own webhook certificate, projected into its certificate folder as a kubelet would: with that off, v0.17 reads its
 * metrics certificate from a fixed {@code /etc/kueue/metrics/certs} and exits without one. {@link #stop()} removes
 * the webhook configurations before it stops the processes, so that no pod creation waits on a Kueue that is gone.
 */
public final class KueueComponent {

    /** The namespace of Kueue's webhook Service. */
    static final String NAMESPACE = "kueue-system";

    private static final String CONTROLLER = "kueue-controller-manager";
    private static final String SCHEDULER = "kube-scheduler";
    /** Kueue's defaults: its certificate rotator derives the webhook configurations' names from the Service's. */
    private static final String SERVICE = "kueue-webhook-service";

    private static final String SECRET = "kueue-webhook-server-cert";
    private static final String MUTATING = "kueue-mutating-webhook-configuration";
    private static final String VALIDATING = "kueue-validating-webhook-configuration";
    /** Only pods that name a Kueue queue reach its pod webhooks; every other pod of the cluster never waits on it. */
    private static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";

    private final RealCluster cluster;
    private final int webhookPort = FreePort.find();
    /** The authority of kube-scheduler's serving certificate, once installed. */
    private Certificates.Issued ca;

    private SecretProjection certs;

    private static Path built;

    KueueComponent(RealCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Kueue's build ({@code bin}: kueue and kube-scheduler; {@code module}: Kueue's CRDs and webhook manifests), built or
     * linked from its cache by {@code src/test/go/kueue.sh} on first use.
     */
    static synchronized Path built() {
        if (built != null) {
            return built;
        }
        Path out = Path.of("target", "e2e").toAbsolutePath();
        try {
            Process build = new ProcessBuilder("bash", "src/test/go/kueue.sh", out.toString())
                    .inheritIO()
                    .start();
            if (build.waitFor() != 0) {
                throw new IllegalStateException(
                        "building Kueue failed (exit " + build.exitValue() + ", src/test/go/kueue.sh)");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run src/test/go/kueue.sh", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Path dir = out.resolve("kueue");
        for (String name : List.of("kueue", SCHEDULER)) {
            if (!Files.isExecutable(dir.resolve("bin").resolve(name))) {
                throw new IllegalStateException(name + " is missing under " + dir.resolve("bin"));
            }
        }
        built = dir;
        return built;
    }

    /** Whether Kueue and kube-scheduler run. */
    public synchronized boolean running() {
        return cluster.running(CONTROLLER).isPresent();
    }

    /**
     * Starts kube-scheduler and Kueue's controller manager, once their CRDs, certificates and webhook configurations
     * are in place, and waits until both are ready and Kueue's webhooks answer; a running Kueue is left as it is.
     */
    public synchronized void start() {
        if (running()) {
            return;
        }
        if (ca == null) {
            install();
        }
        installWebhookConfigurations();
        startScheduler();
        int probe = FreePort.find();
        Path config = cluster.runDir().resolve("kueue-config.yaml");
        write(config, """
                apiVersion: config.kueue.x-k8s.io/v1beta2
                kind: Configuration
                namespace: %s
                leaderElection:
                  leaderElect: false
                %s
                featureGates:
                  VisibilityOnDemand: false
                integrations:
                  frameworks:
                  - pod
                """.formatted(NAMESPACE, ControllerServing.yaml(webhookPort, certDir(), probe)));
        cluster.launch(
                CONTROLLER,
                List.of(
                        built().resolve("bin").resolve("kueue").toString(),
                        "--kubeconfig=" + cluster.kubeconfig("kueue"),
                        "--config=" + config,
                        "--zap-log-level=2"),
                Map.of());
        cluster.waitFor(
                "Kueue's controller manager and its webhooks",
                Duration.ofSeconds(120),
                () -> cluster.httpOk("http://127.0.0.1:" + probe + "/readyz", null)
                        && ControllerServing.caInjected(cluster.client(), MUTATING, VALIDATING)
                        && webhookAnswers());
    }

    /** Removes Kueue's webhook configurations, then stops Kueue and kube-scheduler; what Kueue made stays. */
    public synchronized void stop() {
        var admission = cluster.client().admissionRegistration().v1();
        admission.mutatingWebhookConfigurations().withName(MUTATING).delete();
        admission.validatingWebhookConfigurations().withName(VALIDATING).delete();
        cluster.stop(CONTROLLER, Duration.ofSeconds(10));
        cluster.stop(SCHEDULER, Duration.ofSeconds(10));
    }

    private Path certDir() {
        return cluster.runDir().resolve("kueue-certs");
    }

    /**
     * Once per cluster: the namespace, the webhook Service leading here, the Secret Kueue's rotator fills (projected
     * into its certificate folder), kube-scheduler's certificate and the CRDs.
     */
    private void install() {
        var client = cluster.client();
        if (client.namespaces().withName(NAMESPACE).get() == null) {
            client.resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(NAMESPACE)
                            .endMetadata()
                            .build())
                    .create();
        }
        client.services()
                .inNamespace(NAMESPACE)
                .resource(RealCluster.externalName(SERVICE, webhookPort))
                .fieldManager("e2e")
                .forceConflicts()
                .serverSideApply();
        client.secrets()
                .inNamespace(NAMESPACE)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(SECRET)
                        .endMetadata()
                        .build())
                .fieldManager("e2e")
                .serverSideApply();
        certs = SecretProjection.start(client, NAMESPACE, SECRET, certDir());
        Instant now = Instant.now();
        Certificates.Issued authority = Certificates.newCa("kube-scheduler-e2e-ca", now, Duration.ofDays(2));
        Certificates.Issued serving =
                Certificates.issueServing(authority, List.of("localhost"), now, Duration.ofDays(2));
        write(cluster.runDir().resolve("kube-scheduler.crt"), Certificates.pem(List.of(serving.certificate())));
        write(cluster.runDir().resolve("kube-scheduler.key"), Certificates.keyPem(serving.key()));
        List<CustomResourceDefinition> crds = new ArrayList<>();
        for (Path file : RealCluster.yamlFiles(built().resolve("module").resolve("config/components/crd/bases"))) {
            try (InputStream in = Files.newInputStream(file)) {
                for (HasMetadata object : client.load(in).items()) {
                    crds.add(withConversionWebhook((CustomResourceDefinition) object));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        cluster.installCrdObjects(crds);
        ca = authority;
    }

    /**
     * The CRD with the conversion webhook Kueue's kustomization adds to the kinds it serves in two versions (the
     * rotator injects its CA there too, and fails on a CRD without one).
     */
    private CustomResourceDefinition withConversionWebhook(CustomResourceDefinition crd) {
        if (CONVERTED.contains(crd.getMetadata().getName())) {
            crd.getSpec()
                    .setConversion(new CustomResourceConversionBuilder()
                            .withStrategy("Webhook")
                            .withNewWebhook()
                            .withConversionReviewVersions("v1")
                            .withNewClientConfig()
                            .withNewService()
                            .withNamespace(NAMESPACE)
                            .withName(SERVICE)
                            .withPath("/convert")
                            .withPort(webhookPort)
                            .endService()
                            .endClientConfig()
                            .endWebhook()
                            .build());
        }
        return crd;
    }

    /** The CRDs Kueue's kustomization gives a conversion webhook (config/components/crd/kustomization.yaml). */
    private static final java.util.Set<String> CONVERTED = java.util.Set.of(
            "localqueues.kueue.x-k8s.io",
            "clusterqueues.kueue.x-k8s.io",
            "cohorts.kueue.x-k8s.io",
            "workloads.kueue.x-k8s.io",
            "multikueueclusters.kueue.x-k8s.io");

    /**
     * Kueue's own webhook manifests, for plain pods and for Kueue's kinds only (the other integrations are off and
     * their webhooks would refuse every Deployment while Kueue runs), pointed at its Service; Kueue injects its CA.
     */
    private void installWebhookConfigurations() {
        var client = cluster.client();
        try (InputStream in =
                Files.newInputStream(built().resolve("module").resolve("config/components/webhook/manifests.yaml"))) {
            for (HasMetadata object : client.load(in).items()) {
                if (object instanceof MutatingWebhookConfiguration m) {
                    m.getMetadata().setName(MUTATING);
                    m.setWebhooks(pointed(m.getWebhooks(), MutatingWebhook::getClientConfig));
                } else if (object instanceof ValidatingWebhookConfiguration v) {
                    v.getMetadata().setName(VALIDATING);
                    v.setWebhooks(pointed(v.getWebhooks(), ValidatingWebhook::getClientConfig));
                }
                client.resource(object).fieldManager("e2e").forceConflicts().serverSideApply();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The webhooks of Kueue's that the tier serves, pointed at its Service and, for pods, at queued pods only. */
    private <W> List<W> pointed(List<W> webhooks, Function<W, WebhookClientConfig> config) {
        return webhooks.stream()
                .filter(w -> served(config.apply(w)))
                .peek(w -> point(config.apply(w)))
                .peek(KueueComponent::podsWithQueue)
                .toList();
    }

    private static boolean served(WebhookClientConfig config) {
        String path = config.getService().getPath();
        return path.endsWith("-v1-pod") || path.contains("-kueue-x-k8s-io-");
    }

    private void point(WebhookClientConfig config) {
        config.getService().setName(SERVICE);
        config.getService().setNamespace(NAMESPACE);
        config.getService().setPort(webhookPort);
    }

    private static void podsWithQueue(Object webhook) {
        var selector = new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey(QUEUE_LABEL)
                .withOperator("Exists")
                .endMatchExpression()
                .build();
        if (webhook instanceof MutatingWebhook m
                && m.getClientConfig().getService().getPath().endsWith("-v1-pod")) {
            m.setObjectSelector(selector);
        } else if (webhook instanceof ValidatingWebhook v
                && v.getClientConfig().getService().getPath().endsWith("-v1-pod")) {
            v.setObjectSelector(selector);
        }
    }

    /** Whether the API server reaches Kueue's webhooks: a dry-run ResourceFlavor passes its defaulting webhook. */
    private boolean webhookAnswers() {
        var flavor = new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                .withApiVersion(KueueTas.API_VERSION)
                .withKind("ResourceFlavor")
                .withNewMetadata()
                .withName("kueue-e2e-probe")
                .endMetadata()
                .build();
        cluster.client().resource(flavor).dryRun().create();
        return true;
    }

    /** kube-scheduler with its defaults, GPUs bin-packed when asked ({@link RealCluster#kubeSchedulerConfig}). */
    private void startScheduler() {
        int port = FreePort.find();
        Path config = cluster.kubeSchedulerConfig(SCHEDULER);
        cluster.launch(
                SCHEDULER,
                List.of(
                        built().resolve("bin").resolve(SCHEDULER).toString(),
                        "--config=" + config,
                        "--bind-address=127.0.0.1",
                        "--secure-port=" + port,
                        "--tls-cert-file=" + cluster.runDir().resolve("kube-scheduler.crt"),
                        "--tls-private-key-file=" + cluster.runDir().resolve("kube-scheduler.key"),
                        "-v=1"),
                Map.of());
        // HTTP/1.1: kube-scheduler's server ends the JDK client's HTTP/2 stream with a GOAWAY before it answers
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(RealCluster.trusting(ca.certificate()))
                .build();
        cluster.waitFor(
                "kube-scheduler",
                Duration.ofSeconds(90),
                () -> RealCluster.answersOk(
                        http,
                        HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/healthz"))
                                .timeout(Duration.ofSeconds(3))
                                .build()));
    }

    /** Closes the projection of Kueue's certificate Secret (the cluster stops the processes). */
    void close() {
        if (certs != null) {
            certs.close();
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

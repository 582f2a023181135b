package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.topobridge.testing.FreePort;
import io.topobridge.testing.Upstream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The LeaderWorkerSet controller of a {@link RealCluster} (it also serves DisaggregatedSet): its configuration, its
 * webhook configurations pointed at this machine, and the certificate its rotator makes, projected into the folder
 * its webhook server reads, as a kubelet would. It runs the pinned release, or for an upgrade test the release
 * before it ({@link #previous()}), each with its own CRDs and webhook configurations.
 */
final class LwsComponent implements AutoCloseable {

    /** One LeaderWorkerSet release: its version, its built controller and its module (CRDs, webhook manifests). */
    record Release(String version, Path controller, Path module) {

        /** Whether this release serves DisaggregatedSet (its module has the CRD). */
        boolean servesDisaggregatedSet() {
            return Files.isRegularFile(
                    module.resolve("config/crd/bases/disaggregatedset.x-k8s.io_disaggregatedsets.yaml"));
        }
    }

    private final RealCluster cluster;
    private final Path root;
    private final int webhookPort = FreePort.find();
    private boolean volcanoProvider;
    private Release release;

    LwsComponent(RealCluster cluster, Path root) {
        this.cluster = cluster;
        this.root = root;
    }

    /** The release {@code src/test/go/build.sh} pins. */
    Release pinned() {
        return new Release("pinned", Path.of(cluster.binary("lws-controller")), Upstream.module("lws"));
    }

    /**
     * The release before the pinned one, when the build made it ({@code -Dtopobridge.e2e.lwsPrevious}, built by
     * {@code src/test/go/older-lws.sh}); empty when the property is {@code none}.
     */
    Optional<Release> previous() {
        String version =
                System.getProperty("topobridge.e2e.lwsPrevious", "none").trim();
        if (version.isEmpty() || version.equals("none")) {
            return Optional.empty();
        }
        Path dir = root.resolve("lws-" + version);
        Path controller = dir.resolve("bin").resolve("lws-controller");
        if (!Files.isRegularFile(controller) || !Files.isDirectory(dir.resolve("module"))) {
            throw new IllegalStateException("LeaderWorkerSet " + version + " is not built under " + dir
                    + ": ./mvnw builds it in pre-integration-test (src/test/go/older-lws.sh)");
        }
        return Optional.of(new Release(version, controller, dir.resolve("module")));
    }

    /** The release running now. */
    Release release() {
        return release == null ? pinned() : release;
    }

    /**
     * Replaces the running controller by {@code next}'s, as an upgrade (or a rollback) does: the controller stops,
     * {@code next}'s CRDs replace the installed ones (a CRD it lacks stays, as {@code kubectl apply} of a release
     * leaves it), its webhook configurations replace the running ones, and its controller starts with the same gang
     * provider.
     */
    synchronized void replaceBy(Release next) {
        cluster.running("lws-controller").ifPresent(c -> c.stop(Duration.ofSeconds(10)));
        cluster.installCrds(RealCluster.yamlFiles(next.module().resolve("config/crd/bases")));
        deleteLwsWebhookConfigurations();
        release = next;
        installLwsWebhookConfigurations();
        start(volcanoProvider);
    }

    /** The port its webhook server listens on (its Service in the cluster leads there). */
    int webhookPort() {
        return webhookPort;
    }

    /**
     * (Re)starts the LeaderWorkerSet controller, with or without its Volcano gang provider (which then
     * makes a PodGroup per LWS group and stamps pods with it). Its webhook server serves a certificate it
     * issues itself and injects into its webhook configurations.
     */
    synchronized void start(boolean volcanoProvider) {
        Component old = cluster.running("lws-controller").orElse(null);
        if (old != null) {
            old.stop(Duration.ofSeconds(10));
        }
        int probe = FreePort.find();
        Path config = cluster.runDir().resolve("lws-config.yaml");
        try {
            Files.writeString(config, """
                    apiVersion: config.lws.x-k8s.io/v1alpha1
                    kind: Configuration
                    leaderElection:
                      leaderElect: false
                      resourceNamespace: %s
                    %s
                    %s
                    """.formatted(
                            RealCluster.LWS_NAMESPACE,
                            ControllerServing.yaml(webhookPort, cluster.runDir().resolve("lws-certs"), probe),
                            volcanoProvider ? "gangSchedulingManagement:\n  schedulerProvider: volcano\n" : ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (old == null) {
            installLwsWebhookConfigurations();
        }
        mountLwsCertificates();
        cluster.launch(
                "lws-controller",
                List.of(
                        release().controller().toString(),
                        "--kubeconfig=" + cluster.kubeconfig("lws"),
                        "--config=" + config,
                        "--zap-log-level=info"),
                Map.of());
        this.volcanoProvider = volcanoProvider;
        cluster.waitFor(
                "the LeaderWorkerSet controller and its webhooks",
                Duration.ofSeconds(90),
                () -> cluster.httpOk("http://127.0.0.1:" + probe + "/readyz", null)
                        && ControllerServing.caInjected(
                                cluster.client(),
                                "lws-mutating-webhook-configuration",
                                "lws-validating-webhook-configuration"));
    }

    private SecretProjection certs;

    /** Keeps the Secret its certificate rotator fills projected into the folder its webhook server reads. */
    private void mountLwsCertificates() {
        if (certs == null) {
            certs = SecretProjection.start(
                    cluster.client(),
                    RealCluster.LWS_NAMESPACE,
                    "lws-webhook-server-cert",
                    cluster.runDir().resolve("lws-certs"));
        }
    }

    boolean volcanoProvider() {
        return volcanoProvider;
    }

    /** LWS's own webhook manifests, named and pointed at its Service as its kustomization does. */
    private void installLwsWebhookConfigurations() {
        try (InputStream in = Files.newInputStream(release().module().resolve("config/webhook/manifests.yaml"))) {
            for (HasMetadata object : cluster.client().load(in).items()) {
                object.getMetadata().setName("lws-" + object.getMetadata().getName());
                if (object
                        instanceof
                        io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration m) {
                    m.getWebhooks().forEach(w -> pointAtService(w.getClientConfig()));
                } else if (object
                        instanceof
                        io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration v) {
                    v.getWebhooks().forEach(w -> pointAtService(w.getClientConfig()));
                }
                cluster.client().resource(object).create();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void pointAtService(WebhookClientConfig config) {
        config.getService().setName("lws-webhook-service");
        config.getService().setNamespace(RealCluster.LWS_NAMESPACE);
        config.getService().setPort(webhookPort);
    }

    private void deleteLwsWebhookConfigurations() {
        var admission = cluster.client().admissionRegistration().v1();
        admission
                .mutatingWebhookConfigurations()
                .withName("lws-mutating-webhook-configuration")
                .delete();
        admission
                .validatingWebhookConfigurations()
                .withName("lws-validating-webhook-configuration")
                .delete();
        cluster.waitFor(
                "LeaderWorkerSet's webhook configurations to go",
                Duration.ofSeconds(30),
                () -> admission
                                        .mutatingWebhookConfigurations()
                                        .withName("lws-mutating-webhook-configuration")
                                        .get()
                                == null
                        && admission
                                        .validatingWebhookConfigurations()
                                        .withName("lws-validating-webhook-configuration")
                                        .get()
                                == null);
    }

    @Override
    public void close() {
        if (certs != null) {
            certs.close();
        }
    }
}

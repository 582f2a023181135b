package io.topobridge.devcluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.quarkus.arc.profile.IfBuildProfile;
import io.topobridge.config.DevClusterConfig;
import io.topobridge.config.TopobridgeConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Dev mode only: when no cluster is configured (no kubeconfig, no API server URL, not in a pod), the
 * controller runs against an embedded API server on loopback seeded from {@code examples/}, so
 * {@code ./mvnw quarkus:dev} shows HyperNodes and PodGroups appear with no cluster at all. With
 * {@code topobridge.dev-cluster.kind=real} it runs against the real components instead ({@link RealDevCluster}).
 */
@IfBuildProfile("dev")
@ApplicationScoped
public class DevClusterProducer {

    private static final Logger LOG = Logger.getLogger(DevClusterProducer.class);

    private MockCluster cluster;
    private RealDevCluster real;

    @Produces
    @Singleton
    KubernetesClient client(
            TopobridgeConfig config,
            @ConfigProperty(name = "quarkus.kubernetes-client.api-server-url") Optional<String> apiServerUrl) {
        if (config.devCluster().enabled() && config.devCluster().kind() == DevClusterConfig.Kind.REAL) {
            var admission = config.admission();
            // the cluster's kubeconfig names namespace default: the controller's namespace, where it puts the Service
            String namespace = admission.serviceNamespace().orElse("default");
            LOG.infof(
                    "dev mode: starting the real cluster (kube-apiserver, Volcano, LWS, AIBrix), seeded from %s; "
                            + "the first start builds its binaries",
                    config.devCluster().seed());
            real = RealDevCluster.start(
                    Path.of(config.devCluster().seed()),
                    new RealDevCluster.Webhook(admission.port(), admission.serviceName(), namespace),
                    Duration.ofMinutes(40));
            return real.client();
        }
        if (!config.devCluster().enabled() || clusterConfigured(apiServerUrl)) {
            LOG.info("dev mode: using the configured Kubernetes cluster");
            Config kube = Config.autoConfigure(null);
            apiServerUrl.ifPresent(kube::setMasterUrl);
            return new KubernetesClientBuilder().withConfig(kube).build();
        }
        cluster = MockCluster.start(new ApplyingCrudDispatcher()).installVolcanoCrds();
        Path seed = Path.of(config.devCluster().seed());
        if (Files.isDirectory(seed)) {
            int count = cluster.seed(seed).size();
            LOG.infof(
                    "dev mode: embedded API server at %s, seeded with %d objects from %s", cluster.url(), count, seed);
        } else {
            LOG.infof("dev mode: embedded API server at %s (no %s folder to seed from)", cluster.url(), seed);
        }
        var volcano = config.volcano();
        cluster.seedSchedulerConfig(
                volcano.schedulerConfigNamespace(), volcano.schedulerConfigName(), volcano.schedulerConfigKey());
        return cluster.client();
    }

    void close(@Disposes KubernetesClient client) {
        if (real != null) {
            client.close();
            real.close();
            real = null;
        } else if (cluster != null) {
            cluster.close();
            cluster = null;
        } else {
            client.close();
        }
    }

    static boolean clusterConfigured(Optional<String> apiServerUrl) {
        if (apiServerUrl.isPresent()
                || System.getenv("KUBECONFIG") != null
                || System.getenv("KUBERNETES_SERVICE_HOST") != null) {
            return true;
        }
        return Files.exists(Path.of(System.getProperty("user.home"), ".kube", "config"));
    }
}

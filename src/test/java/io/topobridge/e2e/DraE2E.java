package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GPUs claimed through DRA on the real API server: it accepts the {@code resource.k8s.io/v1} ResourceClaimTemplate
 * the fixtures use, the bridge caches it and sizes the {@code auto} gang by the GPUs its pods claim (the example
 * GB200 cluster), says them in {@code topobridge.io/dra-devices} and keeps them out of {@code minResources}.
 */
@ExtendWith(RealClusterExtension.class)
class DraE2E {

    private static final String NS = PlacementE2E.NS;

    @RegisterExtension
    final TestNamespace namespace = TestNamespace.forEachTest(NS);

    private final RealCluster cluster;
    private KubernetesClient client;

    DraE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void namespace() {
        // a Kubernetes minor of the matrix before 1.34 has no resource.k8s.io/v1 (docs/compatibility.md)
        assumeTrue(RealCluster.servesDra(), "resource.k8s.io/v1 is not served by " + RealCluster.kubernetesVersion());
        client = cluster.onExamples();
    }

    @Test
    void aGangOfClaimedGpusIsSizedByThem() {
        client.resource(io.topobridge.core.workload.Fixtures.object("""
                        apiVersion: resource.k8s.io/v1
                        kind: ResourceClaimTemplate
                        metadata: {name: four-gpus, namespace: %s}
                        spec:
                          spec:
                            devices:
                              requests:
                              - name: gpus
                                exactly:
                                  deviceClassName: gpu.nvidia.com
                                  count: 4
                                  selectors:
                                  - cel: {expression: 'device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA")'}
                        """.formatted(NS)))
                .create();
        client.resource(io.topobridge.core.workload.Fixtures.object("""
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: wide, namespace: %s, annotations: {topobridge.io/highest-tier: auto}}
                        spec:
                          replicas: 10
                          selector: {matchLabels: {app: wide}}
                          template:
                            metadata: {labels: {app: wide}}
                            spec:
                              resourceClaims:
                              - {name: gpus, resourceClaimTemplateName: four-gpus}
                              containers:
                              - name: engine
                                image: registry.k8s.io/pause:3.10
                                resources:
                                  requests: {cpu: "1", memory: 1Gi}
                                  claims: [{name: gpus}]
                        """.formatted(NS)))
                .create();
        cluster.waitFor(
                "PodGroup tb-deploy-wide sized by its claimed GPUs",
                Duration.ofSeconds(90),
                () -> "nvidia.com/gpu=40".equals(annotation("topobridge.io/dra-devices")));
        GenericKubernetesResource pg = podGroup();
        String chosen = annotation("topobridge.io/chosen-tier");
        System.out.println("DraE2E: chosen-tier " + chosen);
        assertThat(chosen).contains("40 GPUs fit in");
        @SuppressWarnings("unchecked")
        Map<String, Object> spec =
                (Map<String, Object>) pg.getAdditionalProperties().get("spec");
        @SuppressWarnings("unchecked")
        Map<String, Object> minResources = (Map<String, Object>) spec.get("minResources");
        assertThat(minResources).containsOnlyKeys("cpu", "memory");
    }

    private GenericKubernetesResource podGroup() {
        return PodGroups.get(client, NS, "tb-deploy-wide");
    }

    private String annotation(String key) {
        GenericKubernetesResource pg = podGroup();
        Map<String, String> a = pg == null ? null : pg.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }
}

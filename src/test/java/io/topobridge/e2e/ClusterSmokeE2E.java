package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real cluster itself works before anything of the bridge is tested: every component runs at the pinned
 * version, and Volcano binds a plain pod to a node made through the API (and the fake kubelet runs it).
 */
@ExtendWith(RealClusterExtension.class)
class ClusterSmokeE2E {

    private final RealCluster cluster;

    ClusterSmokeE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void componentsRunAtThePinnedVersions() {
        cluster.assertHealthy();
        assertThat(cluster.versions())
                // the pinned Kubernetes, or the matrix minor of -Dtopobridge.e2e.kubernetes (docs/compatibility.md)
                .containsEntry("kubernetes", RealCluster.kubernetesVersion())
                .containsEntry(
                        "volcano.sh/volcano",
                        // the pinned Volcano, or the older minor of -Dtopobridge.e2e.volcano (docs/compatibility.md)
                        Map.of(RealCluster.PINNED_VOLCANO, "v1.15.1", "1.14", "v1.14.1")
                                .get(RealCluster.volcanoMinor()))
                .containsKey("sigs.k8s.io/lws")
                .containsEntry("github.com/vllm-project/aibrix", "v0.7.0");
        assertThat(cluster.client().getKubernetesVersion().getGitVersion()).isEqualTo(RealCluster.kubernetesVersion());
        for (String crd : new String[] {
            "podgroups.scheduling.volcano.sh",
            "hypernodes.topology.volcano.sh",
            "leaderworkersets.leaderworkerset.x-k8s.io",
            "disaggregatedsets.disaggregatedset.x-k8s.io",
            "stormservices.orchestration.aibrix.ai",
            "rolesets.orchestration.aibrix.ai",
            "podsets.orchestration.aibrix.ai"
        }) {
            assertThat(cluster.client()
                            .apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .withName(crd)
                            .get())
                    .as(crd)
                    .isNotNull();
        }
    }

    /** The one test that makes a pod has the namespace to itself; made once for the class, deleted once. */
    @RegisterExtension
    static final TestNamespace SMOKE = TestNamespace.forClass("smoke").notOptedIn();

    @Test
    void volcanoBindsAPodAndTheFakeKubeletRunsIt() {
        var client = cluster.client();
        Nodes.create(
                client,
                Nodes.node("smoke-node-1")
                        .cpu("8")
                        .memory("32Gi")
                        .label("topobridge.io/e2e-smoke", "true")
                        .build());
        Pod pod = client.pods()
                .inNamespace("smoke")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("p")
                        .endMetadata()
                        .withNewSpec()
                        .withSchedulerName("volcano")
                        // other test classes' nodes may be there too: this node is the one to bind to
                        .addToNodeSelector("topobridge.io/e2e-smoke", "true")
                        .addNewContainer()
                        .withName("c")
                        .withImage("busybox")
                        .withNewResources()
                        .addToRequests(Map.of("cpu", new Quantity("1")))
                        .endResources()
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        cluster.waitFor("the pod to run", Duration.ofSeconds(60), () -> {
            Pod p = client.pods().inNamespace("smoke").withName("p").get();
            return p.getSpec().getNodeName() != null
                    && "Running".equals(p.getStatus().getPhase());
        });
        assertThat(client.pods()
                        .inNamespace("smoke")
                        .withName("p")
                        .get()
                        .getSpec()
                        .getNodeName())
                .isEqualTo("smoke-node-1");
        // Volcano's own pg-controller gave the pod a one-member gang
        GenericKubernetesResource pg = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace("smoke")
                .list()
                .getItems()
                .get(0);
        assertThat(pg.getMetadata().getName()).startsWith("podgroup-");
        assertThat(pod.getMetadata().getUid()).isNotBlank();
        client.nodes().withName("smoke-node-1").delete();
    }
}

package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.e2e.AuditLog.Write;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The PodGroup writes of a workload's life, counted in the real API server's audit log: created (1 apply),
 * scaled (1), a restart with nothing changed (0), an unrelated edit (0), annotations removed (1 delete, of the
 * bridge's own PodGroup only).
 */
@ExtendWith(RealClusterExtension.class)
class WorkloadWritesE2E {

    private static final String NS = "writes-e2e";

    @RegisterExtension
    final TestNamespace namespace = TestNamespace.forEachTest(NS);

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration QUIET = Duration.ofSeconds(3);

    private final RealCluster cluster;

    WorkloadWritesE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    private static void editWeb(KubernetesClient client, UnaryOperator<DeploymentBuilder> change) {
        client.apps()
                .deployments()
                .inNamespace(NS)
                .withName("web")
                .edit(d -> change.apply(new DeploymentBuilder(d)).build());
    }

    private GenericKubernetesResource podGroup() {
        return PodGroups.get(cluster.client(), NS, "tb-deploy-web");
    }

    /** The request bodies of the writes, for a failure's message: which fields each write carried. */
    private static List<String> bodies(List<Write> writes) {
        return writes.stream()
                .map(w -> w + " "
                        + (w.requestObject() == null ? "" : w.requestObject().path("spec")))
                .toList();
    }

    @Test
    void createScaleRestartEditAndReleaseWriteOnlyWhatChanged() {
        var client = cluster.onExamples();
        long mark = cluster.audit().mark();
        client.apps()
                .deployments()
                .inNamespace(NS)
                .resource(DeploymentWrapper.make("web", null)
                        .highestTier("leaf")
                        .replicas(2)
                        .cpu("1")
                        // kept pending: a placed gang also gets its achieved tier written (DiagnosisE2E counts that);
                        // here only the writes of the PodGroup's own changes are counted
                        .nodeSelector("topobridge.io/e2e-nowhere", "true")
                        .obj())
                .create();
        cluster.waitFor("the PodGroup", WAIT, () -> podGroup() != null);
        cluster.awaitQuiet(RealCluster.BRIDGE, QUIET, WAIT);
        List<Write> created = cluster.audit().writesSince(mark, RealCluster.BRIDGE, "podgroups");
        assertThat(created).as("create: %s", bodies(created)).hasSize(1);

        mark = cluster.audit().mark();
        client.apps().deployments().inNamespace(NS).withName("web").scale(3);
        cluster.waitFor(
                "minMember 3",
                WAIT,
                () -> ((Map<?, ?>) podGroup().getAdditionalProperties().get("spec"))
                        .get("minMember")
                        .equals(3));
        cluster.awaitQuiet(RealCluster.BRIDGE, QUIET, WAIT);
        List<Write> scaled = cluster.audit().writesSince(mark, RealCluster.BRIDGE, "podgroups");
        assertThat(scaled).as("scale: %s", bodies(scaled)).hasSize(1);

        mark = cluster.audit().mark();
        editWeb(client, d -> d.editMetadata().addToLabels("team", "inference").endMetadata());
        cluster.stopBridge();
        cluster.bridge();
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), WAIT);
        assertThat(cluster.audit().writesSince(mark, RealCluster.BRIDGE, "podgroups"))
                .as("an unrelated edit and a restart")
                .isEmpty();

        mark = cluster.audit().mark();
        editWeb(client, d -> d.editMetadata().withAnnotations(Map.of()).endMetadata());
        cluster.waitFor("the PodGroup gone", WAIT, () -> podGroup() == null);
        cluster.awaitQuiet(RealCluster.BRIDGE, QUIET, WAIT);
        assertThat(cluster.audit().writesSince(mark, RealCluster.BRIDGE, "podgroups"))
                .as("annotations removed")
                .singleElement()
                .satisfies(w -> assertThat(w.verb()).isEqualTo("delete"));
    }
}

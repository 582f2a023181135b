package io.topobridge.controller.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.testing.ClusterObjects;
import io.topobridge.testing.MockApiServer;
import io.topobridge.volcano.PodGroup;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The controller as the application runs it (CDI wiring, lifecycle start, CRD discovery): a soft-mode
 * Deployment, which needs no tier, gets its PodGroup; the caches are shared with admission.
 */
@QuarkusTest
@QuarkusTestResource(MockApiServer.class)
class WorkloadControllerQuarkusTest {

    private static final String NS = "workloads-quarkus";

    @Inject
    WorkloadController controller;

    @Inject
    WorkloadCaches lookup;

    @Test
    void annotatedDeploymentGetsItsPodGroup() {
        var client = MockApiServer.cluster().client();
        // opted in, as a namespace must be for the bridge to manage its workloads
        client.resource(ClusterObjects.optedInNamespace(NS)).create();
        // Volcano installs an open default queue; the mock API server has none
        client.resource(ClusterObjects.queue("default")).createOr(NonDeletingOperation::update);
        await().atMost(Duration.ofSeconds(30)).until(controller::ready);
        Deployment d = (Deployment) Fixtures.object("""
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: web
                  namespace: workloads-quarkus
                  annotations: {topobridge.io/mode: soft}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]}
                """);
        client.resource(d).create();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.resources(PodGroup.class)
                                .inNamespace(NS)
                                .withName("tb-deploy-web")
                                .get()
                        != null);
        PodGroup pg = client.resources(PodGroup.class)
                .inNamespace(NS)
                .withName("tb-deploy-web")
                .get();
        assertThat(pg.getSpec().getMinMember()).isEqualTo(2);
        assertThat(pg.getSpec().getMinResources()).containsEntry("cpu", "1");
        assertThat(pg.getSpec().getNetworkTopology().getMode().value()).isEqualTo("soft");
        assertThat(lookup.ready()).isTrue();
    }
}

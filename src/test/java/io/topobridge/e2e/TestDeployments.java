package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.Map;

/**
 * The Deployments the real-cluster tests create: pods labelled {@code app: <name>} with one container, scheduled by
 * Volcano, with the given annotations on the Deployment and the given requests and limits.
 */
final class TestDeployments {

    private TestDeployments() {}

    /** {@code namespace} null: the namespace the Deployment is created in decides. */
    static Deployment of(
            String namespace,
            String name,
            int replicas,
            Map<String, String> annotations,
            Map<String, String> requests,
            Map<String, String> limits) {
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", name)
                .endMetadata()
                .withNewSpec()
                .withSchedulerName("volcano")
                .addNewContainer()
                .withName("c")
                .withImage("x")
                .withNewResources()
                .withRequests(quantities(requests))
                .withLimits(quantities(limits))
                .endResources()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    /** A Deployment of {@code replicas} pods of 100m CPU, its gang within the tier {@code tier}. */
    static Deployment gang(String namespace, String name, int replicas, String tier) {
        return of(
                namespace, name, replicas, Map.of("topobridge.io/highest-tier", tier), Map.of("cpu", "100m"), Map.of());
    }

    private static Map<String, Quantity> quantities(Map<String, String> amounts) {
        Map<String, Quantity> out = new java.util.LinkedHashMap<>();
        amounts.forEach((k, v) -> out.put(k, new Quantity(v)));
        return out;
    }
}

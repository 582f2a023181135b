package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;

/** A Deployment whose pods carry {@code app: <name>}; one pod by default. */
public final class DeploymentWrapper extends AppWrapper<DeploymentWrapper, Deployment> {

    private DeploymentWrapper(String name, String namespace) {
        super(name, namespace);
    }

    /** {@code namespace} null: the namespace it is created in decides. */
    public static DeploymentWrapper make(String name, String namespace) {
        return new DeploymentWrapper(name, namespace);
    }

    @Override
    public Deployment obj() {
        return apps(new DeploymentBuilder()
                .withKind("Deployment")
                .withMetadata(metadata())
                .withNewSpec()
                .withReplicas(replicas)
                .withSelector(selector())
                .withTemplate(pod.template())
                .endSpec()
                .build());
    }
}

package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;

/** A Deployment whose pods carry {@code app: <name>}; one pod by default. */
public final class DeploymentWrapper extends WorkloadWrapper<DeploymentWrapper, Deployment> {

    private int replicas = 1;

    private DeploymentWrapper(String name, String namespace) {
        super(name, namespace);
        podLabel("app", name);
    }

    /** {@code namespace} null: the namespace it is created in decides. */
    public static DeploymentWrapper make(String name, String namespace) {
        return new DeploymentWrapper(name, namespace);
    }

    public DeploymentWrapper replicas(int value) {
        replicas = value;
        return this;
    }

    @Override
    public Deployment obj() {
        Deployment d = new DeploymentBuilder()
                .withMetadata(metadata())
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector()
                .addToMatchLabels("app", name)
                .endSelector()
                .withTemplate(pod.template())
                .endSpec()
                .build();
        d.setApiVersion("apps/v1");
        d.setKind("Deployment");
        return d;
    }
}

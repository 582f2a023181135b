package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategyBuilder;

/**
 * A Deployment whose pods carry {@code app: <name>}; one pod by default. It rolls out taking one pod down at a time
 * ({@code maxUnavailable: 1}), so that only the tests about rollouts meet {@code RolloutNeedsRoom} (Kubernetes' default
 * 25 % takes nothing down for one to three replicas); {@link #kubernetesDefaultRollout()} leaves the strategy unset.
 */
public final class DeploymentWrapper extends AppWrapper<DeploymentWrapper, Deployment> {

    private boolean defaultRollout;

    private DeploymentWrapper(String name, String namespace) {
        super(name, namespace);
    }

    /** No {@code strategy}: Kubernetes' default rollout (25 % unavailable, 25 % surge). */
    public DeploymentWrapper kubernetesDefaultRollout() {
        defaultRollout = true;
        return this;
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
                .withStrategy(
                        defaultRollout
                                ? null
                                : new DeploymentStrategyBuilder()
                                        .withNewRollingUpdate()
                                        .withMaxUnavailable(new IntOrString(1))
                                        .endRollingUpdate()
                                        .build())
                .withSelector(selector())
                .withTemplate(pod.template())
                .endSpec()
                .build());
    }
}

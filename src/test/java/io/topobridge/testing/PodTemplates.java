package io.topobridge.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpec;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetSpec;
import java.util.Map;

/** The smallest pod template a workload in a test needs: its pods' labels and one container. */
public final class PodTemplates {

    private PodTemplates() {}

    /** Pods labelled {@code labels}, with one container {@code container} running {@code image}. */
    public static PodTemplateSpec of(Map<String, String> labels, String container, String image) {
        return new PodTemplateSpecBuilder()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .withSpec(spec(container, image))
                .build();
    }

    /** A pod spec of one container {@code container} running {@code image}, and nothing else. */
    public static PodSpec spec(String container, String image) {
        return new PodSpecBuilder()
                .addNewContainer()
                .withName(container)
                .withImage(image)
                .endContainer()
                .build();
    }

    /** {@code replicas} pods selected by and labelled {@code key: value}, as {@link #labelled} makes them. */
    public static DeploymentSpec deploymentSpec(int replicas, String key, String value) {
        return new DeploymentSpecBuilder()
                .withReplicas(replicas)
                .withSelector(selector(key, value))
                .withTemplate(labelled(key, value))
                .build();
    }

    /** {@code replicas} pods selected by and labelled {@code key: value}, as {@link #labelled} makes them. */
    public static ReplicaSetSpec replicaSetSpec(int replicas, String key, String value) {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setReplicas(replicas);
        spec.setSelector(selector(key, value));
        spec.setTemplate(labelled(key, value));
        return spec;
    }

    private static LabelSelector selector(String key, String value) {
        return new LabelSelectorBuilder().addToMatchLabels(key, value).build();
    }

    /** Pods labelled {@code key: value}, with one container {@code c} running image {@code x}. */
    public static PodTemplateSpec labelled(String key, String value) {
        return of(Map.of(key, value), "c", "x");
    }

    /** The container {@code engine} of a GPU workload's pod: a pause image limited to 4 CPUs, 16 GiB and {@code gpus} GPUs. */
    public static Container gpuEngine(int gpus) {
        return new ContainerBuilder()
                .withName("engine")
                .withImage("registry.k8s.io/pause:3.10")
                .withNewResources()
                .withLimits(Map.of(
                        "cpu",
                        new Quantity("4"),
                        "memory",
                        new Quantity("16Gi"),
                        "nvidia.com/gpu",
                        new Quantity(String.valueOf(gpus))))
                .endResources()
                .build();
    }
}

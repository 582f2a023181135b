package io.topobridge.testing;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
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
                .withNewSpec()
                .addNewContainer()
                .withName(container)
                .withImage(image)
                .endContainer()
                .endSpec()
                .build();
    }

    /** Pods labelled {@code key: value}, with one container {@code c} running image {@code x}. */
    public static PodTemplateSpec labelled(String key, String value) {
        return of(Map.of(key, value), "c", "x");
    }
}

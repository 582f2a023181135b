package io.topobridge.testing;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;

/** A pod as the API server hands it to the admission webhooks: a generated name, one container, no node yet. */
public final class PendingPod {

    private final PodBuilder pod;

    private PendingPod(String generateName) {
        pod = new PodBuilder()
                .withNewMetadata()
                .withGenerateName(generateName)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("i")
                .endContainer()
                .endSpec();
    }

    /** A pod named {@code generateName} plus the suffix the API server adds, in no namespace until one is set. */
    public static PendingPod generated(String generateName) {
        return new PendingPod(generateName);
    }

    public PendingPod namespace(String namespace) {
        pod.editMetadata().withNamespace(namespace).endMetadata();
        return this;
    }

    public PendingPod annotation(String key, String value) {
        pod.editMetadata().addToAnnotations(key, value).endMetadata();
        return this;
    }

    public PendingPod label(String key, String value) {
        pod.editMetadata().addToLabels(key, value).endMetadata();
        return this;
    }

    /** A field of the pod spec the fabric8 model does not know (Kubernetes 1.35/1.36 gang scheduling). */
    public PendingPod specField(String field, Map<String, Object> value) {
        pod.editSpec().addToAdditionalProperties(field, value).endSpec();
        return this;
    }

    public PendingPod scheduler(String name) {
        pod.editSpec().withSchedulerName(name).endSpec();
        return this;
    }

    public Pod build() {
        return pod.build();
    }
}

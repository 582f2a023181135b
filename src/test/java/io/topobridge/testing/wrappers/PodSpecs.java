package io.topobridge.testing.wrappers;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.Map;

/** The pod a wrapper's workload makes: one container's requests and limits, the scheduler, the pod's labels. */
final class PodSpecs {

    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    final Map<String, String> requests = new LinkedHashMap<>();
    final Map<String, String> limits = new LinkedHashMap<>();
    final Map<String, String> labels = new LinkedHashMap<>();
    final Map<String, String> nodeSelector = new LinkedHashMap<>();
    String schedulerName = "volcano";

    PodSpec spec() {
        return new PodSpecBuilder()
                .withSchedulerName(schedulerName)
                .withNodeSelector(nodeSelector.isEmpty() ? null : new LinkedHashMap<>(nodeSelector))
                .addToContainers(new ContainerBuilder()
                        .withName("c")
                        .withImage("x")
                        .withNewResources()
                        .withRequests(quantities(requests))
                        .withLimits(quantities(limits))
                        .endResources()
                        .build())
                .build();
    }

    PodTemplateSpec template() {
        return new PodTemplateSpecBuilder()
                .withNewMetadata()
                .withLabels(new LinkedHashMap<>(labels))
                .endMetadata()
                .withSpec(spec())
                .build();
    }

    /** The template as the plain maps a custom resource (LWS, StormService) carries. */
    @SuppressWarnings("unchecked")
    Map<String, Object> templateMap() {
        return SERIALIZATION.convertValue(template(), Map.class);
    }

    /** Sets a request and, for extended resources (a domain-qualified name), the equal limit Kubernetes requires. */
    void request(String resource, String amount) {
        requests.put(resource, amount);
        if (resource.contains("/")) {
            limits.put(resource, amount);
        }
    }

    private static Map<String, Quantity> quantities(Map<String, String> amounts) {
        Map<String, Quantity> out = new LinkedHashMap<>();
        amounts.forEach((k, v) -> out.put(k, new Quantity(v)));
        return out;
    }
}

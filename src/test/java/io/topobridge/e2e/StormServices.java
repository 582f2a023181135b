package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

/** AIBrix StormServices of the real-cluster tests: one stateful replica whose prefill and decode roles run on Volcano. */
final class StormServices {

    private StormServices() {}

    /**
     * The StormService {@code name} in {@code namespace} with {@code annotations} (a YAML flow map), whose roles each
     * have {@code perRole} pods of {@code gpus} GPUs, gang-scheduled by AIBrix's own Volcano strategy over all of them.
     */
    static GenericKubernetesResource volcanoGang(
            KubernetesClient client, String name, String namespace, String annotations, int perRole, int gpus) {
        String role = """
                - name: %s
                  replicas: %d
                  stateful: true
                  template:
                    spec:
                      schedulerName: volcano
                      containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "%d"}}}]
                """;
        return client.getKubernetesSerialization()
                .unmarshal(
                        """
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: StormService
                metadata:
                  name: %1$s
                  namespace: %2$s
                  annotations: %3$s
                spec:
                  replicas: 1
                  stateful: true
                  selector: {matchLabels: {app: %1$s}}
                  template:
                    metadata: {labels: {app: %1$s}}
                    spec:
                      schedulingStrategy: {volcanoSchedulingStrategy: {minMember: %4$d}}
                      roles:
                """.formatted(name, namespace, annotations, 2 * perRole)
                                + (role.formatted("prefill", perRole, gpus) + role.formatted("decode", perRole, gpus))
                                        .indent(6),
                        GenericKubernetesResource.class);
    }
}

package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Volcano PodGroups as the real-cluster tests read them: one by name, one waited for, and its network topology. */
public final class PodGroups {

    private PodGroups() {}

    /** The PodGroup, or null while it does not exist. */
    public static GenericKubernetesResource get(KubernetesClient client, String namespace, String name) {
        return client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(namespace)
                .withName(name)
                .get();
    }

    /** The PodGroups in the namespace that the bridge made (they carry its managed-by label). */
    public static List<GenericKubernetesResource> ours(KubernetesClient client, String namespace) {
        return client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(namespace)
                .withLabel("app.kubernetes.io/managed-by", "topobridge")
                .list()
                .getItems();
    }

    /** The PodGroup as the cluster holds it, once it exists (within a minute). */
    public static GenericKubernetesResource await(
            RealCluster cluster, KubernetesClient client, String namespace, String name) {
        cluster.waitFor("PodGroup " + name, Duration.ofSeconds(60), () -> get(client, namespace, name) != null);
        return get(client, namespace, name);
    }

    /** The PodGroup's {@code spec.networkTopology}. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> networkTopology(GenericKubernetesResource pg) {
        Map<String, Object> spec =
                (Map<String, Object>) pg.getAdditionalProperties().get("spec");
        return (Map<String, Object>) spec.get("networkTopology");
    }
}

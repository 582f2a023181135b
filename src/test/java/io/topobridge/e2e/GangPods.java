package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The pods of gangs (each its pods' {@code app} label) in one namespace, as the recovery tests follow them. */
public final class GangPods {

    private final KubernetesClient client;
    private final String namespace;

    public GangPods(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    private List<Pod> all(String app) {
        return client.pods().inNamespace(namespace).withLabel("app", app).list().getItems();
    }

    /** The gang's pods that are not being deleted. */
    public List<Pod> live(String app) {
        return all(app).stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    /** The gang's pods being deleted, as {@code name@node}. */
    public List<String> terminating(String app) {
        return all(app).stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() != null)
                .map(p -> p.getMetadata().getName() + "@" + p.getSpec().getNodeName())
                .sorted()
                .toList();
    }

    /** Four live pods, all running, none of them one of {@code gone} (pod UIDs). */
    public boolean running(String app, Set<String> gone) {
        List<Pod> pods = live(app);
        return pods.size() == 4
                && pods.stream()
                        .allMatch(p -> "Running".equals(p.getStatus().getPhase())
                                && p.getSpec().getNodeName() != null
                                && !gone.contains(p.getMetadata().getUid()));
    }

    /** The lowest domain that holds every live pod of the gang. */
    public Optional<Placement.Domain> domain(String app) {
        return Placement.of(client)
                .lowestCommon(
                        live(app).stream().map(p -> p.getSpec().getNodeName()).toList());
    }
}

package io.topobridge.testing;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.topobridge.volcano.Queue;
import io.topobridge.volcano.model.QueueSpec;

/** Objects a test puts in its cluster before the bridge looks: an opted-in namespace, a Volcano queue. */
public final class ClusterObjects {

    private ClusterObjects() {}

    /** A namespace whose workloads the bridge manages ({@code topobridge.io/enabled: "true"}). */
    public static Namespace optedInNamespace(String name) {
        return new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("topobridge.io/enabled", "true")
                .endMetadata()
                .build();
    }

    /** A Volcano queue of weight 1, without status. */
    public static Queue queue(String name) {
        var queue = new Queue();
        queue.setMetadata(new ObjectMetaBuilder().withName(name).build());
        queue.setSpec(new QueueSpec().weight(1));
        return queue;
    }
}

package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Nodes of the kubelet-less test cluster: API objects with labels, capacity and allocatable, and a Ready
 * condition (Volcano ignores node conditions, other components may not).
 */
public final class Nodes {

    private Nodes() {}

    /** A node builder with {@code pods: 110}. */
    public static Spec node(String name) {
        return new Spec(name);
    }

    /** Fluent description of one node. */
    public static final class Spec {
        private final String name;
        private final Map<String, String> labels = new LinkedHashMap<>();
        private final Map<String, Quantity> capacity = new LinkedHashMap<>();

        private Spec(String name) {
            this.name = name;
            labels.put("kubernetes.io/hostname", name);
            capacity.put("pods", new Quantity("110"));
        }

        public Spec label(String key, String value) {
            labels.put(key, value);
            return this;
        }

        public Spec cpu(String cpu) {
            capacity.put("cpu", new Quantity(cpu));
            return this;
        }

        public Spec memory(String memory) {
            capacity.put("memory", new Quantity(memory));
            return this;
        }

        public Spec gpus(int gpus) {
            capacity.put("nvidia.com/gpu", new Quantity(String.valueOf(gpus)));
            return this;
        }

        public Node build() {
            return new NodeBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withLabels(labels)
                    .endMetadata()
                    .withNewStatus()
                    .withCapacity(capacity)
                    .withAllocatable(capacity)
                    .withConditions(ready())
                    .endStatus()
                    .build();
        }
    }

    private static io.fabric8.kubernetes.api.model.NodeCondition ready() {
        return new NodeConditionBuilder()
                .withType("Ready")
                .withStatus("True")
                .withReason("KubeletReady")
                .withMessage("fake kubelet")
                .build();
    }

    /** Creates nodes (status included: the API server keeps a Node's status on create). */
    public static void create(KubernetesClient client, Node... nodes) {
        create(client, List.of(nodes));
    }

    public static void create(KubernetesClient client, List<Node> nodes) {
        for (Node node : nodes) {
            if (node.getStatus() != null
                    && (node.getStatus().getConditions() == null
                            || node.getStatus().getConditions().isEmpty())) {
                node.getStatus().setConditions(List.of(ready()));
            }
            client.nodes().resource(node).create();
        }
    }

    /** The Nodes of a YAML file (e.g. {@code examples/gpu-cluster/nodes.yaml}). */
    public static List<Node> fromFile(KubernetesClient client, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return client.load(in).items().stream()
                    .filter(Node.class::isInstance)
                    .map(Node.class::cast)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Marks a node unschedulable ({@code kubectl cordon}) or schedulable again. */
    public static void cordon(KubernetesClient client, String name, boolean unschedulable) {
        client.nodes()
                .withName(name)
                .patch(
                        io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                        "{\"spec\":{\"unschedulable\":" + (unschedulable ? "true" : "null") + "}}");
    }

    /** Whether an object is a Node. */
    public static boolean isNode(HasMetadata object) {
        return object instanceof Node;
    }
}

package io.topobridge.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.testing.PackagedApp;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The project's {@code examples/} on the real cluster: its nodes, and what {@code render} says they become. */
public final class Examples {

    public static final Path NODES = Path.of("examples", "gpu-cluster", "nodes.yaml");
    private static final YAMLMapper YAML = new YAMLMapper();

    private Examples() {}

    /** Creates the example GPU cluster's nodes that do not exist yet. */
    public static List<Node> ensureNodes(KubernetesClient client) {
        List<Node> nodes = Nodes.fromFile(client, NODES);
        for (Node node : nodes) {
            if (client.nodes().withName(node.getMetadata().getName()).get() == null) {
                Nodes.create(client, node);
            }
        }
        return nodes;
    }

    /** The HyperNodes in the cluster, by name: {@code tier}, {@code tierName} and members. */
    public static Map<String, JsonNode> hyperNodes(KubernetesClient client) {
        Map<String, JsonNode> out = new TreeMap<>();
        for (GenericKubernetesResource h : client.genericKubernetesResources(
                        "topology.volcano.sh/v1alpha1", "HyperNode")
                .list()
                .getItems()) {
            out.put(
                    h.getMetadata().getName(),
                    YAML.valueToTree(h.getAdditionalProperties().get("spec")));
        }
        return out;
    }

    /** The HyperNodes {@code render} prints for {@code inputs} (the packaged jar, offline), by name. */
    public static Map<String, JsonNode> renderedHyperNodes(String... inputs) {
        Map<String, JsonNode> out = new TreeMap<>();
        for (JsonNode doc : render(inputs)) {
            if ("HyperNode".equals(doc.path("kind").asText())) {
                out.put(doc.path("metadata").path("name").asText(), doc.path("spec"));
            }
        }
        return out;
    }

    /** A map (e.g. a {@code fieldsV1} tree) as JSON. */
    public static JsonNode json(Object value) {
        return YAML.valueToTree(value);
    }

    /** Every document {@code render} prints for {@code inputs}. */
    public static List<JsonNode> render(String... inputs) {
        try {
            List<String> args = new ArrayList<>(List.of("render"));
            args.addAll(List.of(inputs));
            PackagedApp.Run run = PackagedApp.run(args.toArray(String[]::new));
            if (run.exitCode() > 1) {
                throw new IllegalStateException("render failed (" + run.exitCode() + "): " + run.stderr());
            }
            List<JsonNode> docs = new ArrayList<>();
            try (var parser = YAML.getFactory().createParser(run.stdout())) {
                YAML.readValues(parser, JsonNode.class).forEachRemaining(d -> {
                    if (d != null && !d.isNull() && !d.isMissingNode()) {
                        docs.add(d);
                    }
                });
            }
            return docs;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

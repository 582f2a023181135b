package io.topobridge.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The chart in {@code helm/topobridge} rendered by Helm's own engine (helm-java), with values a test sets, parsed
 * into objects, the hooks kept apart from what {@code helm install} applies. For chart tests and for installing
 * the chart's objects on an API server from a test.
 */
public final class HelmChart {

    public static final Path CHART = Path.of("helm", "topobridge");
    public static final String KUBE_VERSION = "1.32.0";
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final String HOOK_KEY_PREFIX = "helm.sh/hook";
    private static final String RENAMED_HOOK_KEY_PREFIX = "test.topobridge.io/helm-hook";

    private HelmChart() {}

    /** One rendering: the manifest as Helm printed it and its documents. */
    public record Rendered(String manifest, List<JsonNode> documents) {

        /** What {@code helm install} applies: every document that is not a hook. */
        public List<JsonNode> objects() {
            return documents.stream().filter(d -> hook(d).isEmpty()).toList();
        }

        /** The documents of one hook ({@code pre-delete}, ...), lowest {@code helm.sh/hook-weight} first. */
        public List<JsonNode> hooks(String name) {
            return documents.stream()
                    .filter(d -> List.of(hook(d).split(",")).contains(name))
                    .sorted(java.util.Comparator.comparingInt(d -> d.path("metadata")
                            .path("annotations")
                            .path("helm.sh/hook-weight")
                            .asInt(0)))
                    .toList();
        }

        public List<JsonNode> all(String kind) {
            return documents.stream()
                    .filter(d -> kind.equals(d.path("kind").asText()))
                    .toList();
        }

        /** The only (or first) document of {@code kind}; fails when there is none. */
        public JsonNode one(String kind) {
            return all(kind).stream().findFirst().orElseThrow(() -> new AssertionError("no " + kind + " rendered"));
        }

        public JsonNode named(String kind, String name) {
            return all(kind).stream()
                    .filter(d -> name.equals(d.path("metadata").path("name").asText()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " rendered"));
        }

        /** Whether a document of {@code kind} was rendered. */
        public boolean has(String kind) {
            return !all(kind).isEmpty();
        }

        /** The first container of a Deployment's or Job's pod template. */
        public JsonNode container(JsonNode workload) {
            return workload.path("spec")
                    .path("template")
                    .path("spec")
                    .path("containers")
                    .get(0);
        }

        /** The plain-valued environment variables of a container, in order. */
        public static Map<String, String> env(JsonNode container) {
            Map<String, String> env = new LinkedHashMap<>();
            for (JsonNode var : container.path("env")) {
                if (var.has("value")) {
                    env.put(var.path("name").asText(), var.path("value").asText());
                }
            }
            return env;
        }

        /** The controller's environment: the configuration it runs with. */
        public Map<String, String> controllerEnv() {
            return env(container(one("Deployment")));
        }

        /** The objects {@code helm install} applies, as fabric8 objects. */
        public List<HasMetadata> resources(KubernetesSerialization serialization) {
            return objects().stream()
                    .map(d -> (HasMetadata) serialization.convertValue(d, HasMetadata.class))
                    .toList();
        }

        private static String hook(JsonNode document) {
            return document.path("metadata")
                    .path("annotations")
                    .path("helm.sh/hook")
                    .asText("");
        }
    }

    /**
     * Renders the chart as release {@code release} in {@code namespace} with {@code values} ({@code --set} keys):
     * the objects {@code helm template} prints, and the hooks.
     */
    public static Rendered render(String release, String namespace, Map<String, ?> values) {
        return render(CHART, release, namespace, values);
    }

    /** As {@link #render(String, String, Map)}, of the chart in folder {@code chart} (e.g. an earlier version's). */
    public static Rendered render(Path chart, String release, String namespace, Map<String, ?> values) {
        String manifest = template(chart, release, namespace, values);
        List<JsonNode> documents = new ArrayList<>(parse(manifest));
        documents.addAll(hooks(chart, release, namespace, values, documents));
        return new Rendered(manifest, List.copyOf(documents));
    }

    private static String template(Path chart, String release, String namespace, Map<String, ?> values) {
        TemplateCommand template = new Helm(chart)
                .template()
                .withKubeVersion(KUBE_VERSION)
                .withName(release)
                .withNamespace(namespace);
        values.forEach(template::set);
        return template.call();
    }

    /**
     * helm-java's {@code template} leaves hooks out (Helm keeps them apart from the release manifest). To see them,
     * the chart is copied with the hook annotation keys renamed, rendered, and the keys restored: the engine renders
     * every other byte the same, which the copy's other documents confirm.
     */
    private static List<JsonNode> hooks(
            Path chart, String release, String namespace, Map<String, ?> values, List<JsonNode> objects) {
        Path copy;
        try {
            copy = Files.createTempDirectory("topobridge-chart");
            try (Stream<Path> files = Files.walk(chart)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Path target = copy.resolve(chart.relativize(file).toString());
                    if (Files.isDirectory(file)) {
                        Files.createDirectories(target);
                    } else {
                        Files.writeString(
                                target, Files.readString(file).replace(HOOK_KEY_PREFIX, RENAMED_HOOK_KEY_PREFIX));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            List<JsonNode> hooks = new ArrayList<>();
            List<JsonNode> others = new ArrayList<>();
            for (JsonNode document : parse(template(copy, release, namespace, values))) {
                JsonNode annotations = document.path("metadata").path("annotations");
                if (annotations.has(RENAMED_HOOK_KEY_PREFIX)) {
                    ObjectNode restored = JsonNodeFactory.instance.objectNode();
                    annotations
                            .fields()
                            .forEachRemaining(e -> restored.set(
                                    e.getKey().replace(RENAMED_HOOK_KEY_PREFIX, HOOK_KEY_PREFIX), e.getValue()));
                    ((ObjectNode) document.path("metadata")).set("annotations", restored);
                    hooks.add(document);
                } else {
                    others.add(document);
                }
            }
            if (!others.equals(objects)) {
                throw new IllegalStateException("the chart copy rendered other objects than the chart");
            }
            return hooks;
        } finally {
            try (Stream<Path> files = Files.walk(copy)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public static Rendered render(Map<String, ?> values) {
        return render("tb", "topobridge-system", values);
    }

    /** The message Helm fails with for {@code values}; an {@link AssertionError} if the chart renders. */
    public static String failure(Map<String, ?> values) {
        try {
            render(values);
        } catch (RuntimeException e) {
            return e.getMessage();
        }
        throw new AssertionError("the chart rendered with " + values);
    }

    static List<JsonNode> parse(String manifest) {
        List<JsonNode> docs = new ArrayList<>();
        try (var parser = YAML.createParser(manifest)) {
            Iterator<JsonNode> it = YAML.readValues(parser, JsonNode.class);
            it.forEachRemaining(d -> {
                if (d != null && d.has("kind")) {
                    docs.add(d);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }
}

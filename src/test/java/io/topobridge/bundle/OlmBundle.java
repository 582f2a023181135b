package io.topobridge.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.topobridge.testing.GeneratedFiles;
import io.topobridge.testing.HelmChart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The OLM bundle in {@code bundle/} (a ClusterServiceVersion and the chart's other objects OLM installs, the bundle's
 * annotations and its image's Dockerfile), generated from the Helm chart rendered by Helm's own engine, so the two
 * cannot drift: {@link OlmBundleTest} fails when a committed file differs from what this produces, and
 * {@code -Dbundle.update=true} (or {@link #main} with the test classpath) rewrites them.
 */
public final class OlmBundle {

    /** The command that rewrites the bundle, as the failing test prints it. */
    public static final String UPDATE_COMMAND =
            "./mvnw -B -q test -Dtest=OlmBundleTest -Dsurefire.failIfNoSpecifiedTests=false -Dbundle.update=true";

    /** The bundle's folder, relative to the project directory. */
    public static final Path BUNDLE = Path.of("bundle");

    /** The package OLM catalogs list the bundle under. */
    static final String PACKAGE = "topobridge";

    /** Its only channel, named as OLM's channel convention asks (candidate, fast or stable, then the major version). */
    static final String CHANNEL = "candidate-v0";

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // a number-like string (an environment value) stays a string for OLM's strict decoding
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build();

    private OlmBundle() {}

    /**
     * Every file of the bundle, by its path inside {@code bundle/}, as the chart says now; {@code root} is the project
     * directory, the one the chart is rendered from.
     */
    public static SortedMap<Path, String> files(Path root) {
        return files(root.resolve(HelmChart.CHART), root.resolve("crds"), null);
    }

    /**
     * Every file of the bundle of the chart in {@code chartDir} (a release's copy, its version set), the Volcano APIs
     * read from {@code crds}, its image {@code imageRepository} (null: the chart's) tagged with the chart's appVersion.
     */
    public static SortedMap<Path, String> files(Path chartDir, Path crds, String imageRepository) {
        Chart chart = Chart.read(chartDir.resolve("Chart.yaml"));
        BundleManifests manifests = BundleManifests.from(chartDir, chart, crds, imageRepository);
        SortedMap<Path, String> files = new TreeMap<>();
        for (JsonNode object : manifests.objects()) {
            files.put(Path.of("manifests", fileName(object)), yaml(object));
        }
        Map<String, String> annotations = annotations();
        ObjectNode file = JsonNodeFactory.instance.objectNode();
        annotations.forEach(file.putObject("annotations")::put);
        files.put(Path.of("metadata", "annotations.yaml"), yaml(file));
        files.put(Path.of("bundle.Dockerfile"), dockerfile(annotations));
        return files;
    }

    /** The bundle's annotations: the same keys label its image (OLM reads either). */
    static Map<String, String> annotations() {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("operators.operatorframework.io.bundle.mediatype.v1", "registry+v1");
        annotations.put("operators.operatorframework.io.bundle.manifests.v1", "manifests/");
        annotations.put("operators.operatorframework.io.bundle.metadata.v1", "metadata/");
        annotations.put("operators.operatorframework.io.bundle.package.v1", PACKAGE);
        annotations.put("operators.operatorframework.io.bundle.channels.v1", CHANNEL);
        annotations.put("operators.operatorframework.io.bundle.channel.default.v1", CHANNEL);
        return annotations;
    }

    private static String dockerfile(Map<String, String> annotations) {
        StringBuilder out = new StringBuilder("# The bundle image: docker build -f bundle/bundle.Dockerfile bundle/ "
                + "(generated with the rest of bundle/; do not edit)\nFROM scratch\n");
        annotations.forEach((key, value) ->
                out.append("LABEL ").append(key).append('=').append(value).append('\n'));
        return out.append("COPY manifests /manifests/\nCOPY metadata /metadata/\n")
                .toString();
    }

    /** operator-sdk's naming: {@code <name>.clusterserviceversion.yaml}, else {@code <name>_<group>_<version>_<kind>}. */
    static String fileName(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        String kind = object.path("kind").asText();
        if (kind.equals("ClusterServiceVersion")) {
            return PACKAGE + ".clusterserviceversion.yaml";
        }
        String apiVersion = object.path("apiVersion").asText();
        String groupVersion = apiVersion.contains("/") ? apiVersion.replace('/', '_') : apiVersion;
        return name + "_" + groupVersion + "_" + kind.toLowerCase(Locale.ROOT) + ".yaml";
    }

    static String yaml(JsonNode node) {
        try {
            return YAML.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The bundle files that differ from what the chart says (missing, changed, or no longer generated), after rewriting
     * {@code bundle/} to match if {@code update}.
     */
    public static List<Path> check(Path root, boolean update) {
        Path dir = root.resolve(BUNDLE);
        SortedMap<Path, String> fresh = files(root);
        List<Path> stale = new ArrayList<>();
        try {
            for (Map.Entry<Path, String> file : fresh.entrySet()) {
                Path target = dir.resolve(file.getKey());
                if (!Files.isRegularFile(target) || !Files.readString(target).equals(file.getValue())) {
                    stale.add(file.getKey());
                    if (update) {
                        Files.createDirectories(target.getParent());
                        Files.writeString(target, file.getValue());
                    }
                }
            }
            for (Path committed : committedFiles(dir)) {
                if (!fresh.containsKey(committed)) {
                    stale.add(committed);
                    if (update) {
                        Files.delete(dir.resolve(committed));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + dir, e);
        }
        return stale;
    }

    private static List<Path> committedFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .map(dir::relativize)
                    .sorted()
                    .toList();
        }
    }

    /**
     * {@code OlmBundle [--check]}, run in the project directory: rewrites {@code bundle/} (or, with {@code --check},
     * exits 1 naming the stale files). Needs the test classpath (Helm's engine through helm-java).
     */
    public static void main(String[] args) {
        boolean checkOnly = args.length > 0 && args[0].equals("--check");
        GeneratedFiles.run(OlmBundle::check, Path.of(""), checkOnly, "bundle/", UPDATE_COMMAND);
    }
}

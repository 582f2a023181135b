package io.topobridge.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Reason;
import io.topobridge.core.finding.UserText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads Kubernetes manifests from files and folders: multi-document YAML or JSON, {@code kind: List}
 * included. A document that is not a Kubernetes object is reported as a rejected finding naming the file
 * and document; every other document is still read.
 */
public final class ManifestReader {

    /** Why a document was refused. */
    public enum InputReason implements Reason {
        /**
         * A document of a file {@code render} reads is no Kubernetes object: not valid YAML, no {@code apiVersion} or
         * {@code kind}, no {@code metadata.name}, or not matching its kind's schema; the other documents are read.
         */
        UNREADABLE_DOCUMENT
    }

    /** A path that does not exist or cannot be read: a usage error, not a finding. */
    public static final class UnreadablePathException extends RuntimeException {
        public UnreadablePathException(String message) {
            super(message);
        }
    }

    /** The objects read, in file order, and the documents refused. */
    public record Result(List<HasMetadata> objects, List<Finding> findings) {}

    private final KubernetesSerialization serialization;
    private final YAMLMapper yaml = new YAMLMapper();

    public ManifestReader(KubernetesSerialization serialization) {
        this.serialization = serialization;
    }

    public Result read(List<Path> paths) {
        List<HasMetadata> objects = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        for (Path path : paths) {
            if (!Files.exists(path)) {
                throw new UnreadablePathException("no such file or folder: " + path);
            }
            for (Path file : files(path)) {
                readFile(file, objects, findings);
            }
        }
        return new Result(objects, findings);
    }

    private static List<Path> files(Path path) {
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> {
                        String name = p.getFileName().toString();
                        return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UnreadablePathException("cannot list " + path + ": " + e.getMessage());
        }
    }

    private void readFile(Path file, List<HasMetadata> objects, List<Finding> findings) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException | UncheckedIOException e) {
            throw new UnreadablePathException("cannot read " + file + ": " + e.getMessage());
        }
        int index = 0;
        try (MappingIterator<JsonNode> docs = yaml.readerFor(JsonNode.class).readValues(text)) {
            while (docs.hasNextValue()) {
                index++;
                JsonNode doc;
                try {
                    doc = docs.nextValue();
                } catch (RuntimeException e) {
                    findings.add(
                            refused(file, index, "not valid YAML: " + UserText.excerpt(firstLine(e.getMessage()))));
                    return;
                }
                if (doc == null || doc.isNull() || doc.isEmpty()) {
                    continue;
                }
                addDocument(file, index, doc, objects, findings);
            }
        } catch (IOException | RuntimeException e) {
            findings.add(refused(
                    file, Math.max(index, 1), "not valid YAML: " + UserText.excerpt(firstLine(e.getMessage()))));
        }
    }

    private void addDocument(Path file, int index, JsonNode doc, List<HasMetadata> objects, List<Finding> findings) {
        if (!doc.isObject() || !doc.hasNonNull("apiVersion") || !doc.hasNonNull("kind")) {
            findings.add(refused(file, index, "not a Kubernetes object (apiVersion and kind are required)"));
            return;
        }
        if ("List".equals(doc.get("kind").asText()) && doc.has("items")) {
            for (JsonNode item : doc.get("items")) {
                addDocument(file, index, item, objects, findings);
            }
            return;
        }
        if (!doc.path("metadata").hasNonNull("name")) {
            findings.add(
                    refused(file, index, UserText.identifier(doc.get("kind").asText()) + " without metadata.name"));
            return;
        }
        try {
            KubernetesResource resource = serialization.convertValue(doc, KubernetesResource.class);
            if (resource instanceof HasMetadata object) {
                objects.add(object);
            } else {
                findings.add(refused(file, index, "not a Kubernetes object with metadata"));
            }
        } catch (RuntimeException e) {
            findings.add(refused(
                    file,
                    index,
                    UserText.identifier(doc.get("kind").asText()) + " "
                            + UserText.identifier(
                                    doc.path("metadata").path("name").asText()) + " does not match its schema: "
                            + UserText.excerpt(firstLine(e.getMessage()))));
        }
    }

    private static Finding refused(Path file, int index, String message) {
        return Finding.rejected(
                InputReason.UNREADABLE_DOCUMENT, ObjectRef.cluster("File", file + "#" + index), message);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}

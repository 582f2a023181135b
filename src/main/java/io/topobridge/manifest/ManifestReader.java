package io.topobridge.manifest;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Reads Kubernetes manifests from files, folders and standard input ({@code -}): multi-document YAML or JSON,
 * {@code kind: List} included, read strictly ({@link StrictYaml}: duplicate keys refused, anchors resolved, alias bombs
 * refused). A document that is no Kubernetes object at all (no {@code apiVersion} and {@code kind}: a values.yaml, a
 * kustomization.yaml) is skipped with a note; one that cannot be read as the object it says it is is a rejected finding
 * naming the file and document. Every other document is still read.
 */
public final class ManifestReader {

    /** Why a document was refused. */
    public enum InputReason implements Reason {
        /**
         * A document of a file {@code render} reads cannot be read: not valid YAML, a key given twice in one mapping,
         * aliases expanding past a bound, no {@code metadata.name}, or not matching its kind's schema; the other
         * documents are read (one without {@code apiVersion} and {@code kind} is skipped with a note instead).
         */
        UNREADABLE_DOCUMENT
    }

    /** A path that does not exist or cannot be read: a usage error, not a finding. */
    public static final class UnreadablePathException extends RuntimeException {
        public UnreadablePathException(String message) {
            super(message);
        }
    }

    /** The objects read, in file order, the documents refused and the documents skipped (one note each). */
    public record Result(List<HasMetadata> objects, List<Finding> findings, List<String> notes) {}

    /** The path that names standard input. */
    public static final String STDIN = "-";

    private final KubernetesSerialization serialization;

    public ManifestReader(KubernetesSerialization serialization) {
        this.serialization = serialization;
    }

    public Result read(List<Path> paths) {
        Result out = empty();
        for (Path path : paths) {
            if (STDIN.equals(path.toString())) {
                readText("<stdin>", stdin(), out);
                continue;
            }
            if (!Files.exists(path)) {
                throw new UnreadablePathException("no such file or folder: " + path);
            }
            for (Path file : files(path)) {
                String text;
                try {
                    text = Files.readString(file);
                } catch (IOException | UncheckedIOException e) {
                    throw new UnreadablePathException("cannot read " + file + ": " + e.getMessage());
                }
                readText(file.toString(), text, out);
            }
        }
        return out;
    }

    private static Result empty() {
        return new Result(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    }

    private static String stdin() {
        try {
            return new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UnreadablePathException("cannot read standard input: " + e.getMessage());
        }
    }

    private static List<Path> files(Path path) {
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().matches("(?s).*\\.(yaml|yml|json)"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UnreadablePathException("cannot list " + path + ": " + e.getMessage());
        }
    }

    private void readText(String source, String text, Result out) {
        // a syntax error refuses the whole file: what its documents gave is kept aside until the end is read
        Result read = empty();
        try (StrictYaml.Documents docs = new StrictYaml.Documents(text)) {
            for (StrictYaml.Document doc = docs.next(); doc != null; doc = docs.next()) {
                if (doc.refusal() != null) {
                    read.findings().add(refused(source, doc.index(), doc.refusal()));
                } else if (doc.tree() != null
                        && !doc.tree().isNull()
                        && !doc.tree().isEmpty()) {
                    addDocument(source, doc, doc.tree(), read);
                }
            }
        } catch (StrictYaml.SyntaxException e) {
            out.findings().add(refused(source, e.index, "not valid YAML: " + UserText.excerpt(e.getMessage())));
            return;
        }
        out.objects().addAll(read.objects());
        out.findings().addAll(read.findings());
        out.notes().addAll(read.notes());
    }

    private void addDocument(String source, StrictYaml.Document doc, JsonNode node, Result out) {
        int index = doc.index();
        List<Finding> findings = out.findings();
        if (!node.isObject() || !node.hasNonNull("apiVersion") || !node.hasNonNull("kind")) {
            // a values.yaml or kustomization.yaml next to rendered manifests: not for render, and no error either
            out.notes()
                    .add(source + "#" + index + " (line " + doc.line() + ") is skipped: not a Kubernetes object (no"
                            + " apiVersion and kind)");
            return;
        }
        if ("List".equals(node.get("kind").asText()) && node.has("items")) {
            for (JsonNode item : node.get("items")) {
                addDocument(source, doc, item, out);
            }
            return;
        }
        if (!node.path("metadata").hasNonNull("name")) {
            findings.add(
                    refused(source, index, UserText.identifier(node.get("kind").asText()) + " without metadata.name"));
            return;
        }
        try {
            KubernetesResource resource = serialization.convertValue(node, KubernetesResource.class);
            if (resource instanceof HasMetadata object) {
                out.objects().add(object);
            } else {
                findings.add(refused(source, index, "not a Kubernetes object with metadata"));
            }
        } catch (RuntimeException e) {
            findings.add(refused(
                    source,
                    index,
                    UserText.identifier(node.get("kind").asText()) + " "
                            + UserText.identifier(
                                    node.path("metadata").path("name").asText())
                            + " does not match its schema: "
                            + UserText.excerpt(UserText.firstLine(e.getMessage()))));
        }
    }

    private static Finding refused(String source, int index, String message) {
        return Finding.rejected(
                InputReason.UNREADABLE_DOCUMENT, ObjectRef.cluster("File", source + "#" + index), message);
    }
}

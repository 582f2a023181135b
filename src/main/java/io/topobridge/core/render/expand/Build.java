package io.topobridge.core.render.expand;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.kind.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Reading objects as JSON trees and building the objects the controllers create (typed for built-in kinds). */
public final class Build {

    public static final ObjectMapper MAPPER =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public static final String POD_API_VERSION = "v1";
    static final String APPS_API_VERSION = "apps/v1";

    private Build() {}

    /** The labels of an object (never null). */
    public static Map<String, String> labels(HasMetadata object) {
        ObjectMeta meta = object.getMetadata();
        return meta == null || meta.getLabels() == null ? Map.of() : meta.getLabels();
    }

    /** The annotations of an object (never null). */
    public static Map<String, String> annotations(HasMetadata object) {
        ObjectMeta meta = object.getMetadata();
        return meta == null || meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    }

    public static String name(HasMetadata object) {
        return object.getMetadata().getName();
    }

    /** The namespace as written (null when the input names none: its children then name none either). */
    public static String namespace(HasMetadata object) {
        return object.getMetadata() == null ? null : object.getMetadata().getNamespace();
    }

    /** The namespace as the API server sees it ({@code ""} when none is given). */
    public static String ns(HasMetadata object) {
        return Objects.requireNonNullElse(namespace(object), "");
    }

    /** The {@code spec} of any object as a JSON tree (a missing node when absent; anything but an object refused). */
    public static JsonNode spec(HasMetadata object) {
        Object raw = object instanceof GenericKubernetesResource generic
                ? generic.getAdditionalProperties().get("spec")
                : MAPPER.valueToTree(object).get("spec");
        return Workload.object(raw == null ? null : MAPPER.valueToTree(raw), "spec");
    }

    /**
     * A pod template at {@code node}, checked: the labels and annotations of its metadata, and its spec as a tree
     * (checked to read as a PodSpec, so the pods made from it are valid objects).
     */
    public record Template(Map<String, String> labels, Map<String, String> annotations, JsonNode spec, JsonNode tree) {

        public static Template read(JsonNode node, String field) {
            if (node == null || node.isNull() || node.isMissingNode()) {
                throw new IllegalArgumentException(field + " is missing");
            }
            // refuses what is not a pod template, with the field named
            Workload.template(node, field);
            JsonNode metadata = Workload.object(node.get("metadata"), field + ".metadata");
            JsonNode spec = Workload.object(node.get("spec"), field + ".spec");
            return new Template(
                    Workload.strings(metadata.get("labels"), field + ".metadata.labels"),
                    Workload.strings(metadata.get("annotations"), field + ".metadata.annotations"),
                    spec,
                    node);
        }
    }

    /** Whether a container or init container of a pod spec requests (or limits) a non-zero {@code resource}. */
    public static boolean requests(JsonNode podSpec, String resource) {
        for (String list : List.of("containers", "initContainers")) {
            JsonNode containers = podSpec.path(list);
            for (int i = 0; i < containers.size(); i++) {
                JsonNode resources = containers.get(i).path("resources");
                for (String side : List.of("limits", "requests")) {
                    JsonNode amount = resources.path(side).get(resource);
                    if (amount != null && !amount.isNull() && !isZero(amount.asText())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean isZero(String amount) {
        try {
            return new java.math.BigDecimal(amount.trim()).signum() == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Labels or annotations as a sorted copy, so printed objects are the same run after run. */
    public static Map<String, String> sorted(Map<String, String> values) {
        return new TreeMap<>(values);
    }

    /** A copy of {@code base} with {@code more} put over it. */
    public static Map<String, String> merged(Map<String, String> base, Map<String, String> more) {
        Map<String, String> out = new LinkedHashMap<>(base);
        out.putAll(more);
        return out;
    }

    public static ObjectMeta meta(
            String name,
            String generateName,
            String namespace,
            Map<String, String> labels,
            Map<String, String> annotations,
            List<OwnerReference> owners) {
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        meta.setGenerateName(generateName);
        meta.setNamespace(namespace);
        meta.setLabels(labels == null ? null : sorted(labels));
        meta.setAnnotations(annotations == null || annotations.isEmpty() ? null : sorted(annotations));
        meta.setOwnerReferences(new ArrayList<>(owners));
        return meta;
    }

    /**
     * An owner reference as the controllers' {@code NewControllerRef} writes it: the parent's API version for its
     * kind, name, uid (when the parent has one: a manifest not yet applied has none), controller, and
     * {@code blockOwnerDeletion} when given.
     */
    public static OwnerReference owner(String apiVersion, HasMetadata parent, Boolean blockOwnerDeletion) {
        OwnerReference ref = new OwnerReference();
        ref.setApiVersion(apiVersion);
        ref.setKind(parent.getKind());
        ref.setName(name(parent));
        ref.setUid(parent.getMetadata().getUid());
        ref.setController(true);
        ref.setBlockOwnerDeletion(blockOwnerDeletion);
        return ref;
    }

    /** The metadata of a child {@code parent}'s controller makes: in its namespace, controlled by it (a {@code kind}). */
    public static ObjectMeta child(
            String name,
            String generateName,
            HasMetadata parent,
            WorkloadKind kind,
            Map<String, String> labels,
            Map<String, String> annotations) {
        return meta(
                name,
                generateName,
                namespace(parent),
                labels,
                annotations,
                List.of(owner(kind.apiVersion(), parent, true)));
    }

    /** A Pod with {@code spec} read from a template's spec tree (a fresh copy per pod). */
    public static Pod pod(ObjectMeta meta, JsonNode spec) {
        Pod pod = new Pod();
        pod.setApiVersion(POD_API_VERSION);
        pod.setKind("Pod");
        pod.setMetadata(meta);
        pod.setSpec(spec == null || spec.isMissingNode() ? new PodSpec() : read(spec, PodSpec.class, "pod spec"));
        return pod;
    }

    /** An {@code apps/v1} object (a StatefulSet, a ReplicaSet) with {@code spec} read from a tree. */
    public static <T extends HasMetadata> T apps(Class<T> type, ObjectMeta meta, ObjectNode spec) {
        String kind = type.getSimpleName();
        ObjectNode node = MAPPER.createObjectNode();
        node.put("apiVersion", APPS_API_VERSION);
        node.put("kind", kind);
        node.set("spec", spec);
        T object = read(node, type, kind + " spec");
        object.setMetadata(meta);
        return object;
    }

    /** A custom resource of a workload kind, its spec a JSON tree. */
    public static GenericKubernetesResource custom(WorkloadKind kind, ObjectMeta meta, JsonNode spec) {
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion(kind.apiVersion());
        object.setKind(kind.kind());
        object.setMetadata(meta);
        object.setAdditionalProperty("spec", MAPPER.convertValue(spec, Map.class));
        return object;
    }

    /** A JSON tree read as a model class; what does not fit is refused with the field named. */
    public static <T> T read(JsonNode node, Class<T> type, String what) {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            String detail = e instanceof com.fasterxml.jackson.databind.JsonMappingException m
                    ? m.getOriginalMessage()
                    : e.getMessage();
            throw new IllegalArgumentException(what + " is not valid: " + UserText.excerpt(detail));
        }
    }

    /** A deep copy of a JSON object (a fresh empty object for a missing node). */
    public static ObjectNode copy(JsonNode node) {
        return node != null && node.isObject() ? ((ObjectNode) node).deepCopy() : MAPPER.createObjectNode();
    }

    /** The object at {@code field} of {@code node}, made (in place of anything else there) when it is not one. */
    public static ObjectNode objectAt(ObjectNode node, String field) {
        JsonNode child = node.get(field);
        return child != null && child.isObject() ? (ObjectNode) child : node.putObject(field);
    }

    /** A pod template tree with {@code labels} and {@code annotations} put into its metadata. */
    public static ObjectNode template(Template template, Map<String, String> labels, Map<String, String> annotations) {
        ObjectNode out = copy(template.tree());
        ObjectNode metadata = objectAt(out, "metadata");
        if (labels != null) {
            metadata.set("labels", MAPPER.valueToTree(sorted(labels)));
        }
        if (annotations != null && !annotations.isEmpty()) {
            metadata.set("annotations", MAPPER.valueToTree(sorted(annotations)));
        }
        return out;
    }

    /** Saturating addition of non-negative counts. */
    public static long add(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** Saturating multiplication of non-negative counts. */
    public static long times(long a, long b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }
}

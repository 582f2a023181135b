package io.topobridge.core.workload.kind;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.annotation.AnnotationSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A read-only view of a workload object, typed ({@code Deployment}) or generic (a custom kind as
 * {@code GenericKubernetesResource}): identity, owners, and its spec as a JSON tree. Never changes the
 * object it wraps, which may come from an informer cache.
 */
public final class Workload {

    static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final HasMetadata object;
    private final WorkloadKind kind;
    private JsonNode spec;

    private Workload(HasMetadata object, WorkloadKind kind) {
        this.object = object;
        this.kind = kind;
    }

    /** A view of an object of a known workload kind, if it is one. */
    public static Optional<Workload> of(HasMetadata object) {
        if (object == null || object.getMetadata() == null || object.getMetadata().getName() == null) {
            return Optional.empty();
        }
        return WorkloadKind.of(object.getApiVersion(), object.getKind()).map(k -> new Workload(object, k));
    }

    public HasMetadata object() {
        return object;
    }

    public WorkloadKind kind() {
        return kind;
    }

    public ObjectMeta metadata() {
        return object.getMetadata();
    }

    public String name() {
        return object.getMetadata().getName();
    }

    public String namespace() {
        return Objects.requireNonNullElse(object.getMetadata().getNamespace(), "");
    }

    public String uid() {
        return object.getMetadata().getUid();
    }

    public ObjectRef ref() {
        return new ObjectRef(kind.apiVersion(), kind.kind(), namespace(), name(), uid());
    }

    public Map<String, String> labels() {
        return object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
    }

    public Map<String, String> annotations() {
        return object.getMetadata().getAnnotations() == null ? Map.of() : object.getMetadata().getAnnotations();
    }

    /** The annotations of the object itself as a parser source. */
    public AnnotationSource metadataSource() {
        return new AnnotationSource(ref(), "metadata", annotations());
    }

    /** The spec as a JSON tree (missing node when absent). */
    public JsonNode spec() {
        if (spec == null) {
            Object raw;
            if (object instanceof GenericKubernetesResource generic) {
                raw = generic.getAdditionalProperties().get("spec");
            } else {
                raw = MAPPER.valueToTree(object).get("spec");
            }
            spec = raw == null ? MissingNode.getInstance() : MAPPER.valueToTree(raw);
        }
        return spec;
    }

    /** The owner reference of a given kind (by group and kind), if any. */
    public Optional<OwnerReference> owner(WorkloadKind ownerKind) {
        return owner(object.getMetadata(), ownerKind.group(), ownerKind.kind());
    }

    static Optional<OwnerReference> owner(ObjectMeta meta, String group, String kind) {
        if (meta == null || meta.getOwnerReferences() == null) {
            return Optional.empty();
        }
        for (OwnerReference ref : meta.getOwnerReferences()) {
            String refGroup = ref.getApiVersion() == null ? "" : ref.getApiVersion().contains("/")
                    ? ref.getApiVersion().substring(0, ref.getApiVersion().indexOf('/')) : "";
            if (kind.equals(ref.getKind()) && group.equals(refGroup)) {
                return Optional.of(ref);
            }
        }
        return Optional.empty();
    }

    /** An owner reference to this workload; null when its uid is unknown (e.g. a manifest not yet applied). */
    public OwnerReference ownerReference(boolean controller) {
        if (uid() == null || uid().isEmpty()) {
            return null;
        }
        return new OwnerReferenceBuilder().withApiVersion(kind.apiVersion()).withKind(kind.kind()).withName(name())
                .withUid(uid()).withController(controller).build();
    }

    /** Owner references to this workload, as a list (empty when the uid is unknown). */
    public List<OwnerReference> ownerReferences() {
        OwnerReference ref = ownerReference(true);
        return ref == null ? List.of() : List.of(ref);
    }

    /** A pod template inside the spec ({@code null} when the node is missing). */
    public static PodTemplateSpec template(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return null;
        }
        try {
            return MAPPER.treeToValue(node, PodTemplateSpec.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalArgumentException("pod template is not readable: " + e.getMessage(), e);
        }
    }

    /** An integer field: absent gives {@code absent}; anything but a whole number is refused. */
    public static int integer(JsonNode node, String field, int absent) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return absent;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber()) {
            throw new IllegalArgumentException(field + " is not a whole number: " + node);
        }
        int value = node.asInt();
        if (value < 0) {
            throw new IllegalArgumentException(field + " is negative: " + value);
        }
        return value;
    }

    /** The annotations of a pod template as a parser source. */
    public AnnotationSource templateSource(PodTemplateSpec template, String where) {
        Map<String, String> annotations = template == null || template.getMetadata() == null
                || template.getMetadata().getAnnotations() == null ? Map.of() : template.getMetadata().getAnnotations();
        return new AnnotationSource(ref(), where, annotations);
    }

    @Override
    public String toString() {
        return ref().toString();
    }
}

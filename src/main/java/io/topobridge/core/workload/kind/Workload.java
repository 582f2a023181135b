package io.topobridge.core.workload.kind;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.annotation.AnnotationSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A read-only view of a workload object, typed ({@code Deployment}) or generic (a custom kind as
 * {@code GenericKubernetesResource}): identity, owners, and its spec as a JSON tree. Never changes the
 * object it wraps, which may come from an informer cache.
 */
public final class Workload {

    public static final ObjectMapper MAPPER =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** How deep {@link #spec()} builds a generic spec's tree itself; deeper ones go through Jackson. */
    private static final int MAX_DIRECT_DEPTH = 64;

    private final HasMetadata object;
    private final WorkloadKind kind;
    private JsonNode spec;
    private ObjectRef ref;
    private Map<String, Object> memo;

    private Workload(HasMetadata object, WorkloadKind kind) {
        this.object = object;
        this.kind = kind;
    }

    /** A view of an object of a known workload kind, if it is one. */
    public static Optional<Workload> of(HasMetadata object) {
        if (object == null
                || object.getMetadata() == null
                || object.getMetadata().getName() == null) {
            return Optional.empty();
        }
        return WorkloadKind.of(object.getApiVersion(), object.getKind()).map(k -> new Workload(object, k));
    }

    /**
     * A value derived from this object, computed once per view (a view lives for one translation, so a
     * changed object gets a new view).
     */
    @SuppressWarnings("unchecked")
    public <T> T memo(String key, java.util.function.Supplier<T> compute) {
        if (memo == null) {
            memo = new java.util.HashMap<>();
        }
        Object value = memo.get(key);
        if (value == null) {
            value = compute.get();
            memo.put(key, value);
        }
        return (T) value;
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
        if (ref == null) {
            ref = new ObjectRef(kind.apiVersion(), kind.kind(), namespace(), name(), uid());
        }
        return ref;
    }

    public Map<String, String> labels() {
        return Objects.requireNonNullElse(object.getMetadata().getLabels(), Map.of());
    }

    public Map<String, String> annotations() {
        return Objects.requireNonNullElse(object.getMetadata().getAnnotations(), Map.of());
    }

    /** The annotations of the object itself as a parser source. */
    public AnnotationSource metadataSource() {
        return new AnnotationSource(ref(), "metadata", annotations(), labels(), null);
    }

    /** The spec as a JSON tree (missing node when absent); a spec that is not an object is refused. */
    public JsonNode spec() {
        if (spec == null) {
            Object raw = object instanceof GenericKubernetesResource generic
                    ? generic.getAdditionalProperties().get("spec")
                    : MAPPER.valueToTree(object).get("spec");
            JsonNode tree = raw == null ? null : tree(raw, 0);
            spec = object(raw == null || tree != null ? tree : MAPPER.valueToTree(raw), "spec");
        }
        return spec;
    }

    /**
     * What {@code MAPPER.valueToTree} makes of a parsed manifest's value, built directly for what one holds (maps with
     * string keys, lists, strings, booleans, Integer, Long, Double, null) and {@link #MAX_DIRECT_DEPTH} levels deep;
     * null for anything else, which then goes through Jackson whole (so its limits and errors are unchanged).
     */
    private static JsonNode tree(Object value, int depth) {
        if (value == null) {
            return NullNode.getInstance();
        } else if (value instanceof String s) {
            return TextNode.valueOf(s);
        } else if (value instanceof Integer i) {
            return IntNode.valueOf(i);
        } else if (value instanceof Long l) {
            return LongNode.valueOf(l);
        } else if (value instanceof Boolean b) {
            return BooleanNode.valueOf(b);
        } else if (value instanceof Double d) {
            return DoubleNode.valueOf(d);
        } else if (depth >= MAX_DIRECT_DEPTH) {
            return null;
        } else if (value instanceof Map<?, ?> map) {
            ObjectNode node = MAPPER.createObjectNode();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                JsonNode child = e.getKey() instanceof String ? tree(e.getValue(), depth + 1) : null;
                if (child == null) {
                    return null;
                }
                node.set((String) e.getKey(), child);
            }
            return node;
        } else if (value instanceof List<?> list) {
            ArrayNode node = MAPPER.createArrayNode();
            for (Object item : list) {
                JsonNode child = tree(item, depth + 1);
                if (child == null) {
                    return null;
                }
                node.add(child);
            }
            return node;
        }
        return null;
    }

    public Optional<OwnerReference> owner(WorkloadKind ownerKind) {
        return owner(object.getMetadata(), ownerKind);
    }

    public static Optional<OwnerReference> owner(ObjectMeta meta, WorkloadKind ownerKind) {
        if (meta == null || meta.getOwnerReferences() == null) {
            return Optional.empty();
        }
        for (OwnerReference ref : meta.getOwnerReferences()) {
            String api = ref == null ? "" : Objects.requireNonNullElse(ref.getApiVersion(), "");
            String group = api.contains("/") ? api.substring(0, api.indexOf('/')) : "";
            if (ref != null
                    && ownerKind.kind().equals(ref.getKind())
                    && ownerKind.group().equals(group)) {
                return Optional.of(ref);
            }
        }
        return Optional.empty();
    }

    /**
     * The owner that controls an object: the reference marked {@code controller}, else the only one. The one
     * rule the bridge follows owner chains by (pod to ReplicaSet or StatefulSet, ReplicaSet to Deployment).
     */
    public static Optional<OwnerReference> controller(ObjectMeta meta) {
        List<OwnerReference> refs = meta == null ? null : meta.getOwnerReferences();
        if (refs == null) {
            return Optional.empty();
        }
        for (OwnerReference ref : refs) {
            if (ref != null && Boolean.TRUE.equals(ref.getController())) {
                return Optional.of(ref);
            }
        }
        return refs.size() == 1 && refs.get(0) != null ? Optional.of(refs.get(0)) : Optional.empty();
    }

    /** An owner reference to this workload; null when its uid is unknown (e.g. a manifest not yet applied). */
    public OwnerReference ownerReference(boolean controller) {
        if (uid() == null || uid().isEmpty()) {
            return null;
        }
        return new OwnerReferenceBuilder()
                .withApiVersion(kind.apiVersion())
                .withKind(kind.kind())
                .withName(name())
                .withUid(uid())
                .withController(controller)
                .build();
    }

    /** Owner references to this workload, as a list (empty when the uid is unknown). */
    public List<OwnerReference> ownerReferences() {
        return Stream.ofNullable(ownerReference(true)).toList();
    }

    /** A pod template inside the spec ({@code null} when the node is missing); {@code field} names it in errors. */
    public static PodTemplateSpec template(JsonNode node, String field) {
        if (absent(node)) {
            return null;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException(
                    field + " is not a pod template: " + UserText.quote(String.valueOf(shown(node))));
        }
        try {
            return MAPPER.treeToValue(node, PodTemplateSpec.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            // Jackson's message quotes the offending input, which may be huge
            String detail = e instanceof com.fasterxml.jackson.databind.JsonMappingException m
                    ? m.getOriginalMessage()
                    : e.getMessage();
            throw new IllegalArgumentException(field + " is not a valid pod template: " + UserText.excerpt(detail));
        }
    }

    /** An integer field: absent gives {@code absent}; anything but a whole number from 0 up is refused. */
    public static int integer(JsonNode node, String field, int absent) {
        if (absent(node)) {
            return absent;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber()) {
            throw new IllegalArgumentException(field + "=" + UserText.quote(String.valueOf(shown(node)))
                    + " is not a whole number" + (node.isIntegralNumber() ? " in range" : ""));
        }
        int value = node.asInt();
        if (value < 0) {
            throw new IllegalArgumentException(field + "=" + value + " is negative");
        }
        return value;
    }

    private static boolean absent(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull();
    }

    /** {@code node}, null when absent; refused when it is not {@code what} (as {@code fits} tells). */
    private static JsonNode present(JsonNode node, String field, Predicate<JsonNode> fits, String what) {
        if (absent(node)) {
            return null;
        }
        if (!fits.test(node)) {
            throw new IllegalArgumentException(
                    field + "=" + UserText.quote(String.valueOf(shown(node))) + " is not " + what);
        }
        return node;
    }

    /** A JSON value as the user wrote it (a string without its JSON quotes). */
    private static String shown(JsonNode node) {
        return node.isTextual() ? node.asText() : node.toString();
    }

    /** A text field: absent gives {@code absent}; an object, array or number is refused. */
    public static String text(JsonNode node, String field, String absent) {
        JsonNode text = present(node, field, JsonNode::isTextual, "a string");
        return text == null ? absent : text.asText();
    }

    /** String values of a map field such as {@code metadata.annotations}; anything but a map of strings is refused. */
    public static Map<String, String> strings(JsonNode node, String field) {
        if (present(node, field, JsonNode::isObject, "a map") == null) {
            return Map.of();
        }
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (var entry : node.properties()) {
            if (!entry.getValue().isValueNode() || entry.getValue().isNull()) {
                throw new IllegalArgumentException(field + "." + UserText.identifier(String.valueOf(entry.getKey()))
                        + "=" + UserText.quote(String.valueOf(shown(entry.getValue()))) + " is not a string");
            }
            out.put(entry.getKey(), entry.getValue().asText());
        }
        return out;
    }

    /** An array field: absent gives an empty array; anything but an array is refused. */
    public static JsonNode array(JsonNode node, String field) {
        JsonNode array = present(node, field, JsonNode::isArray, "a list");
        return array == null ? MAPPER.createArrayNode() : array;
    }

    /** An object field: absent gives a missing node (every path of it is absent); a scalar or array is refused. */
    public static JsonNode object(JsonNode node, String field) {
        JsonNode object = present(node, field, JsonNode::isObject, "an object");
        return object == null ? MissingNode.getInstance() : object;
    }

    /** The annotations of a pod template as a parser source. */
    public AnnotationSource templateSource(PodTemplateSpec template, String where) {
        var meta = template == null ? null : template.getMetadata();
        String scheduler = template == null || template.getSpec() == null
                ? null
                : template.getSpec().getSchedulerName();
        return new AnnotationSource(
                ref(),
                where,
                meta == null ? null : meta.getAnnotations(),
                meta == null ? null : meta.getLabels(),
                scheduler);
    }

    @Override
    public String toString() {
        return ref().toString();
    }

    /**
     * Whether a rolling update adds pods before it takes any down, resolved as the workload controllers resolve it:
     * {@code maxUnavailable} rounded down and {@code maxSurge} rounded up on the replica count, an absent value the
     * kind's default, and when both come to 0 the controller takes one pod down after all (the Deployment
     * controller's fenceposts; LeaderWorkerSet refuses that case). So Kubernetes' default 25 % takes nothing down for
     * one to three replicas. A value that is not a count or a percentage is the API server's to refuse: not judged.
     */
    public static boolean surgeOnly(
            JsonNode maxUnavailable, JsonNode maxSurge, long replicas, String unavailableDefault, String surgeDefault) {
        return surgeOnly(text(maxUnavailable), text(maxSurge), replicas, unavailableDefault, surgeDefault);
    }

    /** The same rule on typed values ({@code null} when unset). */
    public static boolean surgeOnly(
            String maxUnavailable, String maxSurge, long replicas, String unavailableDefault, String surgeDefault) {
        long unavailable = scaled(maxUnavailable == null ? unavailableDefault : maxUnavailable, replicas, false);
        long surge = scaled(maxSurge == null ? surgeDefault : maxSurge, replicas, true);
        return unavailable == 0 && surge > 0;
    }

    private static String text(JsonNode node) {
        return absent(node) ? null : node.asText();
    }

    /** A count, or a percentage of {@code total}; -1 when it is neither. */
    private static long scaled(String value, long total, boolean roundUp) {
        String v = value.trim();
        try {
            if (v.endsWith("%")) {
                long percent = Long.parseLong(v.substring(0, v.length() - 1));
                if (percent < 0 || percent > 1_000_000) {
                    return -1;
                }
                long times = percent * Math.max(0, total);
                return roundUp ? (times + 99) / 100 : times / 100;
            }
            long n = Long.parseLong(v);
            return n < 0 ? -1 : n;
        } catch (NumberFormatException | ArithmeticException e) {
            return -1;
        }
    }
}

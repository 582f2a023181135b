package io.topobridge.core.expand;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reading objects as JSON trees (with the small readers the workload controllers share: a pod's ordinal, liveness, an
 * int-or-percent field, a label selector) and building the objects the controllers create (typed for built-in kinds);
 * the keys each controller writes live in its kind's folder.
 */
public final class Build {

    public static final ObjectMapper MAPPER = Workload.MAPPER;

    public static final String POD_API_VERSION = "v1";
    static final String APPS_API_VERSION = "apps/v1";

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
        return new OwnerReference(
                apiVersion,
                blockOwnerDeletion,
                true,
                parent.getKind(),
                name(parent),
                parent.getMetadata().getUid());
    }

    /** The metadata of a child {@code parent}'s controller makes: in its namespace, controlled by it. */
    public static ObjectMeta child(
            String name,
            String generateName,
            HasMetadata parent,
            Map<String, String> labels,
            Map<String, String> annotations) {
        String apiVersion = WorkloadKind.of(parent.getApiVersion(), parent.getKind())
                .orElseThrow()
                .apiVersion();
        return meta(
                name, generateName, namespace(parent), labels, annotations, List.of(owner(apiVersion, parent, true)));
    }

    /**
     * A Pod with {@code spec} read from a template's spec tree (a fresh copy per pod), and the hostname (when given)
     * and subdomain (when not empty) its controller sets.
     */
    public static Pod pod(ObjectMeta meta, JsonNode spec, String hostname, String subdomain) {
        Pod pod = new Pod();
        pod.setApiVersion(POD_API_VERSION);
        pod.setKind("Pod");
        pod.setMetadata(meta);
        pod.setSpec(spec == null || spec.isMissingNode() ? new PodSpec() : read(spec, PodSpec.class, "pod spec"));
        if (hostname != null) {
            pod.getSpec().setHostname(hostname);
        }
        if (subdomain != null && !subdomain.isEmpty()) {
            pod.getSpec().setSubdomain(subdomain);
        }
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

    /** Each object of the list at {@code field} (none when absent), read by {@code each} with its place. */
    public static <T> List<T> each(JsonNode array, String field, BiFunction<JsonNode, String, T> each) {
        JsonNode items = Workload.array(array, field);
        List<T> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String at = field + "[" + i + "]";
            out.add(each.apply(Workload.object(items.get(i), at), at));
        }
        return out;
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

    private static final Pattern ORDINAL = Pattern.compile("(.*)-([0-9]+)$");

    /** The ordinal at the end of a StatefulSet pod's name ({@code -1} when there is none, as in Kubernetes). */
    public static int ordinal(String podName) {
        Matcher m = ORDINAL.matcher(podName);
        if (!m.matches()) {
            return -1;
        }
        try {
            return Integer.parseInt(m.group(2));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Whether an object is not being deleted (a controller counts only those). */
    public static boolean live(HasMetadata object) {
        return object.getMetadata().getDeletionTimestamp() == null;
    }

    /** Whether a pod counts as active: not being deleted, not Succeeded or Failed. */
    public static boolean activePod(HasMetadata pod) {
        if (!live(pod)) {
            return false;
        }
        String phase = pod instanceof Pod typed && typed.getStatus() != null
                ? typed.getStatus().getPhase()
                : null;
        return !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    /**
     * An int-or-percent field scaled against {@code total} as {@code intstr.GetScaledValueFromIntOrPercent} does
     * (percentages rounded up or down); {@code absent} when the field is not set. {@code maxSurge} rounds up, as
     * {@code ResolveFenceposts} resolves it in AIBrix and the Deployment controller.
     */
    public static long scaled(JsonNode node, String field, long total, boolean roundUp, String absent) {
        String value;
        if (node == null || node.isNull() || node.isMissingNode()) {
            value = absent;
        } else if ((node.isIntegralNumber() && node.canConvertToLong())
                || (node.isTextual() && node.asText().endsWith("%"))) {
            value = node.asText();
        } else {
            throw new IllegalArgumentException(
                    field + "=" + UserText.quote(node.toString()) + " is not a number or a percentage");
        }
        if (value.endsWith("%")) {
            long percent;
            try {
                percent = Long.parseLong(value.substring(0, value.length() - 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(field + "=" + UserText.quote(value) + " is not a percentage");
            }
            if (percent < 0 || percent > 1_000_000) {
                throw new IllegalArgumentException(field + "=" + UserText.quote(value) + " is out of range");
            }
            double exact = (double) percent * total / 100.0;
            return roundUp ? (long) Math.ceil(exact) : (long) Math.floor(exact);
        }
        try {
            long n = Long.parseLong(value);
            if (n < 0) {
                throw new IllegalArgumentException(field + "=" + n + " is negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    field + "=" + UserText.quote(value) + " is not a number or a percentage");
        }
    }

    /** A label or annotation value the controller reads from a map that may lack it (Go's zero value, ""). */
    public static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    /** A selector read from {@code node}; an absent or empty selector matches everything, as in Kubernetes. */
    public record Selector(Map<String, String> matchLabels, JsonNode expressions, String field) {

        public boolean matches(Map<String, String> labels) {
            if (!labels.entrySet().containsAll(matchLabels.entrySet())) {
                return false;
            }
            for (int i = 0; i < expressions.size(); i++) {
                String at = field + ".matchExpressions[" + i + "]";
                JsonNode expression = Workload.object(expressions.get(i), at);
                String key = Workload.text(expression.get("key"), at + ".key", "");
                String operator = Workload.text(expression.get("operator"), at + ".operator", "");
                Set<String> values = new HashSet<>();
                JsonNode list = Workload.array(expression.get("values"), at + ".values");
                for (int j = 0; j < list.size(); j++) {
                    values.add(Workload.text(list.get(j), at + ".values[" + j + "]", ""));
                }
                boolean has = labels.containsKey(key);
                boolean ok = switch (operator) {
                    case "In" -> has && values.contains(labels.get(key));
                    case "NotIn" -> !has || !values.contains(labels.get(key));
                    case "Exists" -> has;
                    case "DoesNotExist" -> !has;
                    default ->
                        throw new IllegalArgumentException(
                                at + ".operator=" + UserText.quote(operator) + " is not a selector operator");
                };
                if (!ok) {
                    return false;
                }
            }
            return true;
        }

        /** The selector at {@code node}; {@code required} refuses an absent one (the controller would fail on it). */
        public static Selector read(JsonNode node, String field, boolean required) {
            if (required && (node == null || node.isNull() || node.isMissingNode())) {
                throw new IllegalArgumentException(field + " is missing");
            }
            JsonNode selector = Workload.object(node, field);
            return new Selector(
                    Workload.strings(selector.get("matchLabels"), field + ".matchLabels"),
                    Workload.array(selector.get("matchExpressions"), field + ".matchExpressions"),
                    field);
        }
    }
}

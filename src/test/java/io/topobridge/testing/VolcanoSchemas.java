package io.topobridge.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.runtime.CelEvaluationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Validates objects the bridge writes against Volcano's own definitions in {@code ../shared/upstream/volcano}:
 * the CRD's structural schema (with unknown fields reported, since a real API server would silently prune
 * them), every {@code x-kubernetes-validations} CEL rule evaluated with a real CEL engine, and, for
 * HyperNodes, the rules of Volcano's ValidatingAdmissionPolicy. Callers are skipped when the data is absent.
 */
public final class VolcanoSchemas {

    /** One Volcano definition: a CRD, and optionally admission policy rules, loaded once. */
    public static final class Definition {
        private final JsonNode openApiSchema;
        private final Schema structural;
        private final List<CelRule> crdRules = new ArrayList<>();
        private final List<PolicyRule> policyRules = new ArrayList<>();
        private final List<PolicyVariable> policyVariables = new ArrayList<>();

        private Definition(JsonNode openApiSchema) {
            this.openApiSchema = openApiSchema;
            ObjectNode jsonSchema = toJsonSchema(openApiSchema.deepCopy(), "");
            this.structural = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4)
                    .getSchema(jsonSchema.toString(), InputFormat.JSON);
            collectRules(openApiSchema, "", crdRules);
        }

        /** The upstream {@code openAPIV3Schema} of the CRD's served version. */
        public JsonNode openApiSchema() {
            return openApiSchema;
        }

        /** Every violation of {@code object} (serialised to JSON); empty when Volcano would accept it. */
        public List<String> violations(Object object) {
            JsonNode json = object instanceof JsonNode node ? node : SERIALIZATION.convertValue(object, JsonNode.class);
            List<String> out = new ArrayList<>();
            // the API server's own rules on identity, before any schema
            String name = json.path("metadata").path("name").asText("");
            if (name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
                out.add("metadata.name: '" + name + "' is not a DNS-1123 subdomain");
            }
            String namespace = json.path("metadata").path("namespace").asText(null);
            if (namespace != null
                    && (namespace.length() > 63 || !DNS_LABEL.matcher(namespace).matches())) {
                out.add("metadata.namespace: '" + namespace + "' is not a DNS-1123 label");
            }
            structural.validate(json.toString(), InputFormat.JSON).forEach(e -> out.add("schema: " + e.toString()));
            for (CelRule rule : crdRules) {
                for (JsonNode target : select(json, rule.path())) {
                    if (!evalBoolean(rule.expression(), Map.of("self", toCel(target)))) {
                        out.add("rule at " + rule.path() + ": " + rule.message());
                    }
                }
            }
            if (!policyRules.isEmpty()) {
                Map<String, Object> variables = new LinkedHashMap<>();
                Map<String, Object> bindings = new LinkedHashMap<>();
                bindings.put("object", toCel(json));
                bindings.put("variables", variables);
                for (PolicyVariable variable : policyVariables) {
                    variables.put(variable.name(), eval(variable.expression(), bindings));
                }
                for (PolicyRule rule : policyRules) {
                    boolean ok = rule.javaCheck() != null
                            ? rule.javaCheck().test(json)
                            : evalBoolean(rule.expression(), bindings);
                    if (!ok) {
                        out.add("admission policy: " + rule.message());
                    }
                }
            }
            return out;
        }

        /** The admission-policy rules CEL cannot evaluate here, checked by Java equivalents instead. */
        public List<String> javaCheckedPolicyRules() {
            return policyRules.stream()
                    .filter(r -> r.javaCheck() != null)
                    .map(PolicyRule::message)
                    .toList();
        }
    }

    record CelRule(String path, String expression, String message) {}

    record PolicyVariable(String name, String expression) {}

    record PolicyRule(String expression, String message, java.util.function.Predicate<JsonNode> javaCheck) {}

    private static final io.fabric8.kubernetes.client.utils.KubernetesSerialization SERIALIZATION =
            new io.fabric8.kubernetes.client.utils.KubernetesSerialization();
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final Cel CEL = CelFactory.standardCelBuilder()
            .setStandardMacros(dev.cel.parser.CelStandardMacro.STANDARD_MACROS)
            .addVar("self", SimpleType.DYN)
            .addVar("object", SimpleType.DYN)
            .addVar("variables", SimpleType.DYN)
            .addCompilerLibraries(CelExtensions.strings())
            .addRuntimeLibraries(CelExtensions.strings())
            .build();
    /** Kubernetes' qualified name (what CEL's {@code format.qualifiedName()} checks), without a prefix part. */
    private static final Pattern QUALIFIED_NAME = Pattern.compile("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$");

    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private static Definition podGroups;
    private static Definition hyperNodes;

    private VolcanoSchemas() {}

    /** Volcano's PodGroup definition ({@code scheduling.volcano.sh_podgroups.yaml}). */
    public static synchronized Definition podGroups() {
        if (podGroups == null) {
            podGroups = new Definition(crdSchema(
                    Upstream.file("volcano", "config/crd/volcano/bases/scheduling.volcano.sh_podgroups.yaml")));
        }
        return podGroups;
    }

    /** Volcano's HyperNode definition: CRD plus its ValidatingAdmissionPolicy. */
    public static synchronized Definition hyperNodes() {
        if (hyperNodes == null) {
            var definition = new Definition(crdSchema(
                    Upstream.file("volcano", "config/crd/volcano/bases/topology.volcano.sh_hypernodes.yaml")));
            loadPolicy(
                    Upstream.file("volcano", "installer/helm/chart/volcano/policy/hypernodes-validating.yaml"),
                    definition);
            hyperNodes = definition;
        }
        return hyperNodes;
    }

    /** Reads the {@code openAPIV3Schema} of the storage version of a CRD manifest. */
    public static JsonNode crdSchema(Path crd) {
        try {
            JsonNode root = YAML.readTree(crd.toFile());
            for (JsonNode version : root.path("spec").path("versions")) {
                if (version.path("storage").asBoolean()) {
                    return version.path("schema").path("openAPIV3Schema");
                }
            }
            throw new IllegalStateException("no storage version in " + crd);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void loadPolicy(Path file, Definition definition) {
        try (var parser = YAML.createParser(file.toFile())) {
            Iterator<JsonNode> docs = YAML.readValues(parser, JsonNode.class);
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (!"ValidatingAdmissionPolicy".equals(doc.path("kind").asText())) {
                    continue;
                }
                for (JsonNode variable : doc.path("spec").path("variables")) {
                    definition.policyVariables.add(new PolicyVariable(
                            variable.path("name").asText(),
                            variable.path("expression").asText()));
                }
                for (JsonNode validation : doc.path("spec").path("validations")) {
                    String expression = validation.path("expression").asText();
                    String message = validation.path("message").asText();
                    definition.policyRules.add(new PolicyRule(expression, message, javaEquivalent(expression)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Kubernetes' CEL library functions that the CEL reference engine lacks get a Java equivalent here; any
     * other unknown construct fails loudly so a new upstream rule is never silently ignored.
     */
    private static java.util.function.Predicate<JsonNode> javaEquivalent(String expression) {
        if (!expression.contains("format.")) {
            compile(expression);
            return null;
        }
        if (expression.contains("format.qualifiedName()") && expression.contains("exactMatchNames")) {
            return object -> {
                for (JsonNode member : object.path("spec").path("members")) {
                    JsonNode name = member.path("selector").path("exactMatch").path("name");
                    if (!name.isMissingNode()
                            && (name.asText().length() > 63
                                    || !QUALIFIED_NAME.matcher(name.asText()).matches())) {
                        return false;
                    }
                }
                return true;
            };
        }
        throw new IllegalStateException("upstream admission rule uses a Kubernetes CEL function this test cannot "
                + "evaluate; add a Java equivalent: " + expression);
    }

    // ---- OpenAPI (Kubernetes flavour) to JSON Schema draft 4 ------------------------------------------

    private static ObjectNode toJsonSchema(ObjectNode schema, String path) {
        List<String> drop = new ArrayList<>();
        schema.fieldNames().forEachRemaining(name -> {
            if (name.startsWith("x-kubernetes-")
                    || name.equals("nullable")
                    || name.equals("format")
                    || name.equals("description")
                    || name.equals("default")) {
                drop.add(name);
            }
        });
        boolean intOrString = schema.path("x-kubernetes-int-or-string").asBoolean();
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean();
        schema.remove(drop);
        if (intOrString && !schema.has("anyOf") && !schema.has("type")) {
            ArrayNode any = schema.putArray("anyOf");
            any.addObject().put("type", "integer");
            any.addObject().put("type", "string");
        }
        if (schema.get("properties") instanceof ObjectNode properties) {
            properties.fields().forEachRemaining(e -> toJsonSchema((ObjectNode) e.getValue(), path + "." + e.getKey()));
            // a real API server prunes fields its schema does not know: flag them instead of losing them silently
            if (!schema.has("additionalProperties") && !preserve) {
                schema.put("additionalProperties", false);
            }
        }
        if (schema.get("items") instanceof ObjectNode items) {
            toJsonSchema(items, path + "[]");
        }
        if (schema.get("additionalProperties") instanceof ObjectNode values) {
            toJsonSchema(values, path + "{}");
        }
        if (schema.get("anyOf") instanceof ArrayNode any) {
            any.forEach(s -> toJsonSchema((ObjectNode) s, path));
        }
        if (path.isEmpty() && schema.path("properties").get("metadata") instanceof ObjectNode metadata) {
            metadata.remove("additionalProperties"); // ObjectMeta is validated by the API server, not the CRD
        }
        return schema;
    }

    private static void collectRules(JsonNode schema, String path, List<CelRule> out) {
        for (JsonNode rule : schema.path("x-kubernetes-validations")) {
            String expression = rule.path("rule").asText();
            compile(expression);
            out.add(new CelRule(path, expression, rule.path("message").asText(expression)));
        }
        schema.path("properties")
                .fields()
                .forEachRemaining(e -> collectRules(e.getValue(), path + "." + e.getKey(), out));
        if (schema.has("items")) {
            collectRules(schema.get("items"), path + "[]", out);
        }
        if (schema.path("additionalProperties").isObject()) {
            collectRules(schema.get("additionalProperties"), path + "{}", out);
        }
    }

    /** Nodes of {@code root} at a path like {@code .spec.members[].selector}. */
    private static List<JsonNode> select(JsonNode root, String path) {
        List<JsonNode> current = List.of(root);
        var matcher = Pattern.compile("\\.([^.\\[{]+)|(\\[])|(\\{})").matcher(path);
        while (matcher.find()) {
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode node : current) {
                if (matcher.group(1) != null) {
                    if (node.has(matcher.group(1))) {
                        next.add(node.get(matcher.group(1)));
                    }
                } else {
                    node.elements().forEachRemaining(next::add);
                }
            }
            current = next;
        }
        return current;
    }

    // ---- CEL ------------------------------------------------------------------------------------------

    private static dev.cel.common.CelAbstractSyntaxTree compile(String expression) {
        try {
            return CEL.compile(expression).getAst();
        } catch (CelValidationException e) {
            throw new IllegalStateException(
                    "cannot compile upstream CEL rule: " + expression + ": " + e.getMessage(), e);
        }
    }

    private static Object eval(String expression, Map<String, ?> bindings) {
        try {
            return CEL.createProgram(compile(expression)).eval(bindings);
        } catch (CelEvaluationException e) {
            throw new IllegalStateException("cannot evaluate " + expression + ": " + e.getMessage(), e);
        }
    }

    private static boolean evalBoolean(String expression, Map<String, ?> bindings) {
        Object result = eval(expression, bindings);
        if (!(result instanceof Boolean b)) {
            throw new IllegalStateException("rule did not yield a boolean: " + expression + " -> " + result);
        }
        return b;
    }

    /** JSON to the values CEL expects: maps, lists, longs, doubles, strings, booleans. */
    private static Object toCel(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> out = new LinkedHashMap<>();
            node.fields().forEachRemaining(e -> out.put(e.getKey(), toCel(e.getValue())));
            return out;
        }
        if (node.isArray()) {
            List<Object> out = new ArrayList<>();
            node.forEach(n -> out.add(toCel(n)));
            return out;
        }
        if (node.isIntegralNumber()) {
            return node.asLong();
        }
        if (node.isNumber()) {
            return node.asDouble();
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        return node.isNull() ? dev.cel.common.values.NullValue.NULL_VALUE : node.asText();
    }
}

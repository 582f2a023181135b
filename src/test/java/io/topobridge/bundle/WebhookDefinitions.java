package io.topobridge.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The chart's webhook configurations as a CSV's {@code webhookdefinitions}: one definition per webhook, field by field.
 * OLM registers each in a configuration of its own, calls it through its Service {@code <deployment>-service} (port
 * {@code containerPort}, forwarded to {@code targetPort}), injects its own CA as the caBundle and sets the
 * namespaceSelector from the OperatorGroup (none for AllNamespaces). Any other field a chart webhook carries fails the
 * mapping, so a webhook setting cannot be lost silently.
 */
final class WebhookDefinitions {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** The fields a definition carries as they are. */
    private static final List<String> COPIED = List.of(
            "rules",
            "failurePolicy",
            "matchPolicy",
            "objectSelector",
            "sideEffects",
            "timeoutSeconds",
            "admissionReviewVersions",
            "reinvocationPolicy");
    /** The fields OLM sets itself (see the class comment); the name becomes the definition's generateName. */
    private static final Set<String> SET_BY_OLM = Set.of("name", "clientConfig", "namespaceSelector");

    private WebhookDefinitions() {}

    static ArrayNode from(List<JsonNode> configurations, JsonNode service, JsonNode deployment) {
        ArrayNode definitions = JSON.arrayNode();
        for (JsonNode configuration : configurations) {
            String type = switch (configuration.path("kind").asText()) {
                case "MutatingWebhookConfiguration" -> "MutatingAdmissionWebhook";
                case "ValidatingWebhookConfiguration" -> "ValidatingAdmissionWebhook";
                default ->
                    throw new IllegalArgumentException(
                            configuration.path("kind").asText());
            };
            for (JsonNode webhook : configuration.path("webhooks")) {
                definitions.add(definition(type, webhook, service, deployment));
            }
        }
        return definitions;
    }

    private static ObjectNode definition(String type, JsonNode webhook, JsonNode service, JsonNode deployment) {
        String name = webhook.path("name").asText();
        List<String> unknown = new ArrayList<>();
        webhook.fieldNames().forEachRemaining(field -> {
            if (!COPIED.contains(field) && !SET_BY_OLM.contains(field)) {
                unknown.add(field);
            }
        });
        if (!unknown.isEmpty()) {
            throw new IllegalStateException("webhook " + name + " sets " + unknown
                    + ", which a CSV webhook definition cannot carry: map them in "
                    + WebhookDefinitions.class.getSimpleName());
        }
        JsonNode port = servicePort(service, webhook.at("/clientConfig/service/port"));
        ObjectNode definition = JSON.objectNode();
        definition.put("generateName", name);
        definition.put("type", type);
        definition.put(
                "deploymentName", deployment.path("metadata").path("name").asText());
        definition.put("containerPort", port.path("port").asInt());
        definition.put("targetPort", containerPort(deployment, port.path("targetPort")));
        definition.put("webhookPath", webhook.at("/clientConfig/service/path").asText());
        for (String field : COPIED) {
            if (webhook.has(field)) {
                definition.set(field, webhook.get(field).deepCopy());
            }
        }
        return definition;
    }

    private static JsonNode servicePort(JsonNode service, JsonNode port) {
        for (JsonNode candidate : service.at("/spec/ports")) {
            if (candidate.path("port").asInt() == port.asInt()) {
                return candidate;
            }
        }
        throw new IllegalStateException("the webhook Service "
                + service.at("/metadata/name").asText() + " has no port " + port.asInt() + " the webhooks call");
    }

    /** A Service's target port as the container's port number (a named one looked up in the Deployment). */
    private static int containerPort(JsonNode deployment, JsonNode target) {
        if (target.isInt()) {
            return target.asInt();
        }
        for (JsonNode container : deployment.at("/spec/template/spec/containers")) {
            for (JsonNode port : container.path("ports")) {
                if (port.path("name").asText().equals(target.asText())) {
                    return port.path("containerPort").asInt();
                }
            }
        }
        throw new IllegalStateException("no container port named " + target.asText() + " in the Deployment");
    }
}

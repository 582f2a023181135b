package io.topobridge.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.topobridge.core.finding.UserText;
import java.io.IOException;
import java.util.Objects;

/**
 * The parts of an {@code admission.k8s.io/v1} AdmissionReview request the webhooks read. Parsing is strict
 * about what the answer depends on (apiVersion, kind, uid, operation) and says exactly what is wrong.
 */
public record AdmissionRequest(
        String uid,
        String group,
        String version,
        String kind,
        String operation,
        String namespace,
        String name,
        ObjectNode object,
        ObjectNode oldObject) {

    public static final String API_VERSION = "admission.k8s.io/v1";
    public static final String KIND = "AdmissionReview";

    /** The review cannot be answered; the message says why (HTTP 400). */
    public static final class MalformedException extends RuntimeException {
        public MalformedException(String message) {
            super(message);
        }
    }

    public AdmissionRequest {
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(operation, "operation");
    }

    /** Parses a request body; throws {@link MalformedException} naming the missing or wrong field. */
    public static AdmissionRequest parse(ObjectMapper mapper, byte[] body) {
        JsonNode root;
        try {
            root = mapper.readTree(body);
        } catch (IOException e) {
            throw new MalformedException("the body is not JSON: " + UserText.excerpt(firstLine(e.getMessage())));
        }
        if (root == null || !root.isObject()) {
            throw new MalformedException("the body is not a JSON object (expected an " + KIND + ")");
        }
        String apiVersion = root.path("apiVersion").asText(null);
        String kind = root.path("kind").asText(null);
        if (!KIND.equals(kind)) {
            throw new MalformedException("kind is " + quote(kind) + ", expected " + KIND);
        }
        if (!API_VERSION.equals(apiVersion)) {
            throw new MalformedException("apiVersion is " + quote(apiVersion) + "; only " + API_VERSION
                    + " is served (set admissionReviewVersions: [v1])");
        }
        JsonNode request = root.get("request");
        if (request == null || !request.isObject()) {
            throw new MalformedException("request is missing");
        }
        String uid = text(request, "uid");
        if (uid == null || uid.isEmpty()) {
            throw new MalformedException("request.uid is missing");
        }
        String operation = text(request, "operation");
        if (operation == null || operation.isEmpty()) {
            throw new MalformedException("request.operation is missing");
        }
        JsonNode kindNode = request.path("kind");
        JsonNode object = request.get("object");
        JsonNode oldObject = request.get("oldObject");
        if (object != null && !object.isNull() && !object.isObject()) {
            throw new MalformedException("request.object is not an object");
        }
        if (oldObject != null && !oldObject.isNull() && !oldObject.isObject()) {
            throw new MalformedException("request.oldObject is not an object");
        }
        return new AdmissionRequest(
                uid,
                kindNode.path("group").asText(""),
                kindNode.path("version").asText(""),
                kindNode.path("kind").asText(""),
                operation,
                text(request, "namespace"),
                text(request, "name"),
                object instanceof ObjectNode o ? o : null,
                oldObject instanceof ObjectNode o ? o : null);
    }

    /** {@code Kind namespace/name} for log lines (the name is the client's, not yet validated by the API server). */
    public String describe() {
        String id = name == null || name.isEmpty()
                ? (object == null
                        ? ""
                        : object.path("metadata").path("generateName").asText("") + "*")
                : name;
        return UserText.identifier(kind) + " "
                + (namespace == null || namespace.isEmpty()
                        ? UserText.identifier(id)
                        : UserText.identifier(namespace) + "/" + UserText.identifier(id));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static String quote(String value) {
        return value == null ? "absent" : UserText.quote(value);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}

package io.topobridge.webhook;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.finding.UserText;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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

    /** The body exceeds one of the {@link AdmissionLimits} (HTTP 413); the message names the limit and its value. */
    public static final class LimitException extends RuntimeException {
        private final String limit;

        public LimitException(String limit, String message) {
            super(message);
            this.limit = limit;
        }

        /** The limit, as the refusal metric tags it: e.g. {@code max-json-depth}. */
        public String limit() {
            return limit;
        }
    }

    public AdmissionRequest {
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(operation, "operation");
    }

    /**
     * A streaming pass over {@code length} bytes of {@code body} from {@code offset} that builds nothing: checks that
     * it is one JSON object within the size, depth, token and string-length limits (throwing {@link LimitException}
     * or {@link MalformedException}), and returns its number of tokens. It reads a multi-megabyte body with a few
     * kilobytes of buffers, so garbage is refused for the cost of reading it.
     */
    public static long scan(byte[] body, int offset, int length, AdmissionLimits limits) {
        if (length > limits.maxBodyBytes()) {
            throw new LimitException(
                    "max-body-size",
                    "the request body has " + length + " bytes, over " + AdmissionLimits.MAX_BODY_SIZE + "="
                            + AdmissionLimits.formatSize(limits.maxBodyBytes()));
        }
        long tokens = 0;
        int depth = 0;
        try (JsonParser parser = factory(limits).createParser(body, offset, length)) {
            JsonToken token = parser.nextToken();
            if (token != JsonToken.START_OBJECT) {
                throw new MalformedException("the body is not a JSON object (expected an " + KIND + ")");
            }
            for (; token != null; token = parser.nextToken()) {
                if (++tokens > limits.maxJsonTokens()) {
                    throw new LimitException(
                            "max-json-tokens",
                            "the request body has more than " + limits.maxJsonTokens() + " JSON tokens ("
                                    + AdmissionLimits.MAX_JSON_TOKENS + "); no AdmissionReview the API server sends "
                                    + "has that many");
                }
                switch (token) {
                    case START_OBJECT, START_ARRAY -> {
                        if (++depth > limits.maxJsonDepth()) {
                            throw new LimitException(
                                    "max-json-depth",
                                    "the request body nests JSON deeper than " + limits.maxJsonDepth() + " levels ("
                                            + AdmissionLimits.MAX_JSON_DEPTH + ")");
                        }
                    }
                    case END_OBJECT, END_ARRAY -> {
                        if (--depth == 0 && parser.nextToken() != null) {
                            throw new MalformedException("the body holds more after the " + KIND + " object");
                        } else if (depth == 0) {
                            return tokens;
                        }
                    }
                    case FIELD_NAME, VALUE_STRING -> {
                        // decodes the string into the parser's reusable buffer, without making a String of it
                        if (parser.getTextLength() > AdmissionLimits.MAX_STRING_LENGTH) {
                            throw new LimitException(
                                    "max-string-length",
                                    "the request body has a JSON string longer than "
                                            + AdmissionLimits.formatSize(AdmissionLimits.MAX_STRING_LENGTH)
                                            + " characters; all annotations of an object together are at most "
                                            + "256Ki");
                        }
                    }
                    default -> {
                        // scalars: Jackson bounds the length of numbers itself
                    }
                }
            }
            throw new MalformedException("the body is not JSON: it ends before its object does");
        } catch (StreamConstraintsException e) {
            throw new LimitException(
                    "parser",
                    "the request body exceeds a JSON parser limit: "
                            + UserText.excerpt(UserText.firstLine(e.getMessage())));
        } catch (IOException e) {
            throw new MalformedException(
                    "the body is not JSON: " + UserText.excerpt(UserText.firstLine(e.getMessage())));
        }
    }

    /** One parser factory per set of limits (a process has one or two). */
    private static final Map<AdmissionLimits, JsonFactory> FACTORIES = new ConcurrentHashMap<>();

    /**
     * The parser of the pass: Jackson's own constraints sit just above the limits checked by hand (so the answer
     * names the configuration key), and field names are not interned (a body of random names would fill the table).
     */
    private static JsonFactory factory(AdmissionLimits limits) {
        return FACTORIES.computeIfAbsent(
                limits,
                l -> JsonFactory.builder()
                        .streamReadConstraints(StreamReadConstraints.builder()
                                .maxNestingDepth(l.maxJsonDepth() + 1)
                                .maxTokenCount(l.maxJsonTokens() + 2)
                                .maxStringLength(AdmissionLimits.MAX_STRING_LENGTH + 1)
                                .maxNameLength(AdmissionLimits.MAX_STRING_LENGTH + 1)
                                .maxDocumentLength(l.maxBodyBytes() + 1)
                                .build())
                        .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
                        .build());
    }

    /** Parses a body {@link #scan} accepted into a tree and reads the request from it. */
    static AdmissionRequest parseScanned(ObjectMapper mapper, byte[] body, int offset, int length) {
        JsonNode root;
        try (JsonParser parser = mapper.getFactory().createParser(body, offset, length)) {
            root = mapper.readTree(parser);
        } catch (IOException e) {
            throw new MalformedException(
                    "the body is not JSON: " + UserText.excerpt(UserText.firstLine(e.getMessage())));
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

    /** Whether the request is for one of {@code namespaces} (those the webhooks leave alone). */
    public boolean inAny(Set<String> namespaces) {
        return namespace != null && namespaces.contains(namespace);
    }

    /** {@code object} (the request's, or its old one) read as {@code type}; malformed when it is no {@code what}. */
    public static <T> T read(KubernetesSerialization serialization, JsonNode object, Class<T> type, String what) {
        try {
            return serialization.convertValue(object, type);
        } catch (IllegalArgumentException e) {
            throw new MalformedException("request.object is not a " + what + ": " + UserText.excerpt(e.getMessage()));
        }
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
}

package io.topobridge.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.topobridge.core.admission.JsonPatch;
import io.topobridge.core.finding.UserText;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * A webhook's answer to one review: allowed (with a JSON patch or none) or denied with a message, plus
 * warnings the API server passes on to the client ({@code kubectl} prints them). {@code result} names the
 * outcome for the metrics.
 */
public record AdmissionAnswer(
        boolean allowed, List<JsonPatch.Operation> patch, String message, List<String> warnings, String result) {

    /** Kubernetes shows at most this many characters of one warning. */
    static final int MAX_WARNING = 256;
    /** A denial joins the messages of all new rejections; a few of them, each at most 1 KiB, fit whole. */
    static final int MAX_MESSAGE_BYTES = 4 * UserText.MAX_MESSAGE_BYTES;

    public AdmissionAnswer {
        patch = List.copyOf(patch);
        message = message == null ? null : UserText.line(message, MAX_MESSAGE_BYTES);
        warnings = warnings.stream()
                .map(w -> w.length() > MAX_WARNING ? w.substring(0, MAX_WARNING - 3) + "..." : w)
                .toList();
        Objects.requireNonNull(result, "result");
    }

    public static AdmissionAnswer allow(String result, List<String> warnings) {
        return new AdmissionAnswer(true, List.of(), null, warnings, result);
    }

    /** Allowed untouched: the request is none of this webhook's business. */
    public static AdmissionAnswer skipped() {
        return allow("skipped", List.of());
    }

    public static AdmissionAnswer patch(List<JsonPatch.Operation> patch, List<String> warnings) {
        return new AdmissionAnswer(true, patch, null, warnings, patch.isEmpty() ? "unchanged" : "patched");
    }

    /** Denied as invalid (HTTP 422 in the review's status): the object breaks a rule its author can fix. */
    public static AdmissionAnswer deny(String message, List<String> warnings) {
        return new AdmissionAnswer(false, List.of(), message, warnings, "denied");
    }

    /** The AdmissionReview response document for {@code uid}. */
    public ObjectNode toReview(ObjectMapper mapper, String uid) {
        ObjectNode review = mapper.createObjectNode();
        review.put("apiVersion", AdmissionRequest.API_VERSION).put("kind", AdmissionRequest.KIND);
        ObjectNode response = review.putObject("response");
        response.put("uid", uid).put("allowed", allowed);
        if (!patch.isEmpty()) {
            byte[] json;
            try {
                json = mapper.writeValueAsBytes(JsonPatch.toJson(patch));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("cannot serialise a JSON patch", e);
            }
            response.put("patchType", "JSONPatch")
                    .put("patch", Base64.getEncoder().encodeToString(json));
        }
        if (!allowed) {
            response.putObject("status")
                    .put("code", 422)
                    .put("reason", "Invalid")
                    .put("message", message);
        }
        if (!warnings.isEmpty()) {
            var array = response.putArray("warnings");
            warnings.forEach(array::add);
        }
        return review;
    }
}

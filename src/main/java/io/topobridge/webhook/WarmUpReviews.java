package io.topobridge.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The reviews a starting bridge sends to its own webhook server before registering it ({@code warm-up-reviews.json}):
 * one CREATE per served path, of the kind that path reviews, in a namespace made up for the purpose
 * ({@code topobridge-warm-up}, where a live read of the pod's owner finds nothing). Each takes the path a real request
 * takes (parsing, the owner looked up in the caches and read live, the patch computed and serialized) and ends
 * untouched: the objects name no {@code topobridge.io/} key and their owner does not exist. They are marked dry-run.
 */
final class WarmUpReviews {

    private WarmUpReviews() {}

    /** A review body, with a uid of its own, per path of {@code paths} that has one (the three webhooks served). */
    static Map<String, byte[]> forPaths(ObjectMapper mapper, Set<String> paths) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (InputStream in = WarmUpReviews.class.getResourceAsStream("warm-up-reviews.json")) {
            for (Map.Entry<String, JsonNode> review : mapper.readTree(in).properties()) {
                if (paths.contains(review.getKey())) {
                    ((ObjectNode) review.getValue().get("request"))
                            .put("uid", UUID.randomUUID().toString());
                    out.put(review.getKey(), mapper.writeValueAsBytes(review.getValue()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}

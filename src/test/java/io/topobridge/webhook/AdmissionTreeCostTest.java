package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The heap a parsed review takes per JSON token stays within {@link AdmissionLimits#TREE_BYTES_PER_TOKEN}, for the
 * costliest shapes a body can have and for a real pod: what the bytes in flight reserve for a tree is an upper bound.
 * Measured as the bytes the parsing thread allocates (the tree and the garbage of growing it).
 */
class AdmissionTreeCostTest {

    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of("empty objects [{},{},...]", repeat("{}", 50_000)),
                Arguments.of("empty arrays [[],[],...]", repeat("[]", 50_000)),
                Arguments.of("one-letter strings [\"a\",...]", repeat("\"a\"", 50_000)),
                Arguments.of("numbers [1000,...]", repeat("1000", 50_000)),
                Arguments.of("unique field names {\"f0\":0,...}", names(50_000)),
                Arguments.of("a pod with 500 variables", pod(500)));
    }

    private static String repeat(String element, int count) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            out.append(i == 0 ? "" : ",").append(element);
        }
        return WebhookLimitsTest.reviewAround(out.append(']').toString());
    }

    private static String names(int count) {
        StringBuilder out = new StringBuilder("{");
        for (int i = 0; i < count; i++) {
            out.append(i == 0 ? "" : ",").append("\"f").append(i).append("\":0");
        }
        return WebhookLimitsTest.reviewAround(out.append('}').toString());
    }

    /** A Pod CREATE review with {@code variables} environment variables, as the API server sends it. */
    static String pod(int variables) {
        var pod = Reviews.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata")
                .put("generateName", "vllm-decode-")
                .put("namespace", "ml")
                .putObject("labels")
                .put("app", "vllm")
                .put("pod-template-hash", "7d9f8c6b5");
        var container = pod.putObject("spec").putArray("containers").addObject();
        container.put("name", "vllm").put("image", "registry.example/vllm/vllm-openai:v0.11.0");
        var env = container.putArray("env");
        for (int i = 0; i < variables; i++) {
            env.addObject().put("name", "VLLM_SETTING_" + i).put("value", "value-of-setting-" + i);
        }
        container
                .putObject("resources")
                .putObject("requests")
                .put("cpu", "8")
                .put("memory", "64Gi")
                .put("nvidia.com/gpu", "4");
        return Reviews.podCreate("ml", pod).toString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void aTreeTakesAtMostTheReservedBytesPerToken(String name, String review) {
        byte[] body = review.getBytes(StandardCharsets.UTF_8);
        long tokens = AdmissionRequest.scan(body, 0, body.length, WebhookServerBuilder.DEFAULT_LIMITS);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        JsonNode kept = null;
        for (int i = 0; i < 3; i++) {
            kept = tree(body);
        }
        long before = threads.getThreadAllocatedBytes(id);
        kept = tree(body);
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        System.out.printf(
                "%s: %d bytes, %d tokens, tree allocated %d bytes = %.1f per token, %.1f per body byte%n",
                name, body.length, tokens, allocated, (double) allocated / tokens, (double) allocated / body.length);
        assertThat(kept).isNotNull();
        assertThat((double) allocated / tokens).isLessThanOrEqualTo(AdmissionLimits.TREE_BYTES_PER_TOKEN);
    }

    private static JsonNode tree(byte[] body) {
        try {
            return Reviews.JSON.readTree(body);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

package io.topobridge.core.workload.kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A generic workload's spec tree is the one Jackson's {@code valueToTree} makes of the parsed manifest: node types,
 * key order and nulls alike, for random manifests, for values a parsed manifest never holds and for specs nested
 * deeper than the direct build goes (compared node for node, or by the error both refuse with).
 */
class WorkloadSpecTest {

    @Test
    void randomManifestsGiveJacksonsTree() {
        var random = new Random(7);
        for (int i = 0; i < 500; i++) {
            assertSameTree(map(random, 0));
        }
    }

    @Test
    void valuesAManifestNeverHoldsGoThroughJackson() {
        List<Object> odd = List.of(
                new BigDecimal("1.50"),
                new BigInteger("123456789012345678901234567890"),
                (short) 3,
                1.5f,
                (byte) 2,
                List.of(Map.of(1, "a")),
                new StringBuilder("sb"));
        for (Object value : odd) {
            var spec = new LinkedHashMap<String, Object>();
            spec.put("a", 1);
            spec.put("odd", List.of(Map.of("x", value)));
            assertSameTree(spec);
        }
        var nullKey = new HashMap<String, Object>();
        nullKey.put(null, 1);
        assertSameTree(Map.of("m", nullKey));
        assertSameTree("not an object");
        assertSameTree(List.of(1, 2));
    }

    @Test
    void deepSpecsGiveJacksonsTreeOrItsError() {
        for (int depth : new int[] {63, 64, 65, 200, 1500}) {
            Object value = "leaf";
            for (int i = 0; i < depth; i++) {
                value = i % 2 == 0 ? List.of(value) : Map.of("k", value);
            }
            assertSameTree(Map.of("deep", value));
        }
    }

    private static void assertSameTree(Object raw) {
        var object = new GenericKubernetesResource();
        object.setApiVersion("leaderworkerset.x-k8s.io/v1");
        object.setKind("LeaderWorkerSet");
        object.setMetadata(
                new ObjectMetaBuilder().withName("w").withNamespace("ns").build());
        object.setAdditionalProperty("spec", raw);
        Workload workload = Workload.of(object).orElseThrow();

        JsonNode expected = null;
        Throwable expectedError = catchThrowable(() -> Workload.object(Workload.MAPPER.valueToTree(raw), "spec"));
        if (expectedError == null) {
            expected = Workload.object(Workload.MAPPER.valueToTree(raw), "spec");
        }
        Throwable error = catchThrowable(workload::spec);
        if (expectedError != null) {
            assertThat(error).isNotNull().hasMessage(expectedError.getMessage());
            assertThat(error.getClass()).isEqualTo(expectedError.getClass());
            return;
        }
        assertThat(error).isNull();
        JsonNode actual = workload.spec();
        assertThat(actual).isEqualTo(expected);
        assertSameTypes(actual, expected);
    }

    private static void assertSameTypes(JsonNode actual, JsonNode expected) {
        assertThat(actual.getClass()).isEqualTo(expected.getClass());
        List<String> actualNames = new ArrayList<>();
        actual.fieldNames().forEachRemaining(actualNames::add);
        List<String> expectedNames = new ArrayList<>();
        expected.fieldNames().forEachRemaining(expectedNames::add);
        assertThat(actualNames).isEqualTo(expectedNames);
        for (int i = 0; i < expected.size(); i++) {
            JsonNode e = expected.isObject() ? expected.get(expectedNames.get(i)) : expected.get(i);
            JsonNode a = actual.isObject() ? actual.get(expectedNames.get(i)) : actual.get(i);
            assertSameTypes(a, e);
        }
    }

    private static Map<String, Object> map(Random random, int depth) {
        var out = new LinkedHashMap<String, Object>();
        int size = random.nextInt(depth > 3 ? 2 : 6);
        for (int i = 0; i < size; i++) {
            out.put("k" + random.nextInt(20), value(random, depth + 1));
        }
        return out;
    }

    private static Object value(Random random, int depth) {
        return switch (random.nextInt(depth > 4 ? 7 : 9)) {
            case 0 -> null;
            case 1 -> "s" + random.nextInt(100);
            case 2 -> random.nextInt();
            case 3 -> random.nextLong();
            case 4 -> random.nextBoolean();
            case 5 -> random.nextDouble() * 1e6;
            case 6 -> random.nextInt(10) == 0 ? Double.NaN : -0.0;
            case 7 -> map(random, depth);
            default -> {
                var list = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    list.add(value(random, depth + 1));
                }
                yield list;
            }
        };
    }
}

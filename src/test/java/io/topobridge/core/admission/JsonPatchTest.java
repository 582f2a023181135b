package io.topobridge.core.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The JSON patch diff: exact operations for the shapes admission produces, and round trips for random trees. */
class JsonPatchTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "equal documents give no operation",
                        "{'a':1,'b':{'c':[1,2]}}",
                        "{'a':1,'b':{'c':[1,2]}}",
                        "[]"),
                Arguments.of(
                        "absent annotations are added as one map",
                        "{'metadata':{'name':'p'}}",
                        "{'metadata':{'name':'p','annotations':{'scheduling.k8s.io/group-name':'g','volcano.sh/task-spec':'w'}}}",
                        "[{'op':'add','path':'/metadata/annotations','value':{'scheduling.k8s.io/group-name':'g','volcano.sh/task-spec':'w'}}]"),
                Arguments.of(
                        "a key with a slash is escaped as ~1",
                        "{'metadata':{'annotations':{'x':'1'}}}",
                        "{'metadata':{'annotations':{'x':'1','scheduling.k8s.io/group-name':'g'}}}",
                        "[{'op':'add','path':'/metadata/annotations/scheduling.k8s.io~1group-name','value':'g'}]"),
                Arguments.of(
                        "a key with a tilde is escaped as ~0 before slashes",
                        "{'m':{}}",
                        "{'m':{'a~/b':true}}",
                        "[{'op':'add','path':'/m/a~0~1b','value':true}]"),
                Arguments.of(
                        "a changed scalar is replaced",
                        "{'spec':{'schedulerName':'default-scheduler'}}",
                        "{'spec':{'schedulerName':'volcano'}}",
                        "[{'op':'replace','path':'/spec/schedulerName','value':'volcano'}]"),
                Arguments.of(
                        "a missing scalar is added",
                        "{'spec':{'containers':[]}}",
                        "{'spec':{'containers':[],'schedulerName':'volcano'}}",
                        "[{'op':'add','path':'/spec/schedulerName','value':'volcano'}]"),
                Arguments.of(
                        "a dropped member is removed",
                        "{'a':{'b':1,'c':2}}",
                        "{'a':{'c':2}}",
                        "[{'op':'remove','path':'/a/b'}]"),
                Arguments.of(
                        "a changed array is replaced whole",
                        "{'a':[1,2,3]}",
                        "{'a':[1,3]}",
                        "[{'op':'replace','path':'/a','value':[1,3]}]"),
                Arguments.of(
                        "an object that became a scalar is replaced",
                        "{'a':{'b':1}}",
                        "{'a':'x'}",
                        "[{'op':'replace','path':'/a','value':'x'}]"),
                Arguments.of(
                        "an empty key is a valid token",
                        "{'a':{}}",
                        "{'a':{'':1}}",
                        "[{'op':'add','path':'/a/','value':1}]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void diffGivesExactOperations(String name, String from, String to, String expected) {
        List<JsonPatch.Operation> ops = JsonPatch.diff(json(from), json(to));
        assertThat(JsonPatch.toJson(ops)).isEqualTo(json(expected));
        assertThat(Rfc6902.apply(JsonPatch.toJson(ops), json(from))).isEqualTo(json(to));
    }

    static IntStream seeds() {
        return IntStream.range(0, 20).map(i -> 7919 * i + 17);
    }

    /** Random documents and random edits: applying the diff (with a strict RFC 6902 implementation) gives the target. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void patchAppliedToSourceGivesTarget(int seed) {
        Random random = new Random(seed);
        for (int i = 0; i < 50; i++) {
            ObjectNode from = randomObject(random, 3);
            ObjectNode to = from.deepCopy();
            int edits = random.nextInt(5);
            for (int e = 0; e < edits; e++) {
                edit(random, to, 3);
            }
            ArrayNode patch = JsonPatch.toJson(JsonPatch.diff(from, to));
            assertThat(Rfc6902.apply(patch, from))
                    .as("seed %d iteration %d: %s -> %s via %s", seed, i, from, to, patch)
                    .isEqualTo(to);
            if (from.equals(to)) {
                assertThat(patch).as("seed %d iteration %d", seed, i).isEmpty();
            }
        }
    }

    private static final String[] KEYS = {"a", "b/c", "~d", "e~1", "", "app.kubernetes.io/name", "x"};

    private static ObjectNode randomObject(Random random, int depth) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            node.set(KEYS[random.nextInt(KEYS.length)], randomValue(random, depth - 1));
        }
        return node;
    }

    private static JsonNode randomValue(Random random, int depth) {
        int pick = random.nextInt(depth <= 0 ? 3 : 5);
        return switch (pick) {
            case 0 -> JsonNodeFactory.instance.textNode("v" + random.nextInt(3));
            case 1 -> JsonNodeFactory.instance.numberNode(random.nextInt(3));
            case 2 ->
                random.nextBoolean() ? JsonNodeFactory.instance.nullNode() : JsonNodeFactory.instance.booleanNode(true);
            case 3 -> {
                ArrayNode array = JsonNodeFactory.instance.arrayNode();
                IntStream.range(0, random.nextInt(3)).forEach(k -> array.add(randomValue(random, depth - 1)));
                yield array;
            }
            default -> randomObject(random, depth);
        };
    }

    private static void edit(Random random, ObjectNode node, int depth) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        String key = KEYS[random.nextInt(KEYS.length)];
        int pick = random.nextInt(4);
        if (pick == 0 && !names.isEmpty()) {
            node.remove(names.get(random.nextInt(names.size())));
        } else if (pick == 1 && !names.isEmpty() && depth > 0 && node.get(names.get(0)) instanceof ObjectNode child) {
            edit(random, child, depth - 1);
        } else {
            node.set(key, randomValue(random, depth - 1));
        }
    }
}

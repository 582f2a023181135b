package io.topobridge.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.topobridge.core.Topobridge;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The matcher against what a real API server records: each fixture under {@code managed-fields/} is one of the
 * bridge's applies as kube-apiserver answered it (request and response with {@code managedFields}, recorded by
 * {@code ServerSideApplyE2E}). The unchanged pair is up to date; every change of a field the bridge applies or
 * owns is seen; changes of other managers' fields are not the bridge's business.
 */
class FieldPathsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path FIXTURES = Path.of("src", "test", "resources", "managed-fields");

    /** One change to a recorded pair and whether the bridge must then apply again. */
    private record Change(
            String name, boolean reapply, Consumer<ObjectNode> onDesired, Consumer<ObjectNode> onCurrent) {}

    private static final List<Change> CHANGES = List.of(
            new Change("unchanged", false, d -> {}, c -> {}),
            new Change(
                    "a label we apply changes value",
                    true,
                    d -> firstLabel(d, (labels, key) -> labels.put(key, "other")),
                    c -> {}),
            new Change("a label we own is no longer applied", true, d -> firstLabel(d, ObjectNode::remove), c -> {}),
            new Change(
                    "a label of another manager changes",
                    false,
                    d -> {},
                    c -> ((ObjectNode) c.with("metadata")).with("labels").put("someone-else", "changed")),
            new Change("the server's resourceVersion and status change", false, d -> {}, c -> {
                ((ObjectNode) c.get("metadata")).put("resourceVersion", "999999");
                c.putObject("status").put("observed", 1);
            }),
            new Change(
                    "a value under spec or webhooks differs on the server",
                    true,
                    d -> {},
                    FieldPathsTest::changeFirstOwnedScalar),
            new Change(
                    "an entry of a keyed list we own is no longer applied", true, d -> dropLastKeyedEntry(d), c -> {}),
            new Change(
                    "every value is there but set by another manager (e.g. a webhook)",
                    true,
                    d -> {},
                    c -> c.path("metadata").path("managedFields").forEach(entry -> {
                        if (Topobridge.FIELD_MANAGER.equals(
                                entry.path("manager").asText())) {
                            ((ObjectNode) entry).put("manager", "someone-else");
                        }
                    })));

    static Stream<Arguments> cases() throws IOException {
        List<Arguments> out = new ArrayList<>();
        try (var files = Files.list(FIXTURES)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                for (Change change : CHANGES) {
                    if (change.name().startsWith("an entry of a keyed list") && !hasKeyedList(file)) {
                        continue;
                    }
                    out.add(Arguments.of(
                            file.getFileName().toString().replace(".json", "") + ": " + change.name(), file, change));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void readsTheServersRecordLikeTheServer(String name, Path file, Change change) throws IOException {
        JsonNode fixture = JSON.readTree(file.toFile());
        ObjectNode desired = fixture.get("desired").deepCopy();
        ObjectNode current = fixture.get("current").deepCopy();
        change.onDesired().accept(desired);
        change.onCurrent().accept(current);
        assertThat(FieldPaths.upToDate(desired, current, Topobridge.FIELD_MANAGER))
                .as(name)
                .isEqualTo(!change.reapply());
    }

    @Test
    void fixturesOfEveryAppliedKindArePresent() throws IOException {
        try (var files = Files.list(FIXTURES)) {
            assertThat(files.map(f -> f.getFileName().toString()).toList())
                    .contains(
                            "hypernode.json",
                            "podgroup.json",
                            "mutatingwebhookconfiguration.json",
                            "validatingwebhookconfiguration.json");
        }
    }

    @Test
    void keyedEntriesInsideFieldsV1AreLeavesOfTheirFields() throws IOException {
        JsonNode current = JSON.readTree(
                        FIXTURES.resolve("mutatingwebhookconfiguration.json").toFile())
                .get("current");
        JsonNode ours = null;
        for (JsonNode entry : current.path("metadata").path("managedFields")) {
            if (Topobridge.FIELD_MANAGER.equals(entry.path("manager").asText())) {
                ours = entry.get("fieldsV1");
            }
        }
        assertThat(FieldPaths.fromFieldsV1(ours)).anySatisfy(path -> {
            assertThat(path.get(0)).isEqualTo("f:webhooks");
            assertThat(path.get(1)).startsWith("k:{\"name\":");
            assertThat(path).hasSizeGreaterThan(2);
        });
    }

    @Test
    void listTypesAreLearnedFromAnyManagersEntries() {
        ObjectNode object = JSON.createObjectNode();
        ArrayNode managed = object.putObject("metadata").putArray("managedFields");
        ObjectNode fields = managed.addObject()
                .put("manager", "someone")
                .put("operation", "Update")
                .putObject("fieldsV1");
        fields.putObject("f:spec")
                .putObject("f:ports")
                .putObject("k:{\"protocol\":\"TCP\",\"port\":80}")
                .putObject(".");
        fields.with("f:metadata").putObject("f:finalizers").putObject("v:\"x\"");
        var types = FieldPaths.ListTypes.of(object);
        assertThat(types.keyed())
                .containsEntry("spec.ports", List.of("port", "protocol"))
                .containsEntry("webhooks", List.of("name"));
        assertThat(types.sets()).contains("metadata.finalizers");
        ObjectNode desired = JSON.createObjectNode();
        desired.putObject("spec")
                .putArray("ports")
                .addObject()
                .put("port", 80)
                .put("protocol", "TCP")
                .put("name", "web");
        assertThat(FieldPaths.leaves(desired, types))
                .containsOnlyKeys(
                        List.of("f:spec", "f:ports", "k:{\"port\":80,\"protocol\":\"TCP\"}", "f:port"),
                        List.of("f:spec", "f:ports", "k:{\"port\":80,\"protocol\":\"TCP\"}", "f:protocol"),
                        List.of("f:spec", "f:ports", "k:{\"port\":80,\"protocol\":\"TCP\"}", "f:name"));
    }

    private static boolean hasKeyedList(Path file) {
        try {
            JsonNode desired = JSON.readTree(file.toFile()).get("desired");
            return desired.has("webhooks")
                    || desired.path("metadata").path("ownerReferences").size() > 1;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void firstLabel(ObjectNode object, java.util.function.BiConsumer<ObjectNode, String> change) {
        ObjectNode labels = (ObjectNode) object.path("metadata").path("labels");
        String key = labels.fieldNames().next();
        change.accept(labels, key);
    }

    private static void dropLastKeyedEntry(ObjectNode desired) {
        ArrayNode list = desired.has("webhooks")
                ? (ArrayNode) desired.get("webhooks")
                : (ArrayNode) desired.path("metadata").path("ownerReferences");
        list.remove(list.size() - 1);
    }

    /** Changes the first scalar under {@code spec} (or the first webhook) that the desired object sets. */
    private static void changeFirstOwnedScalar(ObjectNode current) {
        JsonNode root = current.has("spec")
                ? current.get("spec")
                : current.get("webhooks").get(0);
        ObjectNode holder = null;
        String field = null;
        for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) root::fields) {
            if (e.getValue().isValueNode()) {
                holder = (ObjectNode) root;
                field = e.getKey();
                break;
            }
        }
        if (holder == null) {
            throw new IllegalStateException("no scalar to change in " + root);
        }
        JsonNode value = holder.get(field);
        if (value.isNumber()) {
            holder.put(field, value.asLong() + 1);
        } else {
            holder.put(field, value.asText() + "-changed");
        }
    }
}

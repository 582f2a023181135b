package io.topobridge.volcano;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.topobridge.core.topology.DesiredHyperNode;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.testing.VolcanoSchemas;
import io.topobridge.volcano.model.ExactMatch;
import io.topobridge.volcano.model.HyperNodeSpec;
import io.topobridge.volcano.model.MemberSelector;
import io.topobridge.volcano.model.MemberSpec;
import io.topobridge.volcano.model.NetworkTopologySpec;
import io.topobridge.volcano.model.PodGroupSpec;
import io.topobridge.volcano.model.SubGroupPolicySpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The project's own description of Volcano's API (crds/volcano.openapi.yaml, from which the Java models are
 * generated) against Volcano's real CRDs and admission policy: objects serialised from the models are
 * accepted, invalid ones are caught, and the description has not drifted on any field the bridge writes.
 * Skipped with a message when the upstream reference data is absent.
 */
class VolcanoConformanceTest {

    private static final YAMLMapper YAML = new YAMLMapper();

    static PodGroupSpec fullSpec() {
        var topology = new NetworkTopologySpec()
                .mode(NetworkTopologySpec.ModeEnum.HARD)
                .highestTierAllowed(2);
        var subgroup = new SubGroupPolicySpec()
                .name("decode")
                .subGroupSize(4)
                .minSubGroups(1)
                .labelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("role", "decode")
                        .build())
                .matchLabelKeys(List.of("leaderworkerset.sigs.k8s.io/group-index"))
                .networkTopology(new NetworkTopologySpec()
                        .mode(NetworkTopologySpec.ModeEnum.SOFT)
                        .highestTierAllowed(1));
        return new PodGroupSpec()
                .minMember(8)
                .minTaskMember(Map.of("decode", 4))
                .minResources(Map.of("cpu", "16", "memory", "64Gi", "nvidia.com/gpu", "8"))
                .queue("inference")
                .priorityClassName("high")
                .networkTopology(topology)
                .subGroupPolicy(List.of(subgroup));
    }

    static DesiredPodGroup podGroup(DesiredPodGroup.Ownership ownership) {
        return new DesiredPodGroup(
                "llm",
                "tb-decode-0",
                Map.of("app.kubernetes.io/managed-by", "topobridge"),
                Map.of("topobridge.io/source", "LeaderWorkerSet/decode"),
                List.of(new OwnerReferenceBuilder()
                        .withApiVersion("leaderworkerset.x-k8s.io/v1")
                        .withKind("LeaderWorkerSet")
                        .withName("decode")
                        .withUid("8b0c5c7e-1111-2222-3333-444455556666")
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build()),
                fullSpec(),
                ownership,
                null);
    }

    static MemberSpec member(MemberSpec.TypeEnum type, String name) {
        return new MemberSpec().type(type).selector(new MemberSelector().exactMatch(new ExactMatch().name(name)));
    }

    static List<DesiredHyperNode> hyperNodes() {
        var labels = Map.of(
                "volcano.sh/network-topology-source", "topobridge", "app.kubernetes.io/managed-by", "topobridge");
        return List.of(
                new DesiredHyperNode(
                        "nvlink-a1b2c3",
                        labels,
                        new HyperNodeSpec()
                                .tier(1)
                                .tierName("nvlink")
                                .members(List.of(
                                        member(MemberSpec.TypeEnum.NODE, "gpu-node-001"),
                                        member(MemberSpec.TypeEnum.NODE, "ip-10-0-0-1.ec2.internal")))),
                new DesiredHyperNode(
                        "leaf-l1-9f8e7d",
                        labels,
                        new HyperNodeSpec()
                                .tier(2)
                                .tierName("leaf")
                                .members(List.of(member(MemberSpec.TypeEnum.HYPER_NODE, "nvlink-a1b2c3")))));
    }

    @Test
    void podGroupsFromTheModelsAreAccepted() {
        var definition = VolcanoSchemas.podGroups();
        for (DesiredPodGroup.Ownership ownership : DesiredPodGroup.Ownership.values()) {
            assertThat(definition.violations(VolcanoObjects.podGroup(podGroup(ownership))))
                    .as(ownership.name())
                    .isEmpty();
        }
    }

    @Test
    void hyperNodesFromTheModelsAreAccepted() {
        var definition = VolcanoSchemas.hyperNodes();
        for (DesiredHyperNode hyperNode : hyperNodes()) {
            assertThat(definition.violations(VolcanoObjects.hyperNode(hyperNode)))
                    .as(hyperNode.name())
                    .isEmpty();
        }
    }

    @Test
    void invalidObjectsAreCaught() throws IOException {
        var hn = VolcanoSchemas.hyperNodes();
        JsonNode twoSelectors = YAML.readTree("""
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: bad}
                spec:
                  tier: 1
                  members:
                  - type: Node
                    selector:
                      exactMatch: {name: n1}
                      regexMatch: {pattern: "n.*"}
                """);
        assertThat(hn.violations(twoSelectors)).anyMatch(v -> v.contains("Only one of ExactMatch"));

        JsonNode noSelector = YAML.readTree("""
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: bad}
                spec: {tier: 1, members: [{type: Node, selector: {}}]}
                """);
        assertThat(hn.violations(noSelector)).anyMatch(v -> v.contains("Either ExactMatch"));

        JsonNode badName = YAML.readTree("""
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: bad}
                spec: {tier: 1, members: [{type: Node, selector: {exactMatch: {name: "Upper_Case"}}}]}
                """);
        assertThat(hn.violations(badName)).anyMatch(v -> v.startsWith("schema:"));

        JsonNode unknownField = YAML.readTree("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: bad, namespace: ns}
                spec: {minMember: 1, networkTopology: {mode: hard, highestTier: 2}}
                """);
        assertThat(VolcanoSchemas.podGroups().violations(unknownField)).anyMatch(v -> v.contains("highestTier"));

        JsonNode badMode = YAML.readTree("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: bad, namespace: ns}
                spec: {minMember: -1, networkTopology: {mode: strict}}
                """);
        assertThat(VolcanoSchemas.podGroups().violations(badMode)).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void admissionPolicyRulesAreAllEvaluated() {
        // every ValidatingAdmissionPolicy rule is run by CEL except the one needing Kubernetes' format library
        assertThat(VolcanoSchemas.hyperNodes().javaCheckedPolicyRules())
                .hasSize(1)
                .allMatch(m -> m.contains("exactMatch validate failed"));
    }

    /** The schemas of crds/volcano.openapi.yaml, the description of Volcano's API the bridge is built against. */
    private static ObjectNode describedSchemas() throws IOException {
        return (ObjectNode) YAML.readTree(Path.of("crds/volcano.openapi.yaml").toFile())
                .path("components")
                .path("schemas");
    }

    @Test
    void descriptionHasNotDriftedFromUpstream() throws IOException {
        ObjectNode components = describedSchemas();
        List<String> drift = new ArrayList<>();
        compare(
                inline(components.get("PodGroupSpec"), components),
                VolcanoSchemas.podGroups().openApiSchema().path("properties").path("spec"),
                "PodGroup.spec",
                drift);
        compare(
                inline(components.get("HyperNodeSpec"), components),
                VolcanoSchemas.hyperNodes().openApiSchema().path("properties").path("spec"),
                "HyperNode.spec",
                drift);
        assertThat(drift)
                .as("fields where crds/volcano.openapi.yaml differs from Volcano's CRDs")
                .isEmpty();
    }

    @Test
    void driftIsDetected() throws IOException {
        ObjectNode components = describedSchemas();
        ObjectNode spec = (ObjectNode) inline(components.get("PodGroupSpec"), components);
        ((ObjectNode) spec.path("properties").path("networkTopology").path("properties")).remove("highestTierName");
        ((ObjectNode) spec.path("properties").path("queue")).put("maxLength", 63);
        List<String> drift = new ArrayList<>();
        compare(
                spec,
                VolcanoSchemas.podGroups().openApiSchema().path("properties").path("spec"),
                "PodGroup.spec",
                drift);
        assertThat(drift)
                .hasSize(2)
                .anyMatch(d -> d.contains("highestTierName"))
                .anyMatch(d -> d.contains("queue.maxLength"));
    }

    private static final List<String> COMPARED =
            List.of("type", "enum", "minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "required");

    private static void compare(JsonNode ours, JsonNode upstream, String path, List<String> drift) {
        if (upstream.path("x-kubernetes-int-or-string").asBoolean()) {
            if (!"string".equals(ours.path("type").asText())) {
                drift.add(path + ": upstream is int-or-string, ours is "
                        + ours.path("type").asText());
            }
            return;
        }
        for (String key : COMPARED) {
            JsonNode a = ours.get(key);
            JsonNode b = upstream.get(key);
            if (a == null ? b != null : !a.equals(b)) {
                drift.add(path + "." + key + ": ours " + a + ", upstream " + b);
            }
        }
        if (upstream.has("properties") || ours.has("properties")) {
            Set<String> mine = names(ours.path("properties").fieldNames());
            Set<String> theirs = names(upstream.path("properties").fieldNames());
            if (!mine.equals(theirs)) {
                drift.add(path + ": properties ours " + mine + ", upstream " + theirs);
            }
            mine.retainAll(theirs);
            mine.forEach(p -> compare(
                    ours.path("properties").get(p), upstream.path("properties").get(p), path + "." + p, drift));
        }
        if (upstream.has("items")) {
            compare(ours.path("items"), upstream.get("items"), path + "[]", drift);
        }
        if (upstream.path("additionalProperties").isObject()) {
            compare(ours.path("additionalProperties"), upstream.get("additionalProperties"), path + "{}", drift);
        }
    }

    private static Set<String> names(Iterator<String> it) {
        Set<String> out = new TreeSet<>();
        it.forEachRemaining(out::add);
        return out;
    }

    static JsonNode inline(JsonNode node, ObjectNode components) {
        if (node.isObject() && node.has("$ref")) {
            String name = node.get("$ref").asText().substring("#/components/schemas/".length());
            return inline(components.get(name), components);
        }
        return inline(node, components, VolcanoConformanceTest::inline);
    }

    /** Copies {@code node} with every child passed through {@code recurse} (which resolves $refs). */
    static JsonNode inline(
            JsonNode node,
            ObjectNode components,
            java.util.function.BiFunction<JsonNode, ObjectNode, JsonNode> recurse) {
        if (node.isObject()) {
            ObjectNode out = node.deepCopy();
            node.fields().forEachRemaining(e -> out.set(e.getKey(), recurse.apply(e.getValue(), components)));
            return out;
        }
        if (node.isArray()) {
            var out = YAML.createArrayNode();
            node.forEach(n -> out.add(recurse.apply(n, components)));
            return out;
        }
        return node;
    }
}

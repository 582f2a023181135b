package io.topobridge.core.workload.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.topology.NodeInfo;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.topology.TopologyBuilder;
import io.topobridge.core.topology.TopologySettings;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tier names as users write them, on the tier catalogs real clusters give: a folded NVLink tier answers to
 * {@code nvlink-domain} too, and a name the cluster has no tier for is refused with the node labels that would make
 * one.
 */
class TierNameResolutionTest {

    private static final ObjectRef DEPLOY = new ObjectRef("apps/v1", "Deployment", "llm", "vllm", "u1");

    /** Two racks of one NVLink partition each, labelled by GPU feature discovery alone (the GPU Operator). */
    private static TierCatalog cliquesOnly(String preset) {
        return new TopologyBuilder(TopologySettings.parse(preset, List.of()))
                .build(
                        List.of(
                                new NodeInfo("a", Map.of("nvidia.com/gpu.clique", "u1.1"), true),
                                new NodeInfo("b", Map.of("nvidia.com/gpu.clique", "u2.1"), true)),
                        List.of())
                .tiers();
    }

    private static ParsedIntent parse(String tier, TierCatalog tiers) {
        return AnnotationParser.parse(
                List.of(AnnotationSource.of(DEPLOY, "metadata", Map.of("topobridge.io/highest-tier", tier))), tiers);
    }

    static Stream<Arguments> resolved() {
        return Stream.of(
                Arguments.of("nvlink", 1),
                Arguments.of("nvlink-domain", 1),
                Arguments.of("NVLink-Domain", 1),
                Arguments.of("1", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("resolved")
    void aFoldedNvlinkTierAnswersToBothNames(String tier, int number) {
        ParsedIntent parsed = parse(tier, cliquesOnly("auto"));
        assertThat(parsed.rejected()).as(parsed.findings().toString()).isFalse();
        assertThat(parsed.intent().highestTier()).isEqualTo(number);
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(
                        "leaf under auto: the labels that make one",
                        "auto",
                        "leaf",
                        "topobridge.io/highest-tier=\"leaf\" (metadata): unknown tier name; known tiers 1=nvlink|nvlink-domain;"
                                + " nodes get a leaf tier from the labels fabric.topograph.run/tier-0 (NVIDIA topograph"
                                + " (>= 1.0)), network.topology.nvidia.com/leaf (NVIDIA topograph 0.3-0.5),"
                                + " network.topology.nvidia.com/block (NVIDIA topograph 0.1), volcano.sh/hypernode or"
                                + " volcano.sh/tor (Volcano example labels)"),
                Arguments.of(
                        "spine under auto",
                        "auto",
                        "Spine",
                        "nodes get a spine tier from the labels fabric.topograph.run/tier-1 (NVIDIA topograph (>="
                                + " 1.0)), network.topology.nvidia.com/spine (NVIDIA topograph 0.3-0.5),"
                                + " network.topology.nvidia.com/spine (NVIDIA topograph 0.1), volcano.sh/hypercluster"
                                + " (Volcano example labels)"),
                Arguments.of(
                        "leaf under a preset without it: another preset's labels",
                        "nvidia-gfd",
                        "leaf",
                        "; the configured label schemes have no leaf tier; with preset auto, nodes get one from the"
                                + " labels fabric.topograph.run/tier-0 (NVIDIA topograph (>= 1.0)),"),
                Arguments.of(
                        "a cloud's own word",
                        "auto",
                        "layer-3",
                        "nodes get a layer-3 tier from the labels topology.k8s.aws/network-node-layer-3 (AWS EC2"
                                + " instance topology)"),
                Arguments.of(
                        "a name no scheme has",
                        "auto",
                        "rack",
                        "; no built-in label scheme has a rack tier: name a node label as one with"
                                + " topobridge.topology.tiers (<label key>=rack)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void anUnknownNameSaysWhichLabelsWouldMakeIt(String name, String preset, String tier, String fragment) {
        ParsedIntent parsed = parse(tier, cliquesOnly(preset));
        assertThat(parsed.rejected()).isTrue();
        assertThat(parsed.findings())
                .singleElement()
                .satisfies(f ->
                        assertThat(f.message()).contains("unknown tier name").contains(fragment));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aHostileNameIsCutInTheMessage(String name, String preset, String tier, String fragment) {
        ParsedIntent parsed = parse(tier + "x".repeat(5000), cliquesOnly(preset));
        assertThat(parsed.findings())
                .singleElement()
                .satisfies(f -> assertThat(f.message()).hasSizeLessThan(1500));
    }
}

package io.topobridge.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.expand.Expansion;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.testing.Renderers;
import io.topobridge.volcano.model.NetworkTopologySpec;
import io.topobridge.volcano.model.SubGroupPolicySpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every recipe of {@code docs/recipes.md}, rendered as {@code render} would on the cluster it is written for — a GB200
 * cluster as topograph labels it (two leaf switches of four NVL72 racks, 18 trays of 4 GPUs each) and an H100 cluster
 * on AWS (two layer-3 switches of 16 p5 nodes of 8 GPUs) — gives the PodGroup the page says it writes, and no object
 * is refused.
 */
class RecipesTest {

    private static final Path PAGE = Path.of("docs", "recipes.md");
    private static final Pattern BLOCK = Pattern.compile("```yaml\\n# recipe: ([a-z0-9-]+)\\n(.*?)```", Pattern.DOTALL);
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    @TempDir
    Path dir;

    private static Map<String, String> recipes() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = BLOCK.matcher(Files.readString(PAGE));
        while (m.find()) {
            out.put(m.group(1), m.group(2));
        }
        return out;
    }

    /** One node as a flow-style YAML document. */
    private static String node(String name, int gpus, String cpu, String memory, Map<String, String> labels) {
        StringBuilder l = new StringBuilder("kubernetes.io/hostname: " + name);
        labels.forEach(
                (k, v) -> l.append(", ").append(k).append(": \"").append(v).append('"'));
        String resources =
                "{cpu: \"%s\", memory: %s, nvidia.com/gpu: \"%d\", pods: \"110\"}".formatted(cpu, memory, gpus);
        return "---\n{apiVersion: v1, kind: Node, metadata: {name: %s, labels: {%s}}, status: {capacity: %s, allocatable: %s}}\n"
                .formatted(name, l, resources, resources);
    }

    /** Two leaves of four NVL72 racks under one spine, as topograph labels them. */
    static String gb200() {
        StringBuilder out = new StringBuilder();
        for (int leaf = 1; leaf <= 2; leaf++) {
            for (int rack = 1; rack <= 4; rack++) {
                for (int tray = 1; tray <= 18; tray++) {
                    out.append(node(
                            "gb200-l%d-r%d-t%02d".formatted(leaf, rack, tray),
                            4,
                            "140",
                            "940Gi",
                            Map.of(
                                    "nvidia.com/gpu.clique",
                                    "0c5e8f1a-2b3d-4e5f-8a9b-00000000%d%03d.1".formatted(leaf, rack),
                                    "fabric.topograph.run/tier-0",
                                    "S-leaf-" + leaf,
                                    "fabric.topograph.run/tier-1",
                                    "S-spine-1")));
                }
            }
        }
        return out.toString();
    }

    /** Two layer-3 switches of 16 p5 nodes under one layer-2 and one layer-1, as EC2 labels them. */
    static String h100() {
        StringBuilder out = new StringBuilder();
        for (int block = 1; block <= 2; block++) {
            for (int n = 1; n <= 16; n++) {
                out.append(node(
                        "p5-b%d-n%02d".formatted(block, n),
                        8,
                        "192",
                        "2000Gi",
                        Map.of(
                                "node.kubernetes.io/instance-type", "p5.48xlarge",
                                "topology.k8s.aws/network-node-layer-1", "nn-1000000000000001",
                                "topology.k8s.aws/network-node-layer-2", "nn-2000000000000001",
                                "topology.k8s.aws/network-node-layer-3", "nn-300000000000000" + block)));
            }
        }
        return out.toString();
    }

    private static final String NAMESPACE = """
            apiVersion: v1
            kind: Namespace
            metadata: {name: inference, labels: {topobridge.io/enabled: "true"}}
            ---
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: Queue
            metadata: {name: default}
            spec: {weight: 1}
            status: {state: Open}
            """;

    private RenderOutput render(String recipe, String cluster) throws IOException {
        Path nodes = Files.writeString(dir.resolve("nodes.yaml"), cluster);
        Path namespace = Files.writeString(dir.resolve("namespace.yaml"), NAMESPACE);
        Path manifest = Files.writeString(dir.resolve("recipe.yaml"), recipes().get(recipe));
        ManifestReader.Result input = new ManifestReader(SERIALIZATION).read(List.of(nodes, namespace, manifest));
        assertThat(input.findings()).as(recipe + " reads").isEmpty();
        List<HasMetadata> objects = new ArrayList<>(input.objects());
        RenderOutput out = Renderers.of(
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        io.topobridge.core.workload.Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(objects, Expansion.Limits.DEFAULT);
        assertThat(out.rejected()).as(recipe + ": " + out.findings()).isFalse();
        return out;
    }

    private static DesiredPodGroup podGroup(RenderOutput out, String name) {
        return out.podGroups().stream()
                .filter(p -> p.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " not among "
                        + out.podGroups().stream().map(DesiredPodGroup::name).toList()));
    }

    private static void hard(DesiredPodGroup pg, int minMember, int tier) {
        assertThat(pg.spec().getMinMember()).as(pg.name() + " minMember").isEqualTo(minMember);
        NetworkTopologySpec t = pg.spec().getNetworkTopology();
        assertThat(t.getMode()).as(pg.name() + " mode").isEqualTo(NetworkTopologySpec.ModeEnum.HARD);
        assertThat(t.getHighestTierAllowed()).as(pg.name() + " tier").isEqualTo(tier);
    }

    private static List<String> reasons(RenderOutput out) {
        return out.findings().stream().map(f -> f.reason().reason()).toList();
    }

    @Test
    void thePageHoldsSixRecipes() throws IOException {
        assertThat(recipes().keySet())
                .containsExactly("gb200-tp", "h100-tp", "gb200-pd", "h100-pd", "gb200-wide-ep", "h100-wide-ep");
    }

    @Test
    void tensorParallelism() throws IOException {
        RenderOutput gb = render("gb200-tp", gb200());
        hard(podGroup(gb, "tb-lws-llama-tp8-0"), 2, 1);
        hard(podGroup(gb, "tb-lws-llama-tp8-1"), 2, 1);
        RenderOutput h = render("h100-tp", h100());
        hard(podGroup(h, "tb-lws-llama-tp16-0"), 2, 1);
    }

    @Test
    void prefillDecodePairs() throws IOException {
        RenderOutput gb = render("gb200-pd", gb200());
        DesiredPodGroup pair = podGroup(gb, "tb-group-qwen-pd");
        hard(pair, 4, 2);
        assertThat(pair.spec().getSubGroupPolicy())
                .hasSize(2)
                .extracting(SubGroupPolicySpec::getNetworkTopology)
                .allSatisfy(t -> assertThat(t.getHighestTierAllowed()).isEqualTo(1));
        assertThat(reasons(gb)).as("the default rollout of 2 replicas").contains("RolloutNeedsRoom");
        RenderOutput h = render("h100-pd", h100());
        hard(podGroup(h, "tb-group-qwen-pd"), 4, 1);
        assertThat(h.findings())
                .filteredOn(f -> f.severity() != Severity.INFO)
                .extracting(Finding::line)
                .isEmpty();
    }

    @Test
    void wideExpertParallelism() throws IOException {
        RenderOutput gb = render("gb200-wide-ep", gb200());
        DesiredPodGroup ep = podGroup(gb, "tb-lws-deepseek-ep96-0");
        hard(ep, 24, 2);
        assertThat(ep.annotations().get("topobridge.io/chosen-tier")).startsWith("2 (leaf)");
        RenderOutput h = render("h100-wide-ep", h100());
        hard(podGroup(h, "tb-lws-deepseek-ep128-0"), 16, 1);
        assertThat(reasons(gb)).doesNotContain(WorkloadReason.GANG_EXCEEDS_CLUSTER.reason());
    }
}

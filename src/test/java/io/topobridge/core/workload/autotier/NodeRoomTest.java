package io.topobridge.core.workload.autotier;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Cluster;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.node.Taint;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.volcano.model.NetworkTopologySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code highest-tier: auto} counts as room only the nodes that take the gang's pods, and sizes a gang by whichever
 * accelerator it asks for. The cluster: NVLink partitions nvA and nvB of four 4-GPU nodes (16 GPUs each) and nvC of
 * two (8); rack r0 holds nvA and nvC, rack r1 nvB; one spine. The gang: 4 pods of 4 GPUs (16), which fits nvA or nvB.
 */
class NodeRoomTest {

    static final List<String> A = List.of("a0", "a1", "a2", "a3");
    static final List<String> B = List.of("b0", "b1", "b2", "b3");
    static final List<String> C = List.of("c0", "c1");

    /** The cluster's nodes with {@code gpus} per node of {@code resource}, each node's state from {@code state}. */
    static List<NodeView> nodes(String resource, Function<String, NodeState> state) {
        List<NodeView> out = new ArrayList<>();
        for (List<String> partition : List.of(A, B, C)) {
            for (String n : partition) {
                out.add(new NodeView(
                        n,
                        Map.of(),
                        Amounts.parse(Map.of(resource, "4", "cpu", "64", "memory", "512Gi")),
                        state.apply(n)));
            }
        }
        return out;
    }

    static Forest forest() {
        return Forest.of(List.of(
                new HyperNodeView("nva", 1, "nvlink", "", A, List.of()),
                new HyperNodeView("nvb", 1, "nvlink", "", B, List.of()),
                new HyperNodeView("nvc", 1, "nvlink", "", C, List.of()),
                new HyperNodeView("r0", 2, "rack", "", List.of(), List.of("nva", "nvc")),
                new HyperNodeView("r1", 2, "rack", "", List.of(), List.of("nvb")),
                new HyperNodeView("s", 3, "spine", "", List.of(), List.of("r0", "r1"))));
    }

    /** A Deployment of {@code replicas} pods, each requesting 4 of {@code resource} and 1 CPU, with extra spec YAML. */
    static String gang(String name, int replicas, String resource, String podSpec) {
        return Fixtures.deploymentYaml(
                "ns",
                name,
                replicas,
                "annotations: {topobridge.io/highest-tier: auto}",
                """
                containers:
                - name: c
                  image: x
                  resources: {requests: {cpu: "1", "%s": "4"}, limits: {"%s": "4"}}
                """.formatted(resource, resource) + podSpec);
    }

    static TranslationResult translate(TierDomains domains, String yaml) {
        List<HasMetadata> objects = List.of(Fixtures.object(yaml));
        return TranslationResult.of(
                Fixtures.translator(Fixtures.defaultSettings()),
                objects,
                Fixtures.TIERS,
                Fixtures.lookup(objects).withDomains(() -> domains));
    }

    static NetworkTopologySpec topology(TranslationResult result) {
        assertThat(result.podGroups()).as(result.findings().toString()).hasSize(1);
        return result.podGroups().get(0).spec().getNetworkTopology();
    }

    static String chosen(TranslationResult result) {
        return result.podGroups().get(0).annotations().get("topobridge.io/chosen-tier");
    }

    static NodeState cordoned() {
        return new NodeState(true, "True", List.of());
    }

    static NodeState ready(String status) {
        return new NodeState(false, status, List.of());
    }

    static NodeState tainted(String key, String value, String effect) {
        return new NodeState(false, "True", List.of(new Taint(key, value, effect)));
    }

    /** @param unusable the state of the nodes it names; every other node is open */
    record Case(String name, Map<String, NodeState> unusable, String podSpec, int tier, String mode, String sentence) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Map<String, NodeState> all(List<String> nodes, NodeState state) {
        Map<String, NodeState> out = new java.util.HashMap<>();
        nodes.forEach(n -> out.put(n, state));
        return out;
    }

    static Stream<Case> cases() {
        Map<String, NodeState> bothCordoned = all(A, cordoned());
        bothCordoned.putAll(all(B, cordoned()));
        return Stream.of(
                new Case(
                        "every node open", Map.of(), "", 1, "hard", "1 (nvlink): 16 GPUs fit in 2 of 3 nvlink domains"),
                new Case(
                        "nvA cordoned",
                        all(A, cordoned()),
                        "",
                        1,
                        "hard",
                        "1 (nvlink): 16 GPUs fit in 1 of 3 nvlink domains; 1 more would but for 4 cordoned nodes"),
                new Case(
                        "half of nvA cordoned",
                        all(List.of("a0", "a1"), cordoned()),
                        "",
                        1,
                        "hard",
                        "1 (nvlink): 16 GPUs fit in 1 of 3 nvlink domains; 1 more would but for 2 cordoned nodes"),
                new Case(
                        "nvA Ready=False",
                        all(A, ready("False")),
                        "",
                        1,
                        "hard",
                        "1 (nvlink): 16 GPUs fit in 1 of 3 nvlink domains; 1 more would but for 4 nodes not ready"),
                new Case(
                        "nvA Ready=Unknown",
                        all(A, ready("Unknown")),
                        "",
                        1,
                        "hard",
                        "1 (nvlink): 16 GPUs fit in 1 of 3 nvlink domains; 1 more would but for 4 nodes not ready"),
                new Case(
                        "nvA tainted NoSchedule, not tolerated",
                        all(A, tainted("maintenance", "true", "NoSchedule")),
                        "",
                        1,
                        "hard",
                        "1 (nvlink): 16 GPUs fit in 1 of 3 nvlink domains; 1 more would but for 4 nodes with a taint"
                                + " the gang does not tolerate (maintenance=true:NoSchedule)"),
                new Case(
                        "nvA tainted NoExecute, not tolerated",
                        all(A, tainted("maintenance", "", "NoExecute")),
                        "",
                        1,
                        "hard",
                        "1 (nvlink): 16 GPUs fit in 1 of 3 nvlink domains; 1 more would but for 4 nodes with a taint"
                                + " the gang does not tolerate (maintenance:NoExecute)"),
                new Case(
                        "nvA tainted NoSchedule, tolerated by the gang",
                        all(A, tainted("maintenance", "true", "NoSchedule")),
                        "tolerations: [{key: maintenance, operator: Equal, value: \"true\", effect: NoSchedule}]",
                        1,
                        "hard",
                        "1 (nvlink): 16 GPUs fit in 2 of 3 nvlink domains"),
                new Case(
                        "nvA tainted NoExecute, tolerated for a while",
                        all(A, tainted("maintenance", "", "NoExecute")),
                        "tolerations: [{key: maintenance, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]",
                        1,
                        "hard",
                        "1 (nvlink): 16 GPUs fit in 2 of 3 nvlink domains"),
                new Case(
                        "nvA tainted PreferNoSchedule: still room",
                        all(A, tainted("spot", "true", "PreferNoSchedule")),
                        "",
                        1,
                        "hard",
                        "1 (nvlink): 16 GPUs fit in 2 of 3 nvlink domains"),
                new Case(
                        "nvA tainted with its GPU resource: a gang requesting GPUs passes (ExtendedResourceToleration)",
                        all(A, tainted("nvidia.com/gpu", "present", "NoSchedule")),
                        "",
                        1,
                        "hard",
                        "1 (nvlink): 16 GPUs fit in 2 of 3 nvlink domains"),
                new Case(
                        "nvA and nvB cordoned: no domain of any tier holds it",
                        bothCordoned,
                        "",
                        3,
                        "soft",
                        "3 (spine): 16 GPUs fit in no domain of any tier; 3 (spine) holds at most 8 GPUs, and 1 would"
                                + " but for 8 cordoned nodes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void onlyNodesThatTakeTheGangsPodsAreRoom(Case c) {
        List<NodeView> nodes = nodes("nvidia.com/gpu", n -> c.unusable().getOrDefault(n, NodeState.SCHEDULABLE));
        TierDomains domains = TierDomains.of(nodes, List.of(), forest(), Accelerators.DEFAULT);
        TranslationResult result = translate(domains, gang("tp", 4, "nvidia.com/gpu", c.podSpec()));
        assertThat(chosen(result)).as(c.name()).isEqualTo(c.sentence());
        assertThat(topology(result).getHighestTierAllowed()).as(c.name()).isEqualTo(c.tier());
        assertThat(topology(result).getMode().value()).as(c.name()).isEqualTo(c.mode());
    }

    /**
     * nvA cordoned and nvB busy with another gang: the gang still gets nvlink (nvB holds it when empty) but soft, as no
     * domain that takes its pods has room today; counting the cordoned nvA as room would keep it hard and waiting for
     * a domain Volcano will never give it.
     */
    @Test
    void noRoomInTheDomainsThatTakeItsPodsMakesItSoft() {
        List<NodeView> nodes = nodes("nvidia.com/gpu", n -> A.contains(n) ? cordoned() : NodeState.SCHEDULABLE);
        List<PodView> busy = new ArrayList<>();
        for (String n : B) {
            busy.add(Cluster.podView(
                    "ns",
                    "other-" + n,
                    n,
                    Amounts.parse(Map.of("nvidia.com/gpu", "4")),
                    Map.of(),
                    null,
                    "other",
                    List.of()));
        }
        TranslationResult result = translate(
                TierDomains.of(nodes, busy, forest(), Accelerators.DEFAULT), gang("tp", 4, "nvidia.com/gpu", ""));
        assertThat(topology(result).getHighestTierAllowed()).isEqualTo(1);
        assertThat(topology(result).getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.SOFT);
    }

    /** The same gang and cluster with AMD's GPUs, NVIDIA's, Gaudi's: the same tier, for 6 pods of 4 (24). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("accelerators")
    void aGangIsSizedByTheAcceleratorItRequests(String resource, String sentence) {
        TierDomains domains =
                TierDomains.of(nodes(resource, n -> NodeState.SCHEDULABLE), List.of(), forest(), Accelerators.DEFAULT);
        TranslationResult result = translate(domains, gang("wide", 6, resource, ""));
        assertThat(topology(result).getHighestTierAllowed()).as(resource).isEqualTo(2);
        assertThat(chosen(result)).as(resource).isEqualTo(sentence);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> accelerators() {
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of(
                        "nvidia.com/gpu",
                        "2 (rack): 24 GPUs fit in 1 of 2 rack domains; 1 (nvlink) holds at most 16 GPUs"),
                org.junit.jupiter.params.provider.Arguments.of(
                        "amd.com/gpu",
                        "2 (rack): 24 GPUs fit in 1 of 2 rack domains; 1 (nvlink) holds at most 16 GPUs"),
                org.junit.jupiter.params.provider.Arguments.of(
                        "habana.ai/gaudi",
                        "2 (rack): 24 habana.ai/gaudi fit in 1 of 2 rack domains; 1 (nvlink) holds at most 16"
                                + " habana.ai/gaudi"),
                org.junit.jupiter.params.provider.Arguments.of(
                        "huawei.com/Ascend910",
                        "2 (rack): 24 huawei.com/Ascend910 fit in 1 of 2 rack domains; 1 (nvlink) holds at most 16"
                                + " huawei.com/Ascend910"));
    }

    /** A resource outside the list is not an accelerator (the gang is sized by CPU); listed, it is. */
    @Test
    void theConfiguredListDecides() {
        List<NodeView> nodes = nodes("example.com/npu", n -> NodeState.SCHEDULABLE);
        String wide = gang("wide", 6, "example.com/npu", "");
        TranslationResult byDefault = translate(TierDomains.of(nodes, List.of(), forest(), Accelerators.DEFAULT), wide);
        assertThat(topology(byDefault).getHighestTierAllowed())
                .as("6 CPUs fit in one NVLink partition")
                .isEqualTo(1);
        TranslationResult configured = translate(
                TierDomains.of(nodes, List.of(), forest(), Accelerators.parse(List.of("example.com/npu"))), wide);
        assertThat(topology(configured).getHighestTierAllowed()).isEqualTo(2);
        assertThat(chosen(configured)).startsWith("2 (rack): 24 example.com/npu fit in 1 of 2 rack domains");
        assertThat(nodes.get(0).accelerator(Accelerators.DEFAULT)).isFalse();
        assertThat(nodes.get(0).accelerator(Accelerators.parse(List.of("example.com/npu"))))
                .isTrue();
    }

    @Test
    void aGaudiNodeIsAnAcceleratorNode() {
        NodeView gaudi = Cluster.nodeView("g0", Map.of(), Amounts.parse(Map.of("habana.ai/gaudi", "8", "cpu", "96")));
        NodeView cpu = Cluster.nodeView("c0", Map.of(), Amounts.parse(Map.of("cpu", "96")));
        assertThat(gaudi.accelerator(Accelerators.DEFAULT)).isTrue();
        assertThat(gaudi.accelerator(Accelerators.DEFAULT)).isTrue();
        assertThat(cpu.accelerator(Accelerators.DEFAULT)).isFalse();
    }
}

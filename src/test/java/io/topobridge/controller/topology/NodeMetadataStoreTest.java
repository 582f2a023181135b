package io.topobridge.controller.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.node.Taint;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the node cache keeps of a Node's spec and status, read as the informer reads it: cordon, the Ready status and the
 * taints that keep pods off; nothing of a schedulable node without such taints; a change of room, not of heartbeat.
 */
class NodeMetadataStoreTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    static {
        SERIALIZATION.registerKubernetesResource(NodeMetadata.class);
    }

    static NodeMetadata stored(String spec, String conditions) {
        String json = """
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","resourceVersion":"7","labels":{"a":"b"}},
                 "spec":%s,
                 "status":{"allocatable":{"cpu":"8","nvidia.com/gpu":"4"},"conditions":%s,
                           "nodeInfo":{"kubeletVersion":"v1.33.0"}}}
                """.formatted(spec, conditions);
        NodeMetadataStore store = new NodeMetadataStore();
        store.put("n1", SERIALIZATION.unmarshal(json, NodeMetadata.class));
        return store.get("n1");
    }

    static final String READY = """
            [{"type":"MemoryPressure","status":"False","message":"kubelet has sufficient memory available"},
             {"type":"Ready","status":"True","reason":"KubeletReady","lastHeartbeatTime":"2026-01-01T00:00:00Z"}]""";

    record Case(String name, String spec, String conditions, NodeState state, boolean specKept) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        Taint gpu = new Taint("nvidia.com/gpu", "present", "NoSchedule");
        return Stream.of(
                new Case(
                        "schedulable and Ready",
                        "{\"podCIDR\":\"10.0.0.0/24\"}",
                        READY,
                        new NodeState(false, "True", List.of()),
                        false),
                new Case("cordoned", "{\"unschedulable\":true}", READY, new NodeState(true, "True", List.of()), true),
                new Case(
                        "Ready=Unknown",
                        "{}",
                        "[{\"type\":\"Ready\",\"status\":\"Unknown\",\"reason\":\"NodeStatusUnknown\"}]",
                        new NodeState(false, "Unknown", List.of()),
                        false),
                new Case("no conditions at all", "{}", "[]", new NodeState(false, null, List.of()), false),
                new Case(
                        "a NoSchedule taint kept, PreferNoSchedule dropped",
                        "{\"taints\":[{\"key\":\"nvidia.com/gpu\",\"value\":\"present\",\"effect\":\"NoSchedule\"},"
                                + "{\"key\":\"spot\",\"effect\":\"PreferNoSchedule\",\"timeAdded\":\"2026-01-01T00:00:00Z\"}]}",
                        READY,
                        new NodeState(false, "True", List.of(gpu)),
                        true),
                new Case(
                        "only PreferNoSchedule: nothing kept",
                        "{\"taints\":[{\"key\":\"spot\",\"effect\":\"PreferNoSchedule\"}]}",
                        READY,
                        new NodeState(false, "True", List.of()),
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void keepsWhetherTheNodeTakesPodsAndNothingElse(Case c) {
        NodeMetadata node = stored(c.spec(), c.conditions());
        assertThat(node.state()).as(c.name()).isEqualTo(c.state());
        assertThat(node.getSpec() != null).as(c.name() + ": spec kept").isEqualTo(c.specKept());
        assertThat(NodeCache.view(node).state()).isEqualTo(c.state());
        assertThat(NodeCache.view(node).allocatable().get("nvidia.com/gpu")).isEqualByComparingTo("4");
    }

    @org.junit.jupiter.api.Test
    void aChangeOfRoomIsOneOfAllocatableCordonReadyOrTaints() {
        NodeMetadata ready = stored("{}", READY);
        NodeMetadata heartbeat = stored(
                "{}",
                READY.replace("2026-01-01T00:00:00Z", "2026-01-01T00:05:00Z")
                        .replace("sufficient memory", "plenty of memory"));
        assertThat(NodeCache.roomChanged(ready, heartbeat)).as("a heartbeat").isFalse();
        assertThat(NodeCache.roomChanged(ready, stored("{\"unschedulable\":true}", READY)))
                .as("cordoned")
                .isTrue();
        assertThat(NodeCache.roomChanged(ready, stored("{}", "[{\"type\":\"Ready\",\"status\":\"False\"}]")))
                .as("not ready")
                .isTrue();
        assertThat(NodeCache.roomChanged(
                        ready, stored("{\"taints\":[{\"key\":\"k\",\"effect\":\"NoExecute\"}]}", READY)))
                .as("tainted")
                .isTrue();
        assertThat(NodeCache.roomChanged(
                        ready, stored("{\"taints\":[{\"key\":\"k\",\"effect\":\"PreferNoSchedule\"}]}", READY)))
                .as("a PreferNoSchedule taint changes no room")
                .isFalse();
    }
}

package io.topobridge.core.topology;

import static io.topobridge.core.topology.Nodes.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.topology.HyperNodeChanges.Apply;
import io.topobridge.core.topology.HyperNodeChanges.Delete;
import io.topobridge.core.topology.HyperNodeChanges.Step;
import io.topobridge.volcano.model.HyperNodeSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Write ordering: after every single write, no member is listed by two HyperNodes, and no HyperNode is deleted while
 * another still lists it.
 */
class HyperNodeChangesTest {

    static final TopologySettings SETTINGS = TopologySettings.parse("auto", List.of("rack=rack", "zone=zone"));

    static TopologyResult build(List<NodeInfo> nodes) {
        return new TopologyBuilder(SETTINGS).build(nodes, List.of());
    }

    /** Nodes a, b, c… in zone z, each in the rack given in turn. */
    static List<NodeInfo> inRacks(String... racks) {
        List<NodeInfo> out = new ArrayList<>();
        for (int i = 0; i < racks.length; i++) {
            out.add(node(String.valueOf((char) ('a' + i)))
                    .label("rack", racks[i])
                    .label("zone", "z")
                    .build());
        }
        return out;
    }

    static Map<String, HyperNodeSpec> state(TopologyResult result) {
        Map<String, HyperNodeSpec> out = new HashMap<>();
        result.hyperNodes().forEach(h -> out.put(h.name(), h.spec()));
        return out;
    }

    /** Applies the steps one by one, checking the single-parent rule after each. */
    static Map<String, HyperNodeSpec> run(Map<String, HyperNodeSpec> start, List<Step> steps, String context) {
        Map<String, HyperNodeSpec> now = new HashMap<>(start);
        for (Step step : steps) {
            if (step instanceof Apply apply) {
                now.put(apply.hyperNode().name(), apply.hyperNode().spec());
            } else if (step instanceof Delete delete) {
                // Volcano's scheduler keeps a deleted child in its parent's children until the parent changes, and
                // its next session with a hard-topology gang dereferences the missing child and panics
                now.forEach((name, spec) -> assertThat(HyperNodeChanges.members(spec))
                        .as("%s: %s still lists HyperNode %s when it is deleted", context, name, delete.name())
                        .doesNotContain("HyperNode/" + delete.name()));
                assertThat(now.remove(delete.name()))
                        .as("%s: deleted %s existed", context, delete.name())
                        .isNotNull();
            }
            Map<String, String> owner = new HashMap<>();
            now.forEach((name, spec) -> HyperNodeChanges.members(spec)
                    .forEach(m -> assertThat(owner.put(m, name))
                            .as("%s: after %s, %s is listed by two HyperNodes", context, step, m)
                            .isNull()));
        }
        return now;
    }

    @Test
    void oneNodeMovingBetweenRacksWritesTheLoserFirst() {
        List<NodeInfo> before = inRacks("r1", "r1", "r2");
        List<NodeInfo> after = inRacks("r1", "r2", "r2");
        TopologyResult from = build(before);
        TopologyResult to = build(after);
        List<Step> steps = HyperNodeChanges.plan(to.hyperNodes(), state(from));
        Map<String, HyperNodeSpec> end = run(state(from), steps, "move");
        assertThat(end).isEqualTo(state(to));
        String r1 = TreeAssertions.assertValidTree(to, "to").nodeParent().get("a");
        String r2 = TreeAssertions.assertValidTree(to, "to").nodeParent().get("b");
        List<String> order = steps.stream()
                .map(s -> s instanceof Apply a ? a.hyperNode().name() : ((Delete) s).name())
                .toList();
        assertThat(order.indexOf(r1)).isLessThan(order.indexOf(r2));
        assertThat(steps).noneMatch(s -> s instanceof Apply a && a.intermediate());
    }

    @Test
    void swappingMembersGoesThroughAnIntermediateVersion() {
        List<NodeInfo> before = inRacks("r1", "r1", "r2", "r2");
        List<NodeInfo> after = inRacks("r1", "r2", "r1", "r2");
        TopologyResult from = build(before);
        TopologyResult to = build(after);
        List<Step> steps = HyperNodeChanges.plan(to.hyperNodes(), state(from));
        assertThat(run(state(from), steps, "swap")).isEqualTo(state(to));
        assertThat(steps).anyMatch(s -> s instanceof Apply a && a.intermediate());
    }

    @Test
    void nothingChangedStillListsEveryHyperNodeOnceAndDeletesNothing() {
        TopologyResult now = build(inRacks("r1"));
        List<Step> steps = HyperNodeChanges.plan(now.hyperNodes(), state(now));
        assertThat(steps).hasSize(now.hyperNodes().size()).allMatch(s -> s instanceof Apply a && !a.intermediate());
    }

    /** GB200-like trays under one of two leaves and one spine, each with its GPU clique. */
    static List<NodeInfo> racks(String... cliques) {
        List<NodeInfo> out = new ArrayList<>();
        for (int i = 0; i < cliques.length; i++) {
            out.add(node("t" + i)
                    .label("fabric.topograph.run/tier-0", i < cliques.length / 2 ? "l1" : "l2")
                    .label("fabric.topograph.run/tier-1", "s")
                    .label("nvidia.com/gpu.clique", cliques[i])
                    .build());
        }
        return out;
    }

    static Stream<Arguments> nvlinkChanges() {
        return Stream.of(
                Arguments.of(
                        "a rack is split into two partitions",
                        racks("u.1", "u.1", "u.1", "v.1", "v.1", "v.1"),
                        racks("u.1", "u.1", "u.2", "v.1", "v.1", "v.1")),
                Arguments.of(
                        "the split is undone",
                        racks("u.1", "u.1", "u.2", "v.1", "v.1", "v.1"),
                        racks("u.1", "u.1", "u.1", "v.1", "v.1", "v.1")),
                Arguments.of(
                        "a tray moves to the other partition",
                        racks("u.1", "u.1", "u.2", "v.1", "v.1", "v.1"),
                        racks("u.1", "u.2", "u.2", "v.1", "v.1", "v.1")),
                Arguments.of(
                        "the other rack is split too",
                        racks("u.1", "u.1", "u.2", "v.1", "v.1", "v.1"),
                        racks("u.1", "u.1", "u.2", "v.1", "v.2", "v.2")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nvlinkChanges")
    void nvlinkPartitionChangesNeverListAMemberTwice(String name, List<NodeInfo> before, List<NodeInfo> after) {
        TopologyResult from =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(before, List.of());
        TopologyResult to =
                new TopologyBuilder(TopologySettings.parse(TopologySettings.AUTO, null)).build(after, List.of());
        TreeAssertions.assertValidTree(to, name);
        List<Step> steps = HyperNodeChanges.plan(to.hyperNodes(), state(from));
        assertThat(run(state(from), steps, name)).as(name).isEqualTo(state(to));
    }

    static Stream<Long> seeds() {
        return LongStream.range(0, 300).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomRelabelsNeverListAMemberTwice(long seed) {
        Random random = new Random(seed);
        List<NodeInfo> before = new ArrayList<>();
        int count = 2 + random.nextInt(30);
        for (int i = 0; i < count; i++) {
            before.add(randomNode(random, "n" + i));
        }
        List<NodeInfo> after = new ArrayList<>(before);
        int changes = 1 + random.nextInt(count);
        for (int i = 0; i < changes; i++) {
            int at = random.nextInt(after.size());
            switch (random.nextInt(4)) {
                case 0 -> after.remove(at);
                case 1 -> after.add(randomNode(random, "new" + i));
                default -> after.set(at, randomNode(random, after.get(at).name()));
            }
        }
        TopologyResult from = build(before);
        TopologyResult to = build(after);
        List<Step> steps = HyperNodeChanges.plan(to.hyperNodes(), state(from));
        assertThat(run(state(from), steps, "seed " + seed))
                .as("seed %d ends at the desired state", seed)
                .isEqualTo(state(to));
        Set<String> deletes = Set.copyOf(steps.stream()
                .filter(s -> s instanceof Delete)
                .map(s -> ((Delete) s).name())
                .toList());
        // a wanted HyperNode goes only when it keeps no member across the change (one deleted too does not count)
        assertThat(deletes)
                .as("seed %d", seed)
                .allMatch(n -> !state(to).containsKey(n)
                        || HyperNodeChanges.members(state(from).get(n)).stream()
                                .filter(m -> !(m.startsWith("HyperNode/")
                                        && deletes.contains(m.substring("HyperNode/".length()))))
                                .noneMatch(HyperNodeChanges.members(state(to).get(n))::contains));
    }

    static NodeInfo randomNode(Random random, String name) {
        return node(name)
                .label("rack", "r" + random.nextInt(4))
                .label("zone", "z" + random.nextInt(3))
                .build();
    }
}

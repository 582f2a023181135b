package io.topobridge.core.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.node.Taint;
import io.topobridge.core.node.Toleration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A running gang of four 4-GPU pods ({@code highest-tier} 1, hard) filling NVLink partition p1 (n1..n4) of two
 * (p2: m1..m4) under one spine, and what happens to its domain when a pod or a node goes.
 */
class GangDomainTest {

    static final Instant T0 = Instant.parse("2026-12-03T08:00:00Z");
    static final Instant REPLACED = T0.plusSeconds(30);
    static final NodeState CORDONED = new NodeState(true, "True", List.of());
    static final NodeState NOT_READY = new NodeState(false, "Unknown", List.of());
    static final NodeState TAINTED =
            new NodeState(false, "True", List.of(new Taint("maintenance", "soon", Taint.NO_SCHEDULE)));

    /** The cluster and the gang as a case leaves them. */
    static final class World {
        final List<NodeView> nodes = new ArrayList<>();
        final List<PodView> pods = new ArrayList<>();
        String mode = "hard";
        int tier = 1;

        World() {
            for (String n : List.of("n1", "n2", "n3", "n4", "m1", "m2", "m3", "m4")) {
                nodes.add(Cluster.nodeView(n, Map.of(), Cluster.amounts(4, 64, 512)));
            }
            for (int i = 0; i < 4; i++) {
                pods.add(pod("g-" + i, "n" + (i + 1), T0, false, List.of()));
            }
        }

        static PodView pod(String name, String node, Instant created, boolean deleting, List<Toleration> tolerations) {
            return new PodView(
                    "ns",
                    name,
                    node,
                    Cluster.amounts(4, 1, 8),
                    Map.of(),
                    null,
                    "g",
                    tolerations,
                    created,
                    deleting,
                    null);
        }

        World node(String name, NodeState state) {
            nodes.replaceAll(
                    n -> n.name().equals(name) ? new NodeView(n.name(), n.labels(), n.allocatable(), state) : n);
            return this;
        }

        /** Every pod of the gang (as its template) with these tolerations. */
        World tolerating(List<Toleration> tolerations) {
            pods.replaceAll(p -> pod(p.name(), p.node(), p.created(), p.deleting(), tolerations));
            return this;
        }

        World nodeGone(String name) {
            nodes.removeIf(n -> n.name().equals(name));
            return this;
        }

        /** The gang's last pod (on n4) deleted (left Terminating there if {@code terminating}) and replaced. */
        World replaced(boolean terminating) {
            PodView old = pods.remove(3);
            if (terminating) {
                pods.add(pod(old.name(), old.node(), T0, true, List.of()));
            }
            pods.add(pod("g-4", null, REPLACED, false, List.of()));
            return this;
        }

        World replaced() {
            return replaced(false);
        }

        /** The gang's last pod (on n4) deleted and left Terminating there, with no replacement made (a named pod). */
        World terminatingUnreplaced() {
            PodView old = pods.remove(3);
            pods.add(pod(old.name(), old.node(), T0, true, List.of()));
            return this;
        }

        Capacity capacity(List<PodView> others) {
            Forest forest = Forest.of(List.of(
                    new HyperNodeView("p1", 1, "nvlink", "t", List.of("n1", "n2", "n3", "n4"), List.of()),
                    new HyperNodeView("p2", 1, "nvlink", "t", List.of("m1", "m2", "m3", "m4"), List.of()),
                    new HyperNodeView("spine", 2, "spine", "t", List.of(), List.of("p1", "p2"))));
            List<PodView> all = new ArrayList<>(pods);
            all.addAll(others);
            return Capacity.of(nodes, all, forest, Accelerators.DEFAULT);
        }

        GangView gang() {
            Amounts need = pods.stream().map(PodView::requests).reduce(Amounts.NONE, Amounts::plus);
            return Cluster.gangView(
                    "ns", "g", "Deployment/g", "Running", 4, need, mode, tier, List.of(), List.of(), null, pods);
        }
    }

    record Case(
            String name,
            UnaryOperator<World> change,
            List<PodView> others,
            GangDomain.Verdict verdict,
            String domain,
            List<String> unusable,
            Instant since,
            String sentence) {
        /** The gang runs whole within p1 after {@code change}, with no other pods and no node unusable. */
        static Case holdsWhole(String name, UnaryOperator<World> change) {
            return new Case(
                    name,
                    change,
                    List.of(),
                    GangDomain.Verdict.HOLDS,
                    "p1",
                    List.of(),
                    null,
                    "runs within p1 (tier 1, nvlink)");
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        PodView intruder = World.pod("other-0", "n4", T0, false, List.of());
        return Stream.of(
                        Case.holdsWhole("runs whole", w -> w),
                        new Case(
                                "runs whole beside a cordoned node of its partition",
                                w -> w.node("n4", CORDONED),
                                List.of(),
                                GangDomain.Verdict.HOLDS,
                                "p1",
                                List.of("n4 (cordoned)"),
                                null,
                                "runs within p1 (tier 1, nvlink); takes no new pods there: n4 (cordoned)"),
                        new Case(
                                "pod killed, its node takes the replacement",
                                World::replaced,
                                List.of(),
                                GangDomain.Verdict.ROOM,
                                "p1",
                                List.of(),
                                REPLACED,
                                "p1 (tier 1, nvlink) has room for the pod the gang is short of; it needs 4"
                                        + " nvidia.com/gpu, the usable nodes have 4 free of 16; pending: g-4;"
                                        + " waiting since 2026-12-03T08:00:30Z; waiting for Volcano"),
                        new Case(
                                "node not ready, its pod evicted (Terminating there) and replaced",
                                w -> w.node("n4", NOT_READY).replaced(true),
                                List.of(),
                                GangDomain.Verdict.DOMAIN_LOST,
                                "p1",
                                List.of("n4 (Ready=Unknown)"),
                                REPLACED,
                                "p1 (tier 1, nvlink) can no longer hold the gang: its 4 pods do not fit its usable"
                                        + " nodes even when they are empty; it needs 4 nvidia.com/gpu, the usable nodes"
                                        + " have 0 free of 12; no new pods on n4 (Ready=Unknown); pending:"
                                        + " g-4; waiting since 2026-12-03T08:00:30Z"),
                        new Case(
                                "node not ready, its pod not evicted yet",
                                w -> w.node("n4", NOT_READY),
                                List.of(),
                                GangDomain.Verdict.DOMAIN_LOST,
                                "p1",
                                List.of("n4 (Ready=Unknown)"),
                                null,
                                "p1 (tier 1, nvlink) can no longer hold the gang: its 4 pods do not fit its usable"
                                        + " nodes even when they are empty; it needs 4 nvidia.com/gpu, the usable nodes"
                                        + " have 0 free of 12; no new pods on n4 (Ready=Unknown); lost: g-3"
                                        + " on n4 (Ready=Unknown)"),
                        new Case(
                                "node not ready, its pod evicted (Terminating there) and no replacement made",
                                w -> w.node("n4", NOT_READY).terminatingUnreplaced(),
                                List.of(),
                                GangDomain.Verdict.REPLACEMENT_BLOCKED,
                                "p1",
                                List.of("n4 (Ready=Unknown)"),
                                null,
                                "runs 3 of its 4 pods within p1 (tier 1, nvlink) and no replacement is pending: g-3"
                                        + " Terminating on n4 (Ready=Unknown); its controller makes no pod under a name"
                                        + " still taken (a StatefulSet's ordinal, a LeaderWorkerSet group's, a"
                                        + " RoleSet's), so the gang runs short until that pod is gone: the node back or"
                                        + " deleted, or the pod force-deleted (kubectl delete pod --force) or the node"
                                        + " tainted node.kubernetes.io/out-of-service once it is known to be down"),
                        new Case(
                                "node deleted, its pod still Terminating and no replacement made",
                                w -> w.nodeGone("n4").terminatingUnreplaced(),
                                List.of(),
                                GangDomain.Verdict.REPLACEMENT_BLOCKED,
                                "p1",
                                List.of(),
                                null,
                                null),
                        Case.holdsWhole(
                                "a pod Terminating on a ready node (a rolling restart): nothing blocks it",
                                World::terminatingUnreplaced),
                        new Case(
                                "node cordoned and drained",
                                w -> w.node("n4", CORDONED).replaced(),
                                List.of(),
                                GangDomain.Verdict.DOMAIN_LOST,
                                "p1",
                                List.of("n4 (cordoned)"),
                                REPLACED,
                                null),
                        new Case(
                                "node deleted with its pod",
                                w -> w.nodeGone("n4").replaced(),
                                List.of(),
                                GangDomain.Verdict.DOMAIN_LOST,
                                "p1",
                                List.of(),
                                REPLACED,
                                null),
                        new Case(
                                "node tainted with what the gang's pods do not tolerate",
                                w -> w.node("n4", TAINTED).replaced(),
                                List.of(),
                                GangDomain.Verdict.DOMAIN_LOST,
                                "p1",
                                List.of("n4 (tainted maintenance=soon:NoSchedule)"),
                                REPLACED,
                                null),
                        new Case(
                                "node tainted with what the gang's pods tolerate",
                                w -> w.node("n4", TAINTED)
                                        .replaced()
                                        .tolerating(List.of(new Toleration("maintenance", "Exists", null, null))),
                                List.of(),
                                GangDomain.Verdict.ROOM,
                                "p1",
                                List.of(),
                                REPLACED,
                                null),
                        new Case(
                                "another gang took the freed node",
                                World::replaced,
                                List.of(intruder),
                                GangDomain.Verdict.NO_ROOM_IN_DOMAIN,
                                "p1",
                                List.of(),
                                REPLACED,
                                "no room in p1 (tier 1, nvlink) for the pod the gang is short of; it needs 4"
                                        + " nvidia.com/gpu, the usable nodes have 0 free of 16; pending: g-4; waiting"
                                        + " since 2026-12-03T08:00:30Z"),
                        new Case(
                                "tier-2 gang: the spine still has room",
                                w -> {
                                    w.tier = 2;
                                    return w.node("n4", CORDONED).replaced();
                                },
                                List.of(),
                                GangDomain.Verdict.ROOM,
                                "spine",
                                List.of("n4 (cordoned)"),
                                REPLACED,
                                null))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void judges(Case c) {
        World w = c.change().apply(new World());
        Capacity capacity = w.capacity(c.others())
                .forPods(w.pods.stream().map(PodView::effectiveTolerations).toList());
        GangDomain d = GangDomain.of(w.gang(), capacity).orElseThrow();
        assertThat(d.verdict()).isEqualTo(c.verdict());
        assertThat(d.domain()).isEqualTo(c.domain());
        assertThat(d.unusable()).isEqualTo(c.unusable());
        assertThat(d.since()).isEqualTo(c.since());
        assertThat(d.stuck())
                .isEqualTo(c.verdict() == GangDomain.Verdict.DOMAIN_LOST
                        || c.verdict() == GangDomain.Verdict.NO_ROOM_IN_DOMAIN
                        || c.verdict() == GangDomain.Verdict.REPLACEMENT_BLOCKED);
        if (c.verdict() == GangDomain.Verdict.REPLACEMENT_BLOCKED) {
            assertThat(d.lost()).singleElement().asString().startsWith("g-3 Terminating on n4 (");
            assertThat(d.pending()).isEmpty();
        }
        if (c.sentence() != null) {
            assertThat(d.sentence()).isEqualTo(c.sentence());
        }
    }

    static Stream<Arguments> notJudged() {
        return Stream.of(
                Arguments.of("soft gang", (UnaryOperator<World>) w -> {
                    w.mode = "soft";
                    return w.nodeGone("n4").replaced();
                }),
                Arguments.of("no pod bound yet", (UnaryOperator<World>) w -> {
                    w.pods.replaceAll(p -> World.pod(p.name(), null, T0, false, List.of()));
                    return w;
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notJudged")
    void gangsThatDoNotRunOrAreSoftAreNotJudged(String name, UnaryOperator<World> change) {
        World w = change.apply(new World());
        assertThat(GangDomain.of(w.gang(), w.capacity(List.of()))).isEmpty();
        assertThat(GangDomain.shortOfPods(w.gang(), node -> Optional.of(NodeState.SCHEDULABLE)))
                .isFalse();
    }

    static Stream<Arguments> shortOf() {
        return Stream.of(
                Arguments.of("runs whole", (UnaryOperator<World>) w -> w, false),
                Arguments.of("a node cordoned under a pod", (UnaryOperator<World>) w -> w.node("n4", CORDONED), false),
                Arguments.of("a replacement pending", (UnaryOperator<World>) World::replaced, true),
                Arguments.of("a pod on a node not ready", (UnaryOperator<World>) w -> w.node("n4", NOT_READY), true),
                Arguments.of("a pod on a node gone", (UnaryOperator<World>) w -> w.nodeGone("n4"), true),
                Arguments.of(
                        "a pod Terminating on a node not ready, none replacing it",
                        (UnaryOperator<World>) w -> w.node("n4", NOT_READY).terminatingUnreplaced(),
                        true),
                Arguments.of(
                        "a pod Terminating on a node gone, none replacing it",
                        (UnaryOperator<World>) w -> w.nodeGone("n4").terminatingUnreplaced(),
                        true),
                Arguments.of(
                        "a pod Terminating on a ready node",
                        (UnaryOperator<World>) World::terminatingUnreplaced,
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shortOf")
    void shortOfPodsLooksAtPodsAndNodesOnly(String name, UnaryOperator<World> change, boolean expected) {
        World w = change.apply(new World());
        assertThat(GangDomain.shortOfPods(
                        w.gang(),
                        node -> w.nodes.stream()
                                .filter(n -> n.name().equals(node))
                                .findFirst()
                                .map(NodeView::state)))
                .isEqualTo(expected);
    }
}

package io.topobridge.core.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.Cluster;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.NodeState;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The restart of a gang whose domain is lost, driven pass by pass by the clock: a gang of four 4-GPU pods (hard tier
 * 1) fills NVLink partition p1 (n1..n4); p2 (m1..m4) sits beside it, empty unless a case fills it.
 */
class DomainLossRestartsTest {

    static final Instant T0 = Instant.parse("2026-12-03T08:00:00Z");
    static final Duration GRACE = Duration.ofSeconds(10);
    static final ObjectRef DEPLOYMENT = new ObjectRef("apps/v1", "Deployment", "ns", "web", "u1");
    static final ObjectRef LWS = new ObjectRef("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "ns", "lws", "u2");
    static final String WORKER_INDEX = "leaderworkerset.sigs.k8s.io/worker-index";
    static final ObjectRef DISAGGREGATED =
            new ObjectRef("disaggregatedset.x-k8s.io/v1alpha1", "DisaggregatedSet", "ns", "pd", "u3");
    static final NodeState NOT_READY = new NodeState(false, "Unknown", List.of());
    static final NodeState CORDONED = new NodeState(true, "True", List.of());

    static Amounts amounts(int gpus, int cpu) {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        if (gpus > 0) {
            out.put(Amounts.GPU, BigDecimal.valueOf(gpus));
        }
        out.put("cpu", BigDecimal.valueOf(cpu));
        return new Amounts(out);
    }

    /** The cluster and the gang. */
    static final class World {
        final List<NodeView> nodes = new ArrayList<>();
        final List<PodView> pods = new ArrayList<>();
        final List<PodView> others = new ArrayList<>();

        World() {
            for (String n : List.of("n1", "n2", "n3", "n4", "m1", "m2", "m3", "m4")) {
                nodes.add(Cluster.nodeView(n, Map.of(), amounts(4, 64)));
            }
            for (int i = 0; i < 4; i++) {
                pods.add(pod("g-" + i, "n" + (i + 1), Map.of()));
            }
        }

        /** The gang's pods as LeaderWorkerSet groups of {@code size} make them (their worker-index labels). */
        World lwsGroups(int size) {
            pods.replaceAll(p -> pod(
                    p.name(),
                    p.node(),
                    Map.of(
                            WORKER_INDEX,
                            "" + (Integer.parseInt(p.name().substring(p.name().indexOf('-') + 1)) % size))));
            return this;
        }

        static PodView pod(String name, String node, Map<String, String> labels) {
            return new PodView("ns", name, node, amounts(4, 1), labels, null, "g", List.of(), T0, false, "uid-" + name);
        }

        World node(String name, NodeState state) {
            nodes.replaceAll(
                    n -> n.name().equals(name) ? new NodeView(n.name(), n.labels(), n.allocatable(), state) : n);
            return this;
        }

        World nodeGone(String name) {
            nodes.removeIf(n -> n.name().equals(name));
            return this;
        }

        /** The pod on n4 gone with its node, its replacement pending. */
        World lostN4() {
            nodeGone("n4");
            pods.remove(3);
            boolean lws = pods.stream().anyMatch(p -> p.labels().containsKey(WORKER_INDEX));
            pods.add(pod("g-4", null, lws ? Map.of(WORKER_INDEX, "3") : Map.of()));
            return this;
        }

        /**
         * n4 stops answering: its pod is evicted and left Terminating there, and no replacement is made (a StatefulSet,
         * a LeaderWorkerSet group or a RoleSet makes none under a name still taken).
         */
        World evictedFromDownN4() {
            node("n4", new NodeState(false, "Unknown", List.of()));
            PodView old = pods.remove(3);
            pods.add(new PodView(
                    "ns",
                    old.name(),
                    old.node(),
                    old.requests(),
                    old.labels(),
                    null,
                    "g",
                    List.of(),
                    T0,
                    true,
                    old.uid()));
            return this;
        }

        /** Other pods fill p2. */
        World p2Full() {
            for (int i = 1; i <= 4; i++) {
                others.add(
                        Cluster.podView("ns", "other-" + i, "m" + i, amounts(4, 1), Map.of(), null, null, List.of()));
            }
            return this;
        }

        /** The gang runs whole again in p2. */
        World movedToP2() {
            pods.clear();
            for (int i = 0; i < 4; i++) {
                pods.add(pod("h-" + i, "m" + (i + 1), Map.of()));
            }
            return this;
        }

        /** A tier-1 domain of the four nodes {@code <prefix>1} to {@code <prefix>4}. */
        private static HyperNodeView nvlink(String name, String prefix) {
            return new HyperNodeView(
                    name, 1, "nvlink", "t", List.of(prefix + 1, prefix + 2, prefix + 3, prefix + 4), List.of());
        }

        Capacity capacity() {
            Forest forest = Forest.of(List.of(
                    nvlink("p1", "n"),
                    nvlink("p2", "m"),
                    new HyperNodeView("spine", 2, "spine", "t", List.of(), List.of("p1", "p2"))));
            return Capacity.of(
                    nodes,
                    java.util.stream.Stream.concat(pods.stream(), others.stream())
                            .toList(),
                    forest,
                    Accelerators.DEFAULT);
        }

        GangView gang() {
            Amounts need = pods.stream().map(PodView::requests).reduce(Amounts.NONE, Amounts::plus);
            return Cluster.gangView(
                    "ns", "g", "Deployment/web", "Running", 4, need, "hard", 1, List.of(), List.of(), null, pods);
        }

        /** The domain as the reconciler judges it: only for a gang short of pods. */
        Optional<GangDomain> domain() {
            Map<String, NodeState> states = new java.util.HashMap<>();
            nodes.forEach(n -> states.put(n.name(), n.state()));
            boolean shortOf = GangDomain.shortOfPods(gang(), name -> Optional.ofNullable(states.get(name)));
            return shortOf ? GangDomain.of(gang(), capacity()) : Optional.empty();
        }
    }

    /** A pass under the restart policy, {@code seconds} after {@link #T0}. */
    static DomainLossRestarts.Decision restartPass(World world, Memory ledger, long seconds) {
        return pass(world, DomainLossPolicy.RESTART, ledger, T0.plusSeconds(seconds));
    }

    static DomainLossRestarts.Decision pass(World world, DomainLossPolicy policy, Memory ledger, Instant now) {
        return pass(world, policy, ledger, now, List.of(DEPLOYMENT), 1);
    }

    static DomainLossRestarts.Decision pass(
            World world,
            DomainLossPolicy policy,
            Memory ledger,
            Instant now,
            List<ObjectRef> subjects,
            int maxConcurrent) {
        return ledger.remember(
                "ns/g",
                DomainLossRestarts.decide(
                        "ns",
                        "g",
                        subjects,
                        world.gang(),
                        world.domain(),
                        policy,
                        GRACE,
                        world::capacity,
                        maxConcurrent,
                        ledger.value,
                        now));
    }

    /** The acting replica's memory from pass to pass, as the controller keeps it: each decision's entry taken in. */
    static final class Memory {
        DomainLossRestarts.Ledger value = DomainLossRestarts.Ledger.EMPTY;

        DomainLossRestarts.Decision remember(String key, DomainLossRestarts.Decision decision) {
            value = value.with(java.util.Map.of(key, decision.remembered()));
            return decision;
        }

        boolean restarted(String key) {
            return value.of(key).made() != null;
        }

        int underWay(Instant now) {
            return value.underWay(now);
        }

        void retainOnly(List<String> keys) {
            value = value.retainOnly(keys);
        }

        void forget(String key) {
            value = value.forget(key);
        }
    }

    /** A pass over the same world for gang {@code other/g}, in the same ledger. */
    static void restartOther(Memory ledger, World world, Instant now) {
        ledger.remember(
                "other/g",
                DomainLossRestarts.decide(
                        "other",
                        "g",
                        List.of(DEPLOYMENT),
                        world.gang(),
                        world.domain(),
                        DomainLossPolicy.RESTART,
                        GRACE,
                        world::capacity,
                        1,
                        ledger.value,
                        now));
    }

    /** A decision that restarts nothing, says nothing and sets no timer. */
    static void saysNothing(DomainLossRestarts.Decision decision) {
        assertThat(decision.restart()).isEmpty();
        assertThat(decision.findings()).isEmpty();
        assertThat(decision.recheckAfter()).isNull();
    }

    static List<RecoveryReason> reasons(DomainLossRestarts.Decision decision) {
        return decision.findings().stream()
                .map(f -> (RecoveryReason) f.reason())
                .distinct()
                .toList();
    }

    /**
     * One case: the world after a change, the policy, and the passes at these offsets from T0 (seconds); what each
     * pass restarts (the pods deleted, empty for none) and says.
     */
    record Case(
            String name,
            UnaryOperator<World> change,
            DomainLossPolicy policy,
            List<Integer> at,
            List<List<String>> deleted,
            List<RecoveryReason> lastSays) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        List<String> all = List.of("g-0", "g-1", "g-2", "g-4");
        return Stream.of(
                        new Case(
                                "node gone, restart: nothing before the grace, one restart at it, none again within"
                                        + " the window",
                                World::lostN4,
                                DomainLossPolicy.RESTART,
                                List.of(0, 9, 10, 11, 19),
                                List.of(List.of(), List.of(), all, List.of(), List.of()),
                                List.of(RecoveryReason.GANG_RESTARTED)),
                        new Case(
                                "node not ready (its pod still bound there), restart: every live pod deleted",
                                w -> w.node("n4", NOT_READY),
                                DomainLossPolicy.RESTART,
                                List.of(0, 10),
                                List.of(List.of(), List.of("g-0", "g-1", "g-2", "g-3")),
                                List.of(RecoveryReason.GANG_RESTARTED)),
                        new Case(
                                "node cordoned, its pod evicted, restart",
                                w -> {
                                    w.lostN4();
                                    w.nodes.add(new NodeView("n4", Map.of(), amounts(4, 64), CORDONED));
                                    return w;
                                },
                                DomainLossPolicy.RESTART,
                                List.of(0, 10),
                                List.of(List.of(), all),
                                List.of(RecoveryReason.GANG_RESTARTED)),
                        new Case(
                                "wait (the default): never",
                                World::lostN4,
                                DomainLossPolicy.WAIT,
                                List.of(0, 10, 3600),
                                List.of(List.of(), List.of(), List.of()),
                                List.of()),
                        new Case(
                                "no policy given: wait",
                                World::lostN4,
                                null,
                                List.of(0, 10, 3600),
                                List.of(List.of(), List.of(), List.of()),
                                List.of()),
                        new Case(
                                "no other domain has room: held, said",
                                w -> w.lostN4().p2Full(),
                                DomainLossPolicy.RESTART,
                                List.of(0, 10, 60),
                                List.of(List.of(), List.of(), List.of()),
                                List.of(RecoveryReason.RESTART_HELD)),
                        new Case(
                                "no room in the domain (a stranger took it), not lost: never",
                                w -> {
                                    w.pods.remove(3);
                                    w.pods.add(World.pod("g-4", null, Map.of()));
                                    w.others.add(Cluster.podView(
                                            "ns", "x", "n4", amounts(4, 1), Map.of(), null, null, List.of()));
                                    return w;
                                },
                                DomainLossPolicy.RESTART,
                                List.of(0, 10, 3600),
                                List.of(List.of(), List.of(), List.of()),
                                List.of()),
                        new Case(
                                "runs whole: never",
                                w -> w,
                                DomainLossPolicy.RESTART,
                                List.of(0, 10, 3600),
                                List.of(List.of(), List.of(), List.of()),
                                List.of()))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void restartsOnceAfterTheGrace(Case c) {
        World world = c.change().apply(new World());
        var ledger = new Memory();
        DomainLossRestarts.Decision last = null;
        for (int i = 0; i < c.at().size(); i++) {
            Instant now = T0.plusSeconds(c.at().get(i));
            last = pass(world, c.policy(), ledger, now);
            List<String> deleted = last.restart()
                    .map(r -> r.pods().stream()
                            .map(DomainLossRestarts.Victim::name)
                            .toList())
                    .orElse(List.of());
            assertThat(deleted)
                    .as("deleted at +%ss", c.at().get(i))
                    .isEqualTo(c.deleted().get(i));
            last.restart()
                    .ifPresent(r -> assertThat(r.pods())
                            .allSatisfy(v -> assertThat(v.uid()).isEqualTo("uid-" + v.name())));
        }
        assertThat(reasons(last)).isEqualTo(c.lastSays());
    }

    @Test
    void theGraceCountsFromTheFirstPassThatSawTheDomainLostAndStartsAgainWhenItCameBack() {
        var ledger = new Memory();
        World lost = new World().lostN4();
        assertThat(restartPass(lost, ledger, 0).recheckAfter()).isEqualTo(GRACE);
        assertThat(restartPass(lost, ledger, 4).recheckAfter()).isEqualTo(Duration.ofSeconds(6));
        // the node comes back: the count ends
        World back = new World();
        assertThat(restartPass(back, ledger, 6)).satisfies(DomainLossRestartsTest::saysNothing);
        // lost again: the grace counts afresh
        assertThat(restartPass(lost, ledger, 8).restart()).isEmpty();
        assertThat(restartPass(lost, ledger, 17).restart()).isEmpty();
        assertThat(restartPass(lost, ledger, 18).restart()).isPresent();
    }

    @Test
    void theEventNamesWhatWasDeletedTheDomainTheNodesAndSinceWhen() {
        var ledger = new Memory();
        World world = new World().lostN4();
        restartPass(world, ledger, 0);
        DomainLossRestarts.Decision decision = restartPass(world, ledger, 10);
        DomainLossRestarts.Restart restart = decision.restart().orElseThrow();
        assertThat(restart.message())
                .isEqualTo("gang g restarted at 2026-12-03T08:00:10Z, its domain lost since 2026-12-03T08:00:00Z (past"
                        + " its 10s grace): " + world.domain().orElseThrow().sentence()
                        + "; deleted its pods g-0, g-1, g-2, g-4 so its controller makes them again and Volcano places"
                        + " the whole gang in a domain with room (p2)")
                .contains("p1 (tier 1, nvlink) can no longer hold the gang", "pending: g-4");
        assertThat(decision.findings()).hasSize(2).allSatisfy(f -> {
            assertThat(f.reason()).isEqualTo(RecoveryReason.GANG_RESTARTED);
            assertThat(f.severity()).isEqualTo(Severity.INFO);
        });
        assertThat(decision.findings().get(0).object()).isEqualTo(DEPLOYMENT);
        assertThat(decision.findings().get(1).object().kind()).isEqualTo("PodGroup");
        // the next pass says the same (one Event), and ends the window's timer at its end
        DomainLossRestarts.Decision next = restartPass(world, ledger, 12);
        assertThat(next.findings()).isEqualTo(decision.findings());
        assertThat(next.recheckAfter()).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void aRestartThatDidNotHelpIsSaidAndNotRepeated() {
        var ledger = new Memory();
        World world = new World().lostN4();
        restartPass(world, ledger, 0);
        assertThat(restartPass(world, ledger, 10).restart()).isPresent();
        // the gang never ran whole: after its window it is said, and never restarted again
        for (int s : List.of(20, 30, 100, 3600)) {
            DomainLossRestarts.Decision d = restartPass(world, ledger, s);
            assertThat(d.restart()).as("+%ss", s).isEmpty();
            assertThat(reasons(d)).containsExactly(RecoveryReason.RESTART_DID_NOT_HELP);
            assertThat(d.findings()).allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.WARNING));
        }
    }

    @Test
    void aGangThatRanWholeAfterItsRestartMayBeRestartedAfterTheWindow() {
        var ledger = new Memory();
        World lost = new World().lostN4();
        restartPass(lost, ledger, 0);
        assertThat(restartPass(lost, ledger, 10).restart()).isPresent();
        World moved = new World().movedToP2();
        assertThat(reasons(restartPass(moved, ledger, 14))).containsExactly(RecoveryReason.GANG_RESTARTED);
        assertThat(restartPass(moved, ledger, 20)).satisfies(DomainLossRestartsTest::saysNothing);
        assertThat(ledger.restarted("ns/g")).isFalse();
        // its new domain lost in turn (m4 gone): restarted once more after a grace, into p1
        World lostAgain = new World().movedToP2().nodeGone("m4");
        lostAgain.pods.remove(3);
        lostAgain.pods.add(World.pod("h-4", null, Map.of()));
        assertThat(restartPass(lostAgain, ledger, 30).restart()).isEmpty();
        assertThat(restartPass(lostAgain, ledger, 40).restart()).isPresent();
    }

    @Test
    void atMostTheConfiguredNumberOfRestartsAreUnderWayInTheCluster() {
        var ledger = new Memory();
        World world = new World().lostN4();
        // another gang's restart is under way (same ledger, another key)
        restartOther(ledger, world, T0.minusSeconds(20));
        restartOther(ledger, world, T0.plusSeconds(5));
        assertThat(ledger.restarted("other/g")).isTrue();
        restartPass(world, ledger, 0);
        DomainLossRestarts.Decision held = restartPass(world, ledger, 10);
        assertThat(held.restart()).isEmpty();
        assertThat(reasons(held)).containsExactly(RecoveryReason.RESTART_HELD);
        assertThat(held.findings().get(0).message())
                .contains("1 restart(s) are under way in the cluster, the limit is 1");
        // with room for two at once it goes ahead
        assertThat(pass(world, DomainLossPolicy.RESTART, ledger, T0.plusSeconds(11), List.of(DEPLOYMENT), 2)
                        .restart())
                .isPresent();
    }

    @Test
    void aGangDeletedMidRestartCountsNoLongerAgainstTheLimit() {
        var ledger = new Memory();
        World world = new World().lostN4();
        restartPass(world, ledger, 0);
        assertThat(restartPass(world, ledger, 10).restart()).isPresent();
        assertThat(ledger.underWay(T0.plusSeconds(11))).isEqualTo(1);
        ledger.retainOnly(List.of("ns/other"));
        assertThat(ledger.underWay(T0.plusSeconds(11))).isZero();
        assertThat(ledger.restarted("ns/g")).isFalse();
    }

    @Test
    void aLeaderWorkerSetGroupIsRestartedThroughItsLeader() {
        var ledger = new Memory();
        World world = new World().lwsGroups(4).lostN4();
        pass(world, DomainLossPolicy.RESTART, ledger, T0, List.of(LWS), 1);
        DomainLossRestarts.Restart restart = pass(
                        world, DomainLossPolicy.RESTART, ledger, T0.plusSeconds(10), List.of(LWS), 1)
                .restart()
                .orElseThrow();
        assertThat(restart.pods()).containsExactly(new DomainLossRestarts.Victim("g-0", "uid-g-0"));
        assertThat(restart.message()).contains("deleted its group's leader pod g-0");
    }

    @Test
    void aDisaggregatedSetGangIsRestartedThroughTheLeaderOfEachOfItsGroups() {
        // a prefill group and a decode group of two pods each (g-0, g-2 the leaders), one gang across both
        var ledger = new Memory();
        World world = new World().lwsGroups(2).lostN4();
        pass(world, DomainLossPolicy.RESTART, ledger, T0, List.of(DISAGGREGATED), 1);
        DomainLossRestarts.Restart restart = pass(
                        world, DomainLossPolicy.RESTART, ledger, T0.plusSeconds(10), List.of(DISAGGREGATED), 1)
                .restart()
                .orElseThrow();
        assertThat(restart.pods())
                .containsExactly(
                        new DomainLossRestarts.Victim("g-0", "uid-g-0"),
                        new DomainLossRestarts.Victim("g-2", "uid-g-2"));
    }

    @Test
    void aDeploymentGangIsRestartedThroughAllItsPods() {
        var ledger = new Memory();
        World world = new World().lostN4();
        pass(world, DomainLossPolicy.RESTART, ledger, T0, List.of(DEPLOYMENT), 1);
        DomainLossRestarts.Restart restart = pass(
                        world, DomainLossPolicy.RESTART, ledger, T0.plusSeconds(10), List.of(DEPLOYMENT), 1)
                .restart()
                .orElseThrow();
        assertThat(restart.pods())
                .extracting(DomainLossRestarts.Victim::name)
                .containsExactly("g-0", "g-1", "g-2", "g-4");
    }

    @Test
    void aRestartThatCouldNotBeCarriedOutIsForgottenAndDecidedAgain() {
        var ledger = new Memory();
        World world = new World().lostN4();
        restartPass(world, ledger, 0);
        DomainLossRestarts.Restart restart =
                restartPass(world, ledger, 10).restart().orElseThrow();
        ledger.forget(restart.key());
        assertThat(restartPass(world, ledger, 11).restart()).isPresent();
    }

    @Test
    void settingsAreBounded() {
        for (Duration bad : List.of(Duration.ZERO, Duration.ofMillis(999), Duration.ofHours(25))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DomainLossRestarts.Settings(bad, 1))
                    .hasMessageContaining(DomainLossRestarts.GRACE_KEY);
        }
        for (int bad : List.of(0, -1, 1001)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> new DomainLossRestarts.Settings(Duration.ofMinutes(5), bad))
                    .hasMessageContaining(DomainLossRestarts.MAX_CONCURRENT_KEY);
        }
    }
}

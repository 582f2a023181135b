package io.topobridge.core.workload.changes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.changes.PodGroupChanges.Bounds;
import io.topobridge.core.workload.translate.ScopeResult;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The PodGroup write planner: queues Volcano would refuse, tiers without HyperNodes yet, gangs larger than their queue
 * or the cluster, and the cap on PodGroups per namespace.
 */
class PodGroupChangesTest {

    private static final GangScope SCOPE = new GangScope.Single(WorkloadKind.DEPLOYMENT, "ns", "web");

    private static ScopeResult translation(Map<String, String> annotations) {
        // the namespace lets its workloads use any queue: what is judged here is the queue's state
        List<HasMetadata> objects =
                Fixtures.objects(Fixtures.namespace("ns", Map.of("topobridge.io/allowed-queues", "*")) + "---\n"
                        + Fixtures.deployment("ns", "web", 2, annotations));
        return Fixtures.translator()
                .translateScopes(List.of(SCOPE), Fixtures.TIERS, Fixtures.lookup(objects))
                .get(0);
    }

    private static ObservedPodGroup existing(String queue) {
        return new ObservedPodGroup("ns", "tb-deploy-web", true, SCOPE, true, queue, Map.of(), null);
    }

    private static DesiredPodGroup applied(PodGroupChanges.Plan plan) {
        assertThat(plan.steps()).singleElement().isInstanceOf(PodGroupChanges.Apply.class);
        return ((PodGroupChanges.Apply) plan.steps().get(0)).podGroup();
    }

    @Test
    void aQueueChangeToAMissingOrClosedQueueKeepsTheCurrentQueue() {
        ScopeResult result = translation(Map.of("topobridge.io/queue", "research"));
        var queues = new QueueStates(true, Map.of("default", "Open", "closed", "Closed"), Map.of());

        PodGroupChanges.Plan held = TestPlans.plan(result, List.of(existing("default")), queues);
        DesiredPodGroup written = applied(held);
        assertThat(written.spec().getQueue()).isEqualTo("default");
        assertThat(written.spec().getMinMember()).isEqualTo(2);
        assertThat(held.findings()).extracting(f -> f.reason()).containsExactly(WorkloadReason.QUEUE_CHANGE_HELD);

        PodGroupChanges.Plan closed = TestPlans.plan(
                translation(Map.of("topobridge.io/queue", "closed")), List.of(existing("default")), queues);
        assertThat(applied(closed).spec().getQueue()).isEqualTo("default");

        // a new PodGroup in a missing queue waits (Volcano refuses it); an open queue is taken as it is
        PodGroupChanges.Plan fresh = TestPlans.plan(result, List.of(), queues);
        assertThat(fresh.steps()).isEmpty();
        assertThat(fresh.findings()).extracting(f -> f.reason()).containsExactly(WorkloadReason.QUEUE_MISSING);
        var open = new QueueStates(true, Map.of("default", "Open", "research", "Open"), Map.of());
        assertThat(applied(TestPlans.plan(result, List.of(existing("default")), open))
                        .spec()
                        .getQueue())
                .isEqualTo("research");
    }

    @Test
    void aHardGangWaitsForTheHyperNodesOfItsTier() {
        ScopeResult hard = translation(Map.of("topobridge.io/highest-tier", "2"));
        var queues = new QueueStates(true, Map.of("default", "Open"), Map.of());
        TierCatalog one = TierCatalog.of(List.of(new TierCatalog.Tier(1, "nvlink")), List.of());

        PodGroupChanges.Plan waiting = TestPlans.plan(hard, List.of(), queues, Map.of(), TierCatalog.EMPTY);
        assertThat(waiting.steps()).isEmpty();
        assertThat(waiting.findings())
                .extracting(f -> f.reason())
                .containsExactly(WorkloadReason.WAITING_FOR_HYPER_NODES);
        assertThat(TestPlans.plan(hard, List.of(), queues, Map.of(), one).steps())
                .as("tier 2 has no HyperNode yet")
                .isEmpty();
        assertThat(TestPlans.plan(hard, List.of(), queues, Map.of(), Fixtures.TIERS)
                        .steps())
                .hasSize(1);
        assertThat(TestPlans.plan(hard, List.of(existing("default")), queues, Map.of(), TierCatalog.EMPTY)
                        .steps())
                .as("an existing PodGroup is kept up to date")
                .hasSize(1);
        ScopeResult soft = translation(Map.of("topobridge.io/highest-tier", "2", "topobridge.io/mode", "soft"));
        assertThat(TestPlans.plan(soft, List.of(), queues, Map.of(), TierCatalog.EMPTY)
                        .steps())
                .as("soft never waits")
                .hasSize(1);
    }

    /** The gang of {@code translation}: 2 pods of 1 CPU and 1 GPU each, so minResources cpu 2, nvidia.com/gpu 2. */
    private static final ScopeResult TWO_GPUS = translation(Map.of("topobridge.io/queue", "team-a"));

    private static Map<String, BigDecimal> amounts(String... keyValues) {
        Map<String, BigDecimal> out = new java.util.TreeMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            out.put(keyValues[i], new BigDecimal(keyValues[i + 1]));
        }
        return out;
    }

    private static QueueStates teamA(Map<String, BigDecimal> capability) {
        return new QueueStates(
                true,
                Map.of("default", "Open", "team-a", "Open"),
                capability == null ? Map.of() : Map.of("team-a", capability));
    }

    static Stream<Arguments> bounds() {
        Amounts roomy = new Amounts(amounts("cpu", "64", "nvidia.com/gpu", "8", "memory", "1000000000"));
        return Stream.of(
                // name, queue capability (null: none), cluster allocatable (null: unknown), written, reason, message
                // part
                Arguments.of("no capability, cluster unknown", null, null, true, null, null),
                Arguments.of("within the queue's capability", amounts("nvidia.com/gpu", "2"), roomy, true, null, null),
                Arguments.of(
                        "a resource the capability does not list is not limited",
                        amounts("memory", "1"),
                        roomy,
                        true,
                        null,
                        null),
                Arguments.of(
                        "more GPUs than the queue's capability",
                        amounts("nvidia.com/gpu", "1", "cpu", "100"),
                        roomy,
                        false,
                        WorkloadReason.GANG_EXCEEDS_QUEUE,
                        "needs more than queue \"team-a\" may ever hold (its capability): nvidia.com/gpu 2 > 1; it is not made"),
                Arguments.of(
                        "a capability of zero",
                        amounts("nvidia.com/gpu", "0"),
                        roomy,
                        false,
                        WorkloadReason.GANG_EXCEEDS_QUEUE,
                        "nvidia.com/gpu 2 > 0"),
                Arguments.of(
                        "more CPU than all nodes together",
                        null,
                        new Amounts(amounts("cpu", "1.5", "nvidia.com/gpu", "8")),
                        false,
                        WorkloadReason.GANG_EXCEEDS_CLUSTER,
                        "needs more than all nodes together can allocate: cpu 2 > 1.5; it is not made"),
                Arguments.of(
                        "a resource no node offers",
                        null,
                        new Amounts(amounts("cpu", "64")),
                        false,
                        WorkloadReason.GANG_EXCEEDS_CLUSTER,
                        "nvidia.com/gpu 2 > 0"),
                Arguments.of(
                        "exactly the cluster",
                        null,
                        new Amounts(amounts("cpu", "2", "nvidia.com/gpu", "2")),
                        true,
                        null,
                        null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bounds")
    void aGangLargerThanItsQueueOrTheClusterGetsNoPodGroup(
            String name,
            Map<String, BigDecimal> capability,
            Amounts cluster,
            boolean written,
            WorkloadReason reason,
            String message) {
        Bounds bounds = new Bounds(cluster, 500, TestPlans.NO_RESERVATIONS);
        PodGroupChanges.Plan plan =
                PodGroupChanges.plan(TWO_GPUS, List.of(), teamA(capability), Map.of(), null, bounds);
        if (written) {
            assertThat(applied(plan).spec().getMinResources()).containsEntry("nvidia.com/gpu", "2");
            assertThat(plan.findings()).isEmpty();
            return;
        }
        assertThat(plan.steps()).isEmpty();
        assertThat(plan.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(reason);
            assertThat(f.isRejection()).isTrue();
            assertThat(f.key()).isEqualTo("tb-deploy-web");
            assertThat(f.message()).startsWith("Deployment/ns/web: PodGroup tb-deploy-web ");
        });
        assertThat(plan.findings().get(0).message()).contains(message);
    }

    @Test
    void anExistingPodGroupThatWouldGrowBeyondItsQueueIsKeptAsItWas() {
        PodGroupChanges.Plan plan = PodGroupChanges.plan(
                TWO_GPUS,
                List.of(existing("team-a")),
                teamA(amounts("nvidia.com/gpu", "1")),
                Map.of(),
                null,
                new Bounds(null, 500, TestPlans.NO_RESERVATIONS));
        assertThat(plan.steps()).as("neither rewritten nor deleted").isEmpty();
        assertThat(plan.findings())
                .extracting(Finding::message)
                .singleElement()
                .asString()
                .endsWith("nvidia.com/gpu 2 > 1; the PodGroup is kept as it was");
    }

    private static ObservedPodGroup other(String name) {
        return new ObservedPodGroup(
                "ns",
                name,
                true,
                new GangScope.Single(WorkloadKind.DEPLOYMENT, "ns", name.substring(10)),
                true,
                "default",
                Map.of(),
                null);
    }

    @Test
    void noNewPodGroupBeyondTheNamespacesLimitWhileExistingOnesAreKept() {
        QueueStates queues = teamA(null);
        List<ObservedPodGroup> two = List.of(other("tb-deploy-a"), other("tb-deploy-b"));

        PodGroupChanges.Plan full = PodGroupChanges.plan(
                TWO_GPUS, two, queues, Map.of(), null, new Bounds(null, 2, TestPlans.NO_RESERVATIONS));
        assertThat(full.steps()).isEmpty();
        assertThat(full.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.POD_GROUP_LIMIT_REACHED);
            assertThat(f.isRejection()).isFalse();
            assertThat(f.message())
                    .isEqualTo("Deployment/ns/web: PodGroup tb-deploy-web is not made: namespace ns holds 2"
                            + " PodGroups of the bridge, the most it makes in one namespace"
                            + " (topobridge.workloads.max-podgroups-per-namespace=2); it is made once there is room");
        });

        assertThat(PodGroupChanges.plan(
                                TWO_GPUS, two, queues, Map.of(), null, new Bounds(null, 3, TestPlans.NO_RESERVATIONS))
                        .steps())
                .as("room for one more")
                .hasSize(1);

        List<ObservedPodGroup> withMine = List.of(other("tb-deploy-a"), other("tb-deploy-b"), existing("team-a"));
        assertThat(applied(PodGroupChanges.plan(
                                TWO_GPUS,
                                withMine,
                                queues,
                                Map.of(),
                                null,
                                new Bounds(null, 2, TestPlans.NO_RESERVATIONS)))
                        .spec()
                        .getMinMember())
                .as("an existing PodGroup is still kept up to date over the limit")
                .isEqualTo(2);
    }
}

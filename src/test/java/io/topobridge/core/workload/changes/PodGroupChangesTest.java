package io.topobridge.core.workload.changes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.translate.ScopeResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PodGroup write planner: queues Volcano would refuse, and tiers without HyperNodes yet. */
class PodGroupChangesTest {

    private static final GangScope SCOPE = GangScope.of(WorkloadKind.DEPLOYMENT, "ns", "web");

    private static ScopeResult translation(Map<String, String> annotations) {
        List<HasMetadata> objects = Fixtures.objects(Fixtures.deployment("ns", "web", 2, annotations));
        return Fixtures.translator().translateScope(SCOPE, Fixtures.TIERS, Fixtures.lookup(objects));
    }

    private static ObservedPodGroup existing(String queue) {
        return new ObservedPodGroup("ns", "tb-deploy-web", true, SCOPE, true, queue);
    }

    private static DesiredPodGroup applied(PodGroupChanges.Plan plan) {
        assertThat(plan.steps()).singleElement().isInstanceOf(PodGroupChanges.Apply.class);
        return ((PodGroupChanges.Apply) plan.steps().get(0)).podGroup();
    }

    @Test
    void aQueueChangeToAMissingOrClosedQueueKeepsTheCurrentQueue() {
        ScopeResult result = translation(Map.of("topobridge.io/queue", "research"));
        var queues = new QueueStates(true, Map.of("default", "Open", "closed", "Closed"));

        PodGroupChanges.Plan held = PodGroupChanges.plan(result, List.of(existing("default")), queues);
        DesiredPodGroup written = applied(held);
        assertThat(written.spec().getQueue()).isEqualTo("default");
        assertThat(written.spec().getMinMember()).isEqualTo(2);
        assertThat(held.findings()).extracting(f -> f.reason()).containsExactly(WorkloadReason.QUEUE_CHANGE_HELD);

        PodGroupChanges.Plan closed = PodGroupChanges.plan(translation(Map.of("topobridge.io/queue", "closed")),
                List.of(existing("default")), queues);
        assertThat(applied(closed).spec().getQueue()).isEqualTo("default");

        // a new PodGroup in a missing queue waits (Volcano refuses it); an open queue is taken as it is
        PodGroupChanges.Plan fresh = PodGroupChanges.plan(result, List.of(), queues);
        assertThat(fresh.steps()).isEmpty();
        assertThat(fresh.findings()).extracting(f -> f.reason()).containsExactly(WorkloadReason.QUEUE_MISSING);
        var open = new QueueStates(true, Map.of("default", "Open", "research", "Open"));
        assertThat(applied(PodGroupChanges.plan(result, List.of(existing("default")), open)).spec().getQueue())
                .isEqualTo("research");
    }

    @Test
    void aHardGangWaitsForTheHyperNodesOfItsTier() {
        ScopeResult hard = translation(Map.of("topobridge.io/highest-tier", "2"));
        var queues = new QueueStates(true, Map.of("default", "Open"));
        TierCatalog one = TierCatalog.of(List.of(new TierCatalog.Tier(1, "nvlink")));

        PodGroupChanges.Plan waiting = PodGroupChanges.plan(hard, List.of(), queues, Map.of(), TierCatalog.EMPTY);
        assertThat(waiting.steps()).isEmpty();
        assertThat(waiting.findings()).extracting(f -> f.reason()).containsExactly(WorkloadReason.WAITING_FOR_HYPER_NODES);
        assertThat(PodGroupChanges.plan(hard, List.of(), queues, Map.of(), one).steps()).as("tier 2 has no HyperNode yet").isEmpty();
        assertThat(PodGroupChanges.plan(hard, List.of(), queues, Map.of(), Fixtures.TIERS).steps()).hasSize(1);
        assertThat(PodGroupChanges.plan(hard, List.of(existing("default")), queues, Map.of(), TierCatalog.EMPTY).steps())
                .as("an existing PodGroup is kept up to date").hasSize(1);
        ScopeResult soft = translation(Map.of("topobridge.io/highest-tier", "2", "topobridge.io/mode", "soft"));
        assertThat(PodGroupChanges.plan(soft, List.of(), queues, Map.of(), TierCatalog.EMPTY).steps()).as("soft never waits")
                .hasSize(1);
    }
}

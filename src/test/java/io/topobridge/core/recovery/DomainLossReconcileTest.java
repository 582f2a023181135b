package io.topobridge.core.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.capacity.Capacity;
import io.topobridge.core.capacity.GangView;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.core.node.NodeState;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.changes.QueueStates;
import io.topobridge.core.workload.reconcile.ClusterFacts;
import io.topobridge.core.workload.reconcile.Outcome;
import io.topobridge.core.workload.reconcile.PassFacts;
import io.topobridge.core.workload.reconcile.ReconcileSettings;
import io.topobridge.core.workload.reconcile.ScopeReconciler;
import io.topobridge.core.workload.reconcile.TestSettings;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The restart through the one reconcile step: a Deployment's {@code on-domain-loss} and {@code domain-loss-grace}
 * travel with its PodGroup to the decision, which the pass's clock drives; render (no ledger) never restarts.
 */
class DomainLossReconcileTest {

    static final Instant T0 = DomainLossRestartsTest.T0;

    static String deployment(String extra) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: web
                  namespace: ns
                  uid: uid-web
                  annotations: {topobridge.io/highest-tier: nvlink, topobridge.io/queue: default%s}
                spec:
                  replicas: 4
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1", nvidia.com/gpu: "4"}, limits: {nvidia.com/gpu: "4"}}}]}
                """.formatted(extra);
    }

    /** The cluster's facts as the controller gives them: the world's gang for every PodGroup, and a ledger. */
    static ClusterFacts facts(DomainLossRestartsTest.World world, DomainLossRestartsTest.Memory ledger) {
        return new ClusterFacts() {
            @Override
            public Optional<GangView> gang(String namespace, String podGroup) {
                return Optional.of(world.gang());
            }

            @Override
            public Optional<NodeState> node(String name) {
                return world.nodes.stream()
                        .filter(n -> n.name().equals(name))
                        .map(n -> n.state())
                        .findFirst();
            }

            @Override
            public Capacity capacity() {
                return world.capacity();
            }

            @Override
            public DomainLossRestarts.Ledger ledger() {
                return ledger == null ? null : ledger.value;
            }
        };
    }

    /** One pass; what it remembers next is kept in {@code memory} (null: nothing kept, as in render). */
    static Outcome pass(
            String yaml,
            DomainLossRestartsTest.World world,
            DomainLossRestartsTest.Memory memory,
            Duration defaultGrace,
            Instant now) {
        ClusterFacts recovery = facts(world, memory);
        var reconciler = new ScopeReconciler(
                new WorkloadTranslator(Fixtures.defaultSettings(), Kinds.adapters(), Clock.fixed(now, ZoneOffset.UTC)),
                new ReconcileSettings(
                        false,
                        "topobridge.io/enabled",
                        Duration.ZERO,
                        new DomainLossRestarts.Settings(defaultGrace, 1)),
                TestSettings.NO_RESERVATION_LIMITS);
        List<HasMetadata> objects = Fixtures.objects(yaml);
        var lookup = new InMemoryLookup(objects);
        List<HasMetadata> workloads = objects.stream()
                .filter(o -> WorkloadKind.of(o.getApiVersion(), o.getKind()).isPresent())
                .toList();
        var facts = new PassFacts(Fixtures.TIERS, Fixtures.TIERS, null, QueueStates.UNKNOWN, now, recovery);
        List<Outcome> outcomes = reconciler.reconcile(reconciler.scopesOf(workloads, List.of(), lookup), lookup, facts);
        assertThat(outcomes).hasSize(1);
        if (memory != null) {
            memory.value = memory.value.with(outcomes.get(0).remembered());
        }
        return outcomes.get(0);
    }

    /** The gangs an outcome's steps restart whole. */
    private static List<DomainLossRestarts.Restart> restarts(Outcome outcome) {
        return outcome.steps().stream()
                .filter(PodGroupChanges.RestartGang.class::isInstance)
                .map(step -> ((PodGroupChanges.RestartGang) step).restart())
                .toList();
    }

    @Test
    void theWorkloadsGraceIsHonouredAndTheRestartIsPlannedOnceWithItsTimer() {
        var ledger = new DomainLossRestartsTest.Memory();
        var world = new DomainLossRestartsTest.World().lostN4();
        String yaml = deployment(", topobridge.io/on-domain-loss: restart, topobridge.io/domain-loss-grace: 10s");
        Outcome first = pass(yaml, world, ledger, Duration.ofMinutes(5), T0);
        assertThat(restarts(first)).isEmpty();
        assertThat(first.translation().podGroups().get(0).annotations())
                .containsEntry("topobridge.io/on-domain-loss", "restart")
                .containsEntry("topobridge.io/domain-loss-grace", "10s");
        // due again when the grace ends (plus the reconciler's margin)
        assertThat(first.requeueAfter()).isEqualTo(Duration.ofMillis(10_200));
        assertThat(first.findings()).anySatisfy(f -> assertThat(f.reason()).isEqualTo(RecoveryReason.DOMAIN_LOST));
        assertThat(restarts(pass(yaml, world, ledger, Duration.ofMinutes(5), T0.plusSeconds(9))))
                .isEmpty();
        Outcome due = pass(yaml, world, ledger, Duration.ofMinutes(5), T0.plusSeconds(10));
        assertThat(restarts(due))
                .singleElement()
                .satisfies(r -> assertThat(r.pods())
                        .extracting(DomainLossRestarts.Victim::name)
                        .containsExactly("g-0", "g-1", "g-2", "g-4"));
        assertThat(due.findings())
                .filteredOn(f -> f.reason() == RecoveryReason.GANG_RESTARTED)
                .extracting(f -> f.object().kind())
                .containsExactly("Deployment", "PodGroup");
        assertThat(restarts(pass(yaml, world, ledger, Duration.ofMinutes(5), T0.plusSeconds(11))))
                .isEmpty();
    }

    @Test
    void aPodTerminatingOnANodeDownWithNoReplacementIsSaidAndNeverRestarted() {
        var ledger = new DomainLossRestartsTest.Memory();
        var world = new DomainLossRestartsTest.World().evictedFromDownN4();
        String yaml = deployment(", topobridge.io/on-domain-loss: restart, topobridge.io/domain-loss-grace: 10s");
        for (int s : new int[] {0, 10, 60}) {
            Outcome outcome = pass(yaml, world, ledger, Duration.ofMinutes(5), T0.plusSeconds(s));
            assertThat(restarts(outcome)).as("at %d s", s).isEmpty();
            assertThat(outcome.findings())
                    .filteredOn(f -> f.reason() == RecoveryReason.REPLACEMENT_BLOCKED)
                    .extracting(f -> f.object().kind())
                    .containsExactly("Deployment", "PodGroup");
            assertThat(outcome.findings())
                    .filteredOn(f -> f.reason() == RecoveryReason.REPLACEMENT_BLOCKED)
                    .allSatisfy(f -> assertThat(f.message())
                            .contains("runs 3 of its 4 pods within p1")
                            .contains("g-3 Terminating on n4 (Ready=Unknown)")
                            .contains("kubectl delete pod --force"));
            assertThat(outcome.findings())
                    .noneMatch(f ->
                            f.reason() == RecoveryReason.DOMAIN_LOST || f.reason() == RecoveryReason.GANG_RESTARTED);
        }
    }

    @Test
    void withoutAGraceOfItsOwnTheConfiguredOneHolds() {
        var ledger = new DomainLossRestartsTest.Memory();
        var world = new DomainLossRestartsTest.World().lostN4();
        String yaml = deployment(", topobridge.io/on-domain-loss: restart");
        assertThat(restarts(pass(yaml, world, ledger, Duration.ofSeconds(30), T0)))
                .isEmpty();
        assertThat(restarts(pass(yaml, world, ledger, Duration.ofSeconds(30), T0.plusSeconds(29))))
                .isEmpty();
        assertThat(restarts(pass(yaml, world, ledger, Duration.ofSeconds(30), T0.plusSeconds(30))))
                .hasSize(1);
    }

    @Test
    void aBadValueWarnsAndTheGangIsStillMadeAndWaits() {
        var ledger = new DomainLossRestartsTest.Memory();
        var world = new DomainLossRestartsTest.World().lostN4();
        String yaml = deployment(", topobridge.io/on-domain-loss: sometimes, topobridge.io/domain-loss-grace: 1d");
        Outcome outcome = pass(yaml, world, ledger, Duration.ofSeconds(1), T0);
        assertThat(outcome.translation().podGroups()).hasSize(1);
        assertThat(outcome.translation().podGroups().get(0).annotations())
                .doesNotContainKeys("topobridge.io/on-domain-loss", "topobridge.io/domain-loss-grace");
        assertThat(outcome.findings())
                .filteredOn(f -> f.reason() == io.topobridge.core.workload.WorkloadReason.INVALID_ANNOTATION)
                .extracting(f -> f.message())
                .anySatisfy(m -> assertThat(m).contains("topobridge.io/on-domain-loss=\"sometimes\""))
                .anySatisfy(m -> assertThat(m).contains("topobridge.io/domain-loss-grace=\"1d\""));
        assertThat(restarts(pass(yaml, world, ledger, Duration.ofSeconds(1), T0.plusSeconds(3600))))
                .isEmpty();
    }

    @Test
    void renderWhichHasNoLedgerNeverRestarts() {
        var world = new DomainLossRestartsTest.World().lostN4();
        String yaml = deployment(", topobridge.io/on-domain-loss: restart, topobridge.io/domain-loss-grace: 1s");
        assertThat(restarts(pass(yaml, world, null, Duration.ofSeconds(1), T0))).isEmpty();
        assertThat(restarts(pass(yaml, world, null, Duration.ofSeconds(1), T0.plusSeconds(3600))))
                .isEmpty();
    }
}

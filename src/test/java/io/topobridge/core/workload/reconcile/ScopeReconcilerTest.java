package io.topobridge.core.workload.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.core.recovery.DomainLossRestarts;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.changes.QueueStates;
import io.topobridge.core.workload.changes.Reservations;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.volcano.model.NetworkTopologySpec;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one reconcile step on a fixed clock: what it writes, finds and when it wants to look again, for the waits
 * (a group's members, {@code auto}'s room), the bounds a tenant meets (gangs per workload, namespace reservations,
 * priority classes, name clashes) and namespace opt-in.
 */
class ScopeReconcilerTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    private static ScopeReconciler reconciler(
            WorkloadSettings workloads, ReconcileSettings settings, Reservations.Settings reservations, Instant now) {
        return new ScopeReconciler(
                new WorkloadTranslator(workloads, Kinds.adapters(), Clock.fixed(now, ZoneOffset.UTC)),
                settings,
                reservations);
    }

    private static PassFacts facts(Instant now, Amounts cluster) {
        return new PassFacts(Fixtures.TIERS, Fixtures.TIERS, cluster, QueueStates.UNKNOWN, now, ClusterFacts.NONE);
    }

    private static List<Outcome> reconcileAll(ScopeReconciler r, List<HasMetadata> objects, PassFacts facts) {
        return reconcileAll(r, objects, facts, io.topobridge.core.capacity.TierDomains.NONE);
    }

    private static List<Outcome> reconcileAll(
            ScopeReconciler r,
            List<HasMetadata> objects,
            PassFacts facts,
            io.topobridge.core.capacity.TierDomains domains) {
        var lookup = new InMemoryLookup(objects, domains);
        List<HasMetadata> workloads = objects.stream()
                .filter(o -> WorkloadKind.of(o.getApiVersion(), o.getKind()).isPresent())
                .toList();
        return r.reconcile(r.scopesOf(workloads, lookup.allPodGroups(), lookup), lookup, facts);
    }

    private static List<String> applied(List<Outcome> outcomes) {
        List<String> out = new ArrayList<>();
        outcomes.forEach(o -> o.steps().stream()
                .filter(PodGroupChanges.Apply.class::isInstance)
                .forEach(s -> out.add(s.name())));
        return out;
    }

    private static List<WorkloadReason> reasons(List<Outcome> outcomes) {
        List<WorkloadReason> out = new ArrayList<>();
        outcomes.forEach(o -> o.findings().stream()
                .map(Finding::reason)
                .filter(WorkloadReason.class::isInstance)
                .map(WorkloadReason.class::cast)
                .forEach(out::add));
        return out;
    }

    private static String groupMember(String name, String created) {
        return Fixtures.deploymentYaml(
                "ns",
                name,
                2,
                "creationTimestamp: \"" + created + "\"\n"
                        + "annotations: {topobridge.io/group: pd, topobridge.io/highest-tier: rack}",
                "containers: [{name: c, image: x, resources: {requests: {cpu: \"1\"}}}]");
    }

    static Stream<Arguments> groupAssembly() {
        // creation times are written to the second: the wait runs to 2 s after the oldest's second has passed
        return Stream.of(
                // seconds after the oldest member's creation, deferred?, requeue after (ms), or null
                Arguments.of("just created: waits the rest of the 3 s, and is due again then", 0.5, true, 2700L),
                Arguments.of("one second later", 1.0, true, 2200L),
                Arguments.of("two seconds later: the member may have come up to a second late", 2.0, true, 1200L),
                Arguments.of("the wait is over: its PodGroup is written", 3.0, false, null),
                Arguments.of("long after", 600.0, false, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groupAssembly")
    void aGroupsFirstPodGroupWaitsForItsMembersCountedFromTheOldestsCreation(
            String name, double after, boolean deferred, Long requeueMillis) {
        Instant now = T0.plusMillis((long) (after * 1000));
        var r = reconciler(
                Fixtures.defaultSettings(),
                new ReconcileSettings(
                        false, "topobridge.io/enabled", Duration.ofSeconds(2), DomainLossRestarts.Settings.DEFAULTS),
                TestSettings.NO_RESERVATION_LIMITS,
                now);
        var objects = Fixtures.objects(groupMember("prefill", T0.toString()) + "---\n"
                + groupMember("decode", T0.plusMillis(300).toString()));
        List<Outcome> outcomes = reconcileAll(r, objects, facts(now, null));
        assertThat(outcomes).hasSize(1);
        Outcome outcome = outcomes.get(0);
        assertThat(outcome.deferred()).isEqualTo(deferred);
        assertThat(
                        outcome.requeueAfter() == null
                                ? null
                                : outcome.requeueAfter().toMillis())
                .isEqualTo(requeueMillis);
        assertThat(applied(outcomes)).isEqualTo(deferred ? List.of() : List.of("tb-group-pd"));
    }

    /** The PodGroup of group {@code pd}, made by the bridge. */
    private static final String GROUP_POD_GROUP =
            Fixtures.bridgePodGroup("tb-group-pd", "ns", "Group/pd", "{minMember: 1}");

    @Test
    void aGroupWhosePodGroupExistsIsNotHeldAndMembersWithoutACreationTimeAreNotWaitedFor() {
        var r = reconciler(
                Fixtures.defaultSettings(),
                new ReconcileSettings(
                        false, "topobridge.io/enabled", Duration.ofSeconds(2), DomainLossRestarts.Settings.DEFAULTS),
                TestSettings.NO_RESERVATION_LIMITS,
                T0);
        String undated = groupMember("prefill", T0.toString()).replace("  creationTimestamp: \"" + T0 + "\"\n", "");
        assertThat(applied(reconcileAll(r, Fixtures.objects(undated), facts(T0, null))))
                .containsExactly("tb-group-pd");
        List<Outcome> outcomes = reconcileAll(
                r,
                Fixtures.objects(groupMember("prefill", T0.toString()) + "---\n" + GROUP_POD_GROUP),
                facts(T0, null));
        assertThat(outcomes.get(0).deferred()).isFalse();
        assertThat(applied(outcomes)).containsExactly("tb-group-pd");
    }

    private static String autoDeployment() {
        return autoDeployment("4");
    }

    /** Deployment {@code tp} of two pods of {@code gpus} GPUs each, its tier chosen by the bridge. */
    private static String autoDeployment(String gpus) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: tp
                  namespace: ns
                  uid: uid-tp
                  annotations: {topobridge.io/highest-tier: auto}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: tp}}
                  template:
                    metadata: {labels: {app: tp}}
                    spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1", nvidia.com/gpu: "%s"}}}]}
                """.formatted(gpus);
    }

    private static String autoPodGroup(Instant created) {
        return """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata:
                  name: tb-deploy-tp
                  namespace: ns
                  creationTimestamp: "%s"
                  labels: {app.kubernetes.io/managed-by: topobridge}
                  annotations: {topobridge.io/gang: Deployment/tp}
                spec: {minMember: 2}
                """.formatted(created);
    }

    static Stream<Arguments> roomWaits() {
        return Stream.of(
                Arguments.of("no PodGroup yet: due again when a new one's wait would end", null, 300_200L),
                Arguments.of("PodGroup made a minute ago", 60, 240_200L),
                Arguments.of("PodGroup made 5 minutes ago: the wait is over", 300, null),
                Arguments.of("PodGroup made an hour ago", 3600, null));
    }

    /** {@code auto}'s wait for room is measured from the PodGroup's creation: the scope is due again when it ends. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("roomWaits")
    void anAutoGangIsDueAgainWhenItsWaitForRoomEnds(String name, Integer createdSecondsAgo, Long requeueMillis) {
        var r = reconciler(
                Fixtures.settings().autoWaitForRoom(Duration.ofMinutes(5)).build(),
                TestSettings.OPEN,
                TestSettings.NO_RESERVATION_LIMITS,
                T0);
        String yaml = autoDeployment()
                + (createdSecondsAgo == null ? "" : "---\n" + autoPodGroup(T0.minusSeconds(createdSecondsAgo)));
        // every partition full: the chosen tier has no room today, so the gang waits for room there
        List<Outcome> outcomes = reconcileAll(
                r,
                Fixtures.objects(yaml),
                facts(T0, null),
                io.topobridge.core.workload.autotier.AutoTierTranslationTest.domains(0));
        Outcome outcome = outcomes.get(0);
        assertThat(applied(outcomes)).containsExactly("tb-deploy-tp");
        assertThat(
                        outcome.requeueAfter() == null
                                ? null
                                : outcome.requeueAfter().toMillis())
                .isEqualTo(requeueMillis);
    }

    /** The PodGroup the one scope of {@code outcomes} applies. */
    private static DesiredPodGroup wanted(List<Outcome> outcomes) {
        assertThat(outcomes).hasSize(1);
        return outcomes.get(0).steps().stream()
                .filter(PodGroupChanges.Apply.class::isInstance)
                .map(s -> ((PodGroupChanges.Apply) s).podGroup())
                .findFirst()
                .orElseThrow();
    }

    /**
     * An {@code auto} gang whose chosen tier has no room today is hard while it waits for room there, measured from its
     * PodGroup's creation on the pass's time, and soft once the wait is over: its PodGroup changes once, then not again.
     */
    @Test
    void anAutoGangWithoutRoomIsHardUntilItsWaitIsOverThenSoft() {
        WorkloadSettings tenMinutes =
                Fixtures.settings().autoWaitForRoom(Duration.ofMinutes(10)).build();
        // 2 pods of 2 GPUs: one NVLink partition (4 GPUs) holds them when empty, none has room today
        var full = io.topobridge.core.workload.autotier.AutoTierTranslationTest.domains(0);
        var made = Fixtures.objects(autoDeployment("2"));
        DesiredPodGroup created = wanted(reconcileAll(
                reconciler(tenMinutes, TestSettings.OPEN, TestSettings.NO_RESERVATION_LIMITS, T0),
                made,
                facts(T0, null),
                full));
        assertThat(created.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(1);
        assertThat(created.spec().getNetworkTopology().getMode()).isEqualTo(NetworkTopologySpec.ModeEnum.HARD);

        var existing = Fixtures.objects(autoDeployment("2") + "---\n" + autoPodGroup(T0));
        Instant nine = T0.plus(Duration.ofMinutes(9));
        DesiredPodGroup waiting = wanted(reconcileAll(
                reconciler(tenMinutes, TestSettings.OPEN, TestSettings.NO_RESERVATION_LIMITS, nine),
                existing,
                facts(nine, null),
                full));
        assertThat(waiting)
                .as("hard while it waits for room: 9 of 10 minutes; nothing to write")
                .isEqualTo(created);

        Instant over = T0.plus(Duration.ofMinutes(10)).plusSeconds(2);
        DesiredPodGroup soft = wanted(reconcileAll(
                reconciler(tenMinutes, TestSettings.OPEN, TestSettings.NO_RESERVATION_LIMITS, over),
                existing,
                facts(over, null),
                full));
        assertThat(soft.spec().getNetworkTopology().getMode())
                .as("soft once the wait is over")
                .isEqualTo(NetworkTopologySpec.ModeEnum.SOFT);
        Instant later = over.plusSeconds(60);
        assertThat(wanted(reconcileAll(
                        reconciler(tenMinutes, TestSettings.OPEN, TestSettings.NO_RESERVATION_LIMITS, later),
                        existing,
                        facts(later, null),
                        full)))
                .as("a pass after the wait wants the same: nothing to write")
                .isEqualTo(soft);
    }

    /** A member of group {@code pd}: a Deployment of one-GPU pods created at {@code created}. */
    private static String member(String name, int replicas, Instant created, String annotations) {
        return Fixtures.deploymentYaml(
                "ns",
                name,
                replicas,
                "creationTimestamp: \"" + created + "\"\nannotations: {" + annotations + "}",
                "containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: \"1\"}}}]");
    }

    /**
     * A group's first PodGroup waits for the members applied with it (3 s counted from the oldest's creation, written
     * to the second) and is then written once, with all of them; once it exists, a change is written at once.
     */
    @Test
    void aGroupsFirstPodGroupWaitsForTheMembersAppliedWithIt() {
        var threeSeconds = new ReconcileSettings(
                false, "topobridge.io/enabled", Duration.ofSeconds(3), DomainLossRestarts.Settings.DEFAULTS);
        String prefill = member("prefill", 3, T0, "topobridge.io/group: pd, topobridge.io/highest-tier: \"2\"");
        String decode = member("decode", 1, T0.plusMillis(1500), "topobridge.io/group: pd");
        Instant soon = T0.plusMillis(500);
        Outcome alone = reconcileAll(
                        reconciler(Fixtures.defaultSettings(), threeSeconds, TestSettings.NO_RESERVATION_LIMITS, soon),
                        Fixtures.objects(prefill),
                        facts(soon, null))
                .get(0);
        assertThat(alone.deferred())
                .as("nothing written while the group assembles")
                .isTrue();
        assertThat(alone.steps()).isEmpty();
        var both = Fixtures.objects(prefill + "---\n" + decode);
        Instant almost = T0.plusMillis(3900);
        assertThat(reconcileAll(
                                reconciler(
                                        Fixtures.defaultSettings(),
                                        threeSeconds,
                                        TestSettings.NO_RESERVATION_LIMITS,
                                        almost),
                                both,
                                facts(almost, null))
                        .get(0)
                        .deferred())
                .as("the first write waits for the assembly")
                .isTrue();
        Instant assembled = T0.plusSeconds(4);
        List<Outcome> outcomes = reconcileAll(
                reconciler(Fixtures.defaultSettings(), threeSeconds, TestSettings.NO_RESERVATION_LIMITS, assembled),
                both,
                facts(assembled, null));
        assertThat(applied(outcomes)).as("one write, with both members").containsExactly("tb-group-pd");
        DesiredPodGroup group = wanted(outcomes);
        assertThat(group.spec().getMinMember()).isEqualTo(4);
        assertThat(group.spec().getSubGroupPolicy())
                .extracting(p -> p.getName())
                .containsExactlyInAnyOrder("deploy-prefill", "deploy-decode");

        // once the group has its PodGroup, a change is written at once
        Instant scaled = T0.plusSeconds(2);
        List<Outcome> grown = reconcileAll(
                reconciler(Fixtures.defaultSettings(), threeSeconds, TestSettings.NO_RESERVATION_LIMITS, scaled),
                Fixtures.objects(prefill + "---\n" + member("decode", 2, T0.plusMillis(1500), "topobridge.io/group: pd")
                        + "---\n" + GROUP_POD_GROUP),
                facts(scaled, null));
        assertThat(grown.get(0).deferred())
                .as("no assembly wait for an existing group")
                .isFalse();
        assertThat(wanted(grown).spec().getMinMember()).isEqualTo(5);
    }

    private static String lws(String name, String namespace, long replicas) {
        return """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: %s
                  namespace: %s
                  uid: uid-%s
                  annotations: {topobridge.io/highest-tier: rack}
                spec:
                  replicas: %d
                  leaderWorkerTemplate:
                    size: 2
                    workerTemplate: {spec: {containers: [{name: w, image: x, resources: {requests: {cpu: "1"}}}]}}
                """.formatted(name, namespace, name, replicas);
    }

    /** One object with two million groups once ran translation out of memory; it is refused before any plan. */
    @Test
    void aWorkloadAskingForMillionsOfGangsIsRefusedAndItsNeighbourIsUnaffected() {
        var r = reconciler(Fixtures.defaultSettings(), TestSettings.OPEN, TestSettings.NO_RESERVATION_LIMITS, T0);
        var objects = Fixtures.objects(lws("huge", "ns", 2_000_000) + "---\n" + lws("small", "ns", 2));
        List<Outcome> outcomes =
                assertTimeoutPreemptively(Duration.ofSeconds(60), () -> reconcileAll(r, objects, facts(T0, null)));
        assertThat(applied(outcomes)).containsExactly("tb-lws-small-0", "tb-lws-small-1");
        Finding refusal = outcomes.stream()
                .flatMap(o -> o.findings().stream())
                .filter(f -> f.reason() == WorkloadReason.TOO_MANY_GANGS)
                .findFirst()
                .orElseThrow();
        assertThat(refusal.object().name()).isEqualTo("huge");
        assertThat(refusal.message())
                .contains("spec.replicas asks for 2000000 groups")
                .contains("at most 500")
                .contains("topobridge.workloads.max-gangs-per-workload");
    }

    /** A namespace that did not opt in costs a look at its annotations only, whatever its workloads' size. */
    @Test
    void aHugeWorkloadInANamespaceThatDidNotOptInIsNotPlannedAtAll() {
        var r = reconciler(
                Fixtures.settings().maxGangsPerWorkload(Integer.MAX_VALUE).build(),
                TestSettings.defaults(),
                TestSettings.NO_RESERVATION_LIMITS,
                T0);
        var objects = Fixtures.objects(lws("huge", "outside", 2_000_000)
                + "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: outside}\n");
        List<Outcome> outcomes =
                assertTimeoutPreemptively(Duration.ofSeconds(60), () -> reconcileAll(r, objects, facts(T0, null)));
        assertThat(reasons(outcomes)).containsExactly(WorkloadReason.NAMESPACE_NOT_OPTED_IN);
        assertThat(applied(outcomes)).isEmpty();
    }

    private static String gpuDeployment(String name, String namespace, int replicas, String priorityClass) {
        return Fixtures.deploymentYaml(
                namespace,
                name,
                replicas,
                "annotations: {topobridge.io/highest-tier: rack}",
                (priorityClass == null ? "" : "priorityClassName: " + priorityClass + "\n")
                        + "containers: [{name: c, image: x, resources: {requests: {cpu: \"1\", nvidia.com/gpu: \"8\"}}}]");
    }

    private static final String GPU_QUOTA = """
            apiVersion: v1
            kind: ResourceQuota
            metadata: {name: gpus, namespace: team}
            spec: {hard: {requests.nvidia.com/gpu: "16", pods: "100"}}
            """;

    @Test
    void aNamespacesPodGroupsReserveNoMoreTogetherThanItsResourceQuota() {
        var r = reconciler(Fixtures.defaultSettings(), TestSettings.OPEN, TestSettings.NO_RESERVATION_LIMITS, T0);
        var objects = Fixtures.objects(gpuDeployment("a", "team", 1, null) + "---\n"
                + gpuDeployment("b", "team", 1, null) + "---\n"
                + gpuDeployment("c", "team", 1, null) + "---\n"
                + GPU_QUOTA);
        List<Outcome> outcomes = reconcileAll(r, objects, facts(T0, null));
        // 8 + 8 fit in 16; the third gang would make 24
        assertThat(applied(outcomes)).containsExactly("tb-deploy-a", "tb-deploy-b");
        Finding refusal = outcomes.stream()
                .flatMap(o -> o.findings().stream())
                .filter(f -> f.reason() == WorkloadReason.NAMESPACE_RESERVATION_EXCEEDED)
                .findFirst()
                .orElseThrow();
        assertThat(refusal.isRejection()).isTrue();
        assertThat(refusal.object().name()).isEqualTo("c");
        assertThat(refusal.message()).contains("nvidia.com/gpu 24 > 16 (ResourceQuota team/gpus)");
    }

    @Test
    void aNamespaceWithoutQuotaMayReserveAtMostItsShareOfTheCluster() {
        var r = reconciler(
                Fixtures.defaultSettings(),
                TestSettings.OPEN,
                new Reservations.Settings(new BigDecimal("0.5"), Map.of()),
                T0);
        List<HasMetadata> objects = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            objects.addAll(Fixtures.objects(gpuDeployment("g" + i, "team", 1, null)));
        }
        Amounts cluster = new Amounts(Map.of("nvidia.com/gpu", BigDecimal.valueOf(64), "cpu", BigDecimal.valueOf(512)));
        List<Outcome> outcomes = reconcileAll(r, objects, facts(T0, cluster));
        // 32 GPUs: four gangs of 8
        assertThat(applied(outcomes)).hasSize(4);
        assertThat(reasons(outcomes))
                .filteredOn(x -> x == WorkloadReason.NAMESPACE_RESERVATION_EXCEEDED)
                .hasSize(2);
    }

    @Test
    void aPriorityClassTheNamespaceMayNotUseGetsNoPodGroup() {
        var r = reconciler(Fixtures.defaultSettings(), TestSettings.OPEN, TestSettings.NO_RESERVATION_LIMITS, T0);
        String noCritical = """
                apiVersion: v1
                kind: ResourceQuota
                metadata: {name: no-critical, namespace: team}
                spec:
                  hard: {pods: "0"}
                  scopeSelector:
                    matchExpressions: [{scopeName: PriorityClass, operator: In, values: [critical]}]
                """;
        var objects = Fixtures.objects(gpuDeployment("urgent", "team", 2, "critical") + "---\n"
                + gpuDeployment("normal", "team", 2, "standard") + "---\n" + noCritical);
        List<Outcome> outcomes = reconcileAll(r, objects, facts(T0, null));
        assertThat(applied(outcomes)).containsExactly("tb-deploy-normal");
        Finding refusal = outcomes.stream()
                .flatMap(o -> o.findings().stream())
                .filter(f -> f.reason() == WorkloadReason.PRIORITY_CLASS_NOT_ALLOWED)
                .findFirst()
                .orElseThrow();
        assertThat(refusal.object().name()).isEqualTo("urgent");
        assertThat(refusal.message()).contains("\"critical\"").contains("pods 2 > 0 (ResourceQuota team/no-critical)");
    }

    @Test
    void aPodGroupThatBelongsToAnotherScopeIsNeitherTakenOverNorDeleted() {
        var r = reconciler(Fixtures.defaultSettings(), TestSettings.OPEN, TestSettings.NO_RESERVATION_LIMITS, T0);
        // a PodGroup of the bridge's that names another gang, under the name this Deployment's gang would get
        String theirs = Fixtures.bridgePodGroup("tb-deploy-a", "team", "Deployment/other", "{minMember: 1}");
        var objects = Fixtures.objects(gpuDeployment("a", "team", 1, null) + "---\n" + theirs);
        List<Outcome> outcomes = r.reconcile(
                List.of(new GangScope.Single(WorkloadKind.DEPLOYMENT, "team", "a")),
                new InMemoryLookup(objects),
                facts(T0, null));
        assertThat(outcomes.get(0).steps())
                .as("neither written over nor deleted")
                .isEmpty();
        Finding clash = outcomes.stream()
                .flatMap(o -> o.findings().stream())
                .filter(f -> f.reason() == WorkloadReason.NAME_TAKEN)
                .findFirst()
                .orElseThrow();
        assertThat(clash.message()).contains("belongs to team/Deployment/other").contains("team/Deployment/a");
    }

    @Test
    void reconcilingTwiceOverTheSameInputDecidesTheSame() {
        var r = reconciler(Fixtures.defaultSettings(), TestSettings.defaults(), TestSettings.DEFAULT_RESERVATIONS, T0);
        var objects = Fixtures.objects(
                gpuDeployment("a", "team", 2, null) + "---\n" + GPU_QUOTA + "---\n" + lws("l", "team", 3)
                        + "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n  labels: {topobridge.io/enabled: \"true\"}\n");
        var first = reconcileAll(r, objects, facts(T0, null));
        var second = reconcileAll(r, objects, facts(T0, null));
        assertThat(second).isEqualTo(first);
        assertThat(GangScope.parse("team", "Deployment/a")).isPresent();
    }
}

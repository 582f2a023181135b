package io.topobridge.core.workload.autotier;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Cluster;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.changes.ObservedPodGroup;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.changes.PodGroupChanges.Bounds;
import io.topobridge.core.workload.changes.QueueStates;
import io.topobridge.core.workload.changes.TestPlans;
import io.topobridge.core.workload.translate.ScopeResult;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A gang held to a tier, judged against the domains of that tier as the controller, admission and {@code render}
 * translate it: the Deployment of 20 tensor-parallel replicas of 4 GPUs held to {@code nvlink} on GB200 NVL72
 * racks (72 GPUs a domain) can never start, so it is refused; soft, it is warned about and made.
 */
class TierFitTest {

    /** Tier 1 (nvlink): two NVL72 racks of 72 GPUs; tier 2 (rack): one domain holding both. */
    private static final TierDomains NVL72 = Cluster.nvl72();

    private static final GangScope TP = new GangScope.Single(WorkloadKind.DEPLOYMENT, "llm", "tp");

    private static String tp(int replicas, Map<String, String> annotations) {
        return DeploymentWrapper.make("tp", "llm")
                .uid("uid-tp")
                .replicas(replicas)
                .annotations(annotations)
                .cpu("8")
                .gpus(4)
                .yaml();
    }

    private static ScopeResult translate(String yaml, TierDomains domains) {
        var lookup = Fixtures.lookup(Fixtures.objects(yaml)).withDomains(() -> domains);
        return Fixtures.translator()
                .translateScopes(List.of(TP), Fixtures.TIERS, lookup)
                .get(0);
    }

    @Test
    void twentyReplicasOfFourGpusHeldToNvlinkAreRefusedOnNvl72Racks() {
        ScopeResult result = translate(tp(20, Map.of("topobridge.io/highest-tier", "nvlink")), NVL72);

        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.GANG_EXCEEDS_DOMAIN);
            assertThat(f.reason().reason()).isEqualTo("GangExceedsDomain");
            assertThat(f.severity()).isEqualTo(Severity.REJECTED);
            assertThat(f.message())
                    .isEqualTo("Deployment/llm/tp: PodGroup tb-deploy-tp needs 80 GPUs within one domain of its"
                            + " hard tier 1 (nvlink), more than any domain of that tier holds even empty: the largest,"
                            + " nvl72-a, holds 72 GPUs; tier 2 (rack) would hold it; it could never start, so it is not made (raise the tier, make it soft or the"
                            + " gang smaller)");
        });
        // the controller's planner writes nothing for it
        PodGroupChanges.Plan plan = TestPlans.plan(result, List.of(), QueueStates.UNKNOWN);
        assertThat(plan.steps()).isEmpty();
        assertThat(plan.findings()).extracting(Finding::reason).containsExactly(WorkloadReason.GANG_EXCEEDS_DOMAIN);
    }

    @Test
    void aPodOfTheRefusedGangIsStillTiedToItsPodGroupToWaitInTheGang() {
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: tp-7c9f5d8b6-x2x9k
                  namespace: llm
                  labels: {app: tp, pod-template-hash: 7c9f5d8b6}
                  ownerReferences:
                  - {apiVersion: apps/v1, kind: ReplicaSet, name: tp-7c9f5d8b6, uid: rs-1, controller: true}
                spec:
                  schedulerName: volcano
                  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "4"}}}]
                """;
        var lookup = Fixtures.lookup(Fixtures.objects(tp(20, Map.of("topobridge.io/highest-tier", "nvlink"))))
                .withDomains(() -> NVL72);
        assertThat(Fixtures.translator()
                        .tie(Fixtures.pod(pod), Fixtures.TIERS, lookup)
                        .assigned())
                .hasValueSatisfying(a -> assertThat(a.podGroupName()).isEqualTo("tb-deploy-tp"));
    }

    @Test
    void eighteenReplicasFillOneRackAndPass() {
        ScopeResult result = translate(tp(18, Map.of("topobridge.io/highest-tier", "nvlink")), NVL72);
        assertThat(result.podGroups()).hasSize(1);
        assertThat(result.findings()).isEmpty();
    }

    @Test
    void aSoftGangTooBigForEveryDomainIsWarnedAboutAndMade() {
        ScopeResult result =
                translate(tp(20, Map.of("topobridge.io/highest-tier", "nvlink", "topobridge.io/mode", "soft")), NVL72);
        assertThat(result.podGroups()).hasSize(1);
        assertThat(result.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.GANG_EXCEEDS_DOMAIN);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.message())
                    .contains("within one domain of its soft tier 1 (nvlink), more than any domain of that tier")
                    .endsWith("; tier 2 (rack) would hold it; Volcano will place it across domains of that tier");
        });
        assertThat(TestPlans.plan(result, List.of(), QueueStates.UNKNOWN).steps())
                .singleElement()
                .isInstanceOf(PodGroupChanges.Apply.class);
    }

    @Test
    void nothingIsJudgedWhileNoDomainIsKnown() {
        ScopeResult result = translate(tp(20, Map.of("topobridge.io/highest-tier", "nvlink")), TierDomains.NONE);
        assertThat(result.podGroups()).hasSize(1);
        assertThat(result.findings()).isEmpty();
    }

    @Test
    void aGangLargerThanEveryNodeTogetherIsLeftToGangExceedsCluster() {
        // 160 GPUs: more than the 144 of both racks together
        ScopeResult result = translate(tp(40, Map.of("topobridge.io/highest-tier", "nvlink")), NVL72);
        assertThat(result.findings()).isEmpty();
        var bounds = new Bounds(
                Amounts.parse(Map.of("nvidia.com/gpu", "144", "cpu", "5184")),
                Integer.MAX_VALUE,
                TestPlans.NO_RESERVATIONS);
        PodGroupChanges.Plan plan =
                PodGroupChanges.plan(result, List.of(), QueueStates.UNKNOWN, Map.of(), null, bounds);
        assertThat(plan.steps()).isEmpty();
        assertThat(plan.findings()).extracting(Finding::reason).containsExactly(WorkloadReason.GANG_EXCEEDS_CLUSTER);
    }

    @Test
    void anExistingPodGroupIsKeptAsItWasAndNewPodsStillJoinIt() {
        String yaml = tp(20, Map.of("topobridge.io/highest-tier", "nvlink"));
        String existing = Fixtures.bridgePodGroup(
                "tb-deploy-tp", "llm", "Deployment/tp", "{minMember: 18, minResources: {nvidia.com/gpu: \"72\"}}");
        List<HasMetadata> objects = new ArrayList<>(Fixtures.objects(yaml + "---\n" + existing));
        var lookup = Fixtures.lookup(objects).withDomains(() -> NVL72);
        ScopeResult result = Fixtures.translator()
                .translateScopes(List.of(TP), Fixtures.TIERS, lookup)
                .get(0);
        assertThat(result.findings())
                .singleElement()
                .extracting(Finding::message)
                .asString()
                .contains("it could never start, so the PodGroup is kept as it was");
        List<ObservedPodGroup> observed = new ArrayList<>();
        objects.stream()
                .filter(o -> "PodGroup".equals(o.getKind()))
                .forEach(pg -> observed.add(ObservedPodGroup.of(pg, true, false, TP)));
        assertThat(TestPlans.plan(result, observed, QueueStates.UNKNOWN).steps())
                .as("neither applied nor deleted")
                .isEmpty();
    }

    @Test
    void aSubgroupLargerThanEveryDomainOfItsTierIsRefused() {
        // prefill (20 pods of 4 GPUs) and decode (2 pods) form one gang; each held to one NVLink domain, the gang to a
        // rack: the gang's 88 GPUs fit the rack tier, the prefill subgroup's 80 no NVLink domain
        Map<String, String> group = Map.of(
                "topobridge.io/group", "pd",
                "topobridge.io/highest-tier", "rack",
                "topobridge.io/subgroup-highest-tier", "nvlink");
        String prefill = DeploymentWrapper.make("prefill", "llm")
                .uid("uid-prefill")
                .replicas(20)
                .annotations(group)
                .cpu("8")
                .gpus(4)
                .yaml();
        String decode = DeploymentWrapper.make("decode", "llm")
                .uid("uid-decode")
                .replicas(2)
                .annotations(group)
                .cpu("8")
                .gpus(4)
                .yaml();
        var lookup =
                Fixtures.lookup(Fixtures.objects(prefill + "---\n" + decode)).withDomains(() -> NVL72);
        ScopeResult result = Fixtures.translator()
                .translateScopes(List.of(new GangScope.Group("llm", "pd")), Fixtures.TIERS, lookup)
                .get(0);
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings()).hasSize(2).allSatisfy(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.GANG_EXCEEDS_DOMAIN);
            assertThat(f.severity()).isEqualTo(Severity.REJECTED);
            assertThat(f.message())
                    .contains("the largest subgroup of PodGroup tb-group-pd needs 80 GPUs"
                            + " within one domain of its hard subgroup tier 1 (nvlink)")
                    .contains("(raise the subgroup tier, make it soft or the gang smaller)");
        });
    }
}

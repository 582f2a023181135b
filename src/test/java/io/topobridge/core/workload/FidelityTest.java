package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.volcano.model.SubGroupPolicySpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the real Volcano, LWS and AIBrix do with the PodGroups, translated into rules: a gang waits only for pods its
 * controller creates before any runs, subgroups never wait for pods that do not exist yet, topology that would not
 * be enforced is said so, and a partial gang keeps every role.
 */
class FidelityTest {

    private static TranslationResult translate(List<HasMetadata> objects) {
        return TranslationResult.of(Fixtures.translator(), objects, Fixtures.TIERS, Fixtures.lookup(objects));
    }

    private static DesiredPodGroup only(TranslationResult result) {
        assertThat(result.podGroups()).as(result.findings().toString()).hasSize(1);
        return result.podGroups().get(0);
    }

    private static List<WorkloadReason> reasons(TranslationResult result) {
        return result.findings().stream().map(f -> (WorkloadReason) f.reason()).toList();
    }

    private static final String POD =
            "{spec: {containers: [{name: c, image: x, resources: {requests: {cpu: \"1\"}}}]}}";

    /** The StatefulSet ns/db of three {@link #POD}s with one annotation; {@code policy} null leaves it OrderedReady. */
    private static List<HasMetadata> db(String annotation, String podManagementPolicy) {
        String policy = podManagementPolicy == null ? "" : "podManagementPolicy: " + podManagementPolicy + ", ";
        return Fixtures.objects("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: ns, uid: u1, annotations: {%s}}
                spec: {replicas: 3, %sserviceName: db, selector: {matchLabels: {app: db}}, template: %s}
                """.formatted(annotation, policy, POD));
    }

    @Test
    void orderedReadyStatefulSetStartsWithOnePodAndSaysSo() {
        var ordered = translate(db("topobridge.io/highest-tier: \"1\"", null));
        assertThat(only(ordered).spec().getMinMember()).isEqualTo(1);
        assertThat(only(ordered).spec().getMinResources()).containsEntry("cpu", "3");
        assertThat(reasons(ordered)).containsExactly(WorkloadReason.ORDERED_READY_START);

        var parallel = translate(db("topobridge.io/highest-tier: \"1\"", "Parallel"));
        assertThat(only(parallel).spec().getMinMember()).isEqualTo(3);
        assertThat(parallel.findings()).isEmpty();
    }

    @Test
    void minMemberAboveThePodsThatExistAtStartIsRefused() {
        var result = translate(db("topobridge.io/min-member: \"2\"", null));
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings()).anySatisfy(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.INVALID_ANNOTATION);
            assertThat(f.message()).contains("1 of its 3 pods that exist before it starts");
        });
    }

    private static final String LWS = """
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata: {name: lr, namespace: ns, uid: u2, annotations: {topobridge.io/highest-tier: "1"}}
            spec:
              replicas: 1
              startupPolicy: LeaderReady
              leaderWorkerTemplate: {size: %d, %s workerTemplate: %s}
            """;

    private static LabelSelectorRequirement notLeader() {
        return new LabelSelectorRequirement("leaderworkerset.sigs.k8s.io/worker-index", "NotIn", List.of("0"));
    }

    @Test
    void leaderReadyWorkersAreOneAllOrNothingSubgroupWithoutTheLeader() {
        DesiredPodGroup pg = only(translate(Fixtures.objects(LWS.formatted(4, "", POD))));
        assertThat(pg.spec().getMinMember()).as("the leader starts alone").isEqualTo(1);
        assertThat(pg.spec().getMinResources()).as("room for the whole group").containsEntry("cpu", "4");
        assertThat(pg.spec().getSubGroupPolicy()).singleElement().satisfies(p -> {
            assertThat(p.getName()).isEqualTo("workers");
            assertThat(p.getSubGroupSize()).isEqualTo(3);
            assertThat(p.getLabelSelector().getMatchExpressions()).containsExactly(notLeader());
        });
    }

    @Test
    void leaderReadyKeepsTheLeaderOutOfTheLwsOwnSubgroups() {
        // size 4, subgroups of 2: LWS puts the leader and worker 1 in subgroup 0, workers 2 and 3 in subgroup 1
        List<SubGroupPolicySpec> policies = only(translate(
                        Fixtures.objects(LWS.formatted(4, "subGroupPolicy: {subGroupSize: 2},", POD))))
                .spec()
                .getSubGroupPolicy();
        assertThat(policies).extracting(SubGroupPolicySpec::getName).containsExactly("lws-subgroup-0", "lws-subgroup");
        assertThat(policies.get(0).getSubGroupSize()).isEqualTo(1);
        assertThat(policies.get(0).getLabelSelector().getMatchLabels())
                .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-index", "0");
        assertThat(policies)
                .allSatisfy(p ->
                        assertThat(p.getLabelSelector().getMatchExpressions()).contains(notLeader()));
        assertThat(policies.get(1).getSubGroupSize()).isEqualTo(2);

        // size 5, subgroups of 2: the leader is the extra pod of subgroup 0, every subgroup has 2 workers
        List<SubGroupPolicySpec> extra = only(translate(
                        Fixtures.objects(LWS.formatted(5, "subGroupPolicy: {subGroupSize: 2},", POD))))
                .spec()
                .getSubGroupPolicy();
        assertThat(extra).singleElement().satisfies(p -> {
            assertThat(p.getSubGroupSize()).isEqualTo(2);
            assertThat(p.getLabelSelector().getMatchExpressions()).contains(notLeader());
        });
    }

    @Test
    void leaderReadyRolesOfASetAndLwsInAGroupCountOnlyTheirLeaders() {
        var ds = only(translate(Fixtures.objects("""
                apiVersion: disaggregatedset.x-k8s.io/v1
                kind: DisaggregatedSet
                metadata: {name: pd, namespace: ns, uid: u3, annotations: {topobridge.io/highest-tier: "2"}}
                spec:
                  roles:
                  - name: prefill
                    spec: {replicas: 2, leaderWorkerTemplate: {size: 1, workerTemplate: %1$s}}
                  - name: decode
                    spec: {replicas: 1, startupPolicy: LeaderReady, leaderWorkerTemplate: {size: 3, workerTemplate: %1$s}}
                """.formatted(POD))));
        assertThat(ds.spec().getMinMember())
                .as("2 prefill pods and the decode leader")
                .isEqualTo(3);
        assertThat(ds.spec().getSubGroupPolicy())
                .filteredOn(p -> p.getName().equals("decode"))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.getSubGroupSize()).isEqualTo(2);
                    assertThat(p.getLabelSelector().getMatchExpressions()).contains(notLeader());
                });

        var group = only(translate(Fixtures.objects(WorkloadTranslatorTest.deployment(
                        "ns", "router", 1, Map.of("topobridge.io/group", "pair", "topobridge.io/highest-tier", "2"))
                + "---\n" + """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: engine, namespace: ns, uid: u4, annotations: {topobridge.io/group: pair}}
                spec: {replicas: 2, startupPolicy: LeaderReady, leaderWorkerTemplate: {size: 3, workerTemplate: %s}}
                """.formatted(POD))));
        assertThat(group.spec().getMinMember()).as("the router and 2 leaders").isEqualTo(3);
        assertThat(group.spec().getSubGroupPolicy())
                .filteredOn(p -> p.getName().equals("lws-engine"))
                .singleElement()
                .satisfies(p -> assertThat(p.getSubGroupSize()).isEqualTo(2));
    }

    @Test
    void surgeGroupsOfARollingLwsGetPodGroups() {
        var objects = Fixtures.objects("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: s, namespace: ns, uid: u5, annotations: {topobridge.io/highest-tier: "1"}}
                spec:
                  replicas: 2
                  rolloutStrategy: {type: RollingUpdate, rollingUpdateConfiguration: {maxSurge: 1, maxUnavailable: 0}}
                  leaderWorkerTemplate: {size: 2, workerTemplate: %s}
                ---
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: s
                  namespace: ns
                  uid: u6
                  labels: {leaderworkerset.sigs.k8s.io/name: s}
                  ownerReferences: [{apiVersion: leaderworkerset.x-k8s.io/v1, kind: LeaderWorkerSet, name: s, uid: u5,
                                     controller: true}]
                spec: {replicas: 3, serviceName: s, selector: {matchLabels: {a: b}}, template: %s}
                """.formatted(POD, POD));
        TranslationResult result = translate(objects);
        assertThat(result.podGroups())
                .extracting(DesiredPodGroup::name)
                .containsExactly("tb-lws-s-0", "tb-lws-s-1", "tb-lws-s-2");
        assertThat(reasons(result)).contains(WorkloadReason.ROLLOUT_NEEDS_ROOM);
    }

    private static String deployment(String name, int replicas, String annotations) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: %1$s, namespace: ns, uid: u-%1$s, annotations: {%3$s}}
                spec: {replicas: %2$d, selector: {matchLabels: {app: %1$s}}, template: %4$s}
                """.formatted(name, replicas, annotations, POD);
    }

    @Test
    void kubernetesDefaultRolloutTakesNothingDownForOneToThreeReplicas() {
        for (int replicas = 1; replicas <= 5; replicas++) {
            var result = translate(Fixtures.objects(deployment("web", replicas, "topobridge.io/highest-tier: \"1\"")));
            // 25 % of the replicas, rounded down, may be down: none below four
            assertThat(reasons(result).contains(WorkloadReason.ROLLOUT_NEEDS_ROOM))
                    .as("RolloutNeedsRoom for %d replicas", replicas)
                    .isEqualTo(replicas < 4);
        }
        var soft = translate(
                Fixtures.objects(deployment("web", 2, "topobridge.io/highest-tier: \"1\", topobridge.io/mode: soft")));
        assertThat(reasons(soft))
                .as("a soft tier lets the rollout go elsewhere")
                .isEmpty();
    }

    @Test
    void aGroupMemberIsOneSubgroupByDesignAndGetsNoWholeRoleWarning() {
        String group = "topobridge.io/group: pd, topobridge.io/highest-tier: \"2\", "
                + "topobridge.io/subgroup-highest-tier: \"1\"";
        var result =
                translate(Fixtures.objects(deployment("prefill", 2, group) + "---\n" + deployment("decode", 2, group)));
        assertThat(only(result).spec().getSubGroupPolicy()).hasSize(2);
        assertThat(reasons(result)).doesNotContain(WorkloadReason.SUBGROUP_IS_WHOLE_ROLE);
    }

    @Test
    void aGroupIdentityLwsDoesNotHaveIsRefused() {
        var result = translate(Fixtures.objects("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: h, namespace: ns, uid: u7, annotations: {topobridge.io/highest-tier: "1"}}
                spec: {replicas: 1, groupIdentity: Sequential, leaderWorkerTemplate: {size: 2, workerTemplate: %s}}
                """.formatted(POD)));
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.UNSUPPORTED_LEADER_WORKER_SET);
            assertThat(f.isRejection()).isTrue();
        });
    }

    private static final String STORM = """
            apiVersion: orchestration.aibrix.ai/v1alpha1
            kind: RoleSet
            metadata:
              name: rs
              namespace: ns
              uid: u8
              annotations: {topobridge.io/highest-tier: "2", topobridge.io/subgroup-highest-tier: "1"%s}
            spec:
              roles:
              - {name: routing, replicas: 1, template: {spec: {containers: [{name: c, image: x}]}}}
              - {name: prefill, replicas: 2, template: %s}
              - {name: decode, replicas: 1, podGroupSize: 2, template: %s}
            """;

    @Test
    void bestEffortAndWholeRoleSubgroupsAreSaidAndBestEffortOnesGetNoTier() {
        var result = translate(Fixtures.objects(STORM.formatted("", POD, POD)));
        DesiredPodGroup pg = only(result);
        assertThat(pg.spec().getSubGroupPolicy())
                .filteredOn(p -> p.getName().equals("routing"))
                .singleElement()
                .satisfies(p -> assertThat(p.getNetworkTopology()).isNull());
        assertThat(pg.spec().getSubGroupPolicy())
                .filteredOn(p -> !p.getName().equals("routing"))
                .allSatisfy(p -> assertThat(p.getNetworkTopology()).isNotNull());
        assertThat(result.findings())
                .extracting(Finding::reason)
                .containsExactlyInAnyOrder(
                        WorkloadReason.BEST_EFFORT_IGNORES_TOPOLOGY, WorkloadReason.SUBGROUP_IS_WHOLE_ROLE);
        assertThat(result.findings())
                .filteredOn(f -> f.reason() == WorkloadReason.SUBGROUP_IS_WHOLE_ROLE)
                .singleElement()
                .satisfies(f -> assertThat(f.message()).contains("role prefill has 2 single-pod instances"));
    }

    @Test
    void minMemberBelowTheGangKeepsOnePodOfEveryRole() {
        DesiredPodGroup pg =
                only(translate(Fixtures.objects(STORM.formatted(", topobridge.io/min-member: \"2\"", POD, POD))));
        assertThat(pg.spec().getMinMember()).isEqualTo(2);
        assertThat(pg.spec().getMinTaskMember())
                .containsOnlyKeys("routing", "prefill", "decode")
                .allSatisfy((task, floor) -> assertThat(floor).isEqualTo(1));
        DesiredPodGroup whole = only(translate(Fixtures.objects(STORM.formatted("", POD, POD))));
        assertThat(whole.spec().getMinTaskMember())
                .as("the whole gang needs no floor")
                .isNull();
    }
}

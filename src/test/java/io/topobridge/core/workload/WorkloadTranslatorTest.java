package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.workload.translate.TranslationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Translation rules beyond the golden cases: rejections stay local, sizes, owners, coexistence. */
class WorkloadTranslatorTest {

    static String deployment(String ns, String name, int replicas, Map<String, String> annotations) {
        return Fixtures.deployment(ns, name, replicas, annotations);
    }

    private static TranslationResult translate(List<HasMetadata> objects) {
        return TranslationResult.of(Fixtures.translator(), objects, Fixtures.TIERS, Fixtures.lookup(objects));
    }

    private static List<String> names(TranslationResult result) {
        return result.podGroups().stream().map(DesiredPodGroup::name).toList();
    }

    static Stream<Arguments> badAnnotations() {
        return Stream.of(
                Arguments.of("unknown tier name", Map.of("topobridge.io/highest-tier", "core")),
                Arguments.of("tier above the top", Map.of("topobridge.io/highest-tier", "7")),
                Arguments.of("bad mode", Map.of("topobridge.io/highest-tier", "1", "topobridge.io/mode", "firm")),
                Arguments.of("non-number min-member", Map.of("topobridge.io/min-member", "many")),
                Arguments.of(
                        "conflicting keys",
                        Map.of("topobridge.io/highest-tier", "1", "volcano.sh/network-topology-highest-tier", "2")),
                Arguments.of("min-member above the gang", Map.of("topobridge.io/min-member", "3")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badAnnotations")
    void badWorkloadGetsNoPodGroupAndItsNeighbourIsUnaffected(String name, Map<String, String> annotations) {
        var objects = Fixtures.objects(deployment("ns", "bad", 2, annotations) + "---\n"
                + deployment("ns", "good", 2, Map.of("topobridge.io/highest-tier", "rack")));
        TranslationResult result = translate(objects);
        assertThat(names(result)).as(name).containsExactly("tb-deploy-good");
        assertThat(result.findings()).as(name).isNotEmpty().allSatisfy(f -> {
            assertThat(f.object().name()).isEqualTo("bad");
            assertThat(f.severity()).isEqualTo(Severity.REJECTED);
            assertThat(f.message()).startsWith("Deployment/ns/bad: ");
        });
        DesiredPodGroup good = result.podGroups().get(0);
        assertThat(good.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(2);
        assertThat(good.spec().getMinMember()).isEqualTo(2);
    }

    @Test
    void unannotatedWorkloadsAreLeftAlone() {
        TranslationResult result = translate(Fixtures.objects(deployment("ns", "plain", 3, Map.of())));
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings()).isEmpty();
    }

    @Test
    void minMemberOverrideWithinTheGang() {
        TranslationResult result =
                translate(Fixtures.objects(deployment("ns", "d", 6, Map.of("topobridge.io/min-member", "4"))));
        assertThat(result.podGroups()).singleElement().satisfies(pg -> {
            assertThat(pg.spec().getMinMember()).isEqualTo(4);
            assertThat(pg.spec().getMinResources()).containsEntry("cpu", "6").containsEntry("nvidia.com/gpu", "6");
            assertThat(pg.spec().getNetworkTopology()).isNull();
        });
    }

    @Test
    void scaledToZeroHasNoPodGroup() {
        assertThat(translate(Fixtures.objects(deployment("ns", "d", 0, Map.of("topobridge.io/highest-tier", "1"))))
                        .podGroups())
                .isEmpty();
    }

    @Test
    void subgroupSettingsOnAGangWithoutSubgroupsWarn() {
        TranslationResult result = translate(Fixtures.objects(deployment(
                "ns", "d", 2, Map.of("topobridge.io/highest-tier", "2", "topobridge.io/subgroup-highest-tier", "1"))));
        assertThat(result.podGroups()).hasSize(1);
        assertThat(result.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.SUBGROUP_SETTINGS_IGNORED);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
        });
    }

    @Test
    void groupMemberRefusalLeavesTheGroupWithoutPodGroupAndTellsEveryMember() {
        var objects = Fixtures.objects(deployment(
                        "ns", "prefill", 2, Map.of("topobridge.io/group", "pd", "topobridge.io/highest-tier", "wrong"))
                + "---\n"
                + deployment("ns", "decode", 1, Map.of("topobridge.io/group", "pd")));
        TranslationResult result = translate(objects);
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings())
                .extracting(f -> f.object().name() + ":" + f.reason().reason())
                .containsExactlyInAnyOrder("prefill:InvalidAnnotation", "decode:GroupRejected");
    }

    @Test
    void groupMembersDisagreeingIsAConflictOnBoth() {
        var objects = Fixtures.objects(deployment(
                        "ns", "prefill", 2, Map.of("topobridge.io/group", "pd", "topobridge.io/highest-tier", "1"))
                + "---\n"
                + deployment(
                        "ns", "decode", 1, Map.of("topobridge.io/group", "pd", "topobridge.io/highest-tier", "2")));
        TranslationResult result = translate(objects);
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings())
                .filteredOn(f -> f.reason() == WorkloadReason.CONFLICTING_ANNOTATIONS)
                .extracting(f -> f.object().name())
                .containsExactlyInAnyOrder("prefill", "decode");
    }

    @Test
    void groupListsEveryMemberAsOwnerAndOneAsController() {
        var objects = Fixtures.objects(deployment("ns", "a", 1, Map.of("topobridge.io/group", "g")) + "---\n"
                + deployment("ns", "b", 2, Map.of("topobridge.io/group", "g")) + "---\n"
                + deployment("other", "c", 2, Map.of("topobridge.io/group", "g")));
        TranslationResult result = translate(objects);
        assertThat(names(result)).containsExactly("tb-group-g", "tb-group-g");
        DesiredPodGroup ns = result.podGroups().stream()
                .filter(p -> p.namespace().equals("ns"))
                .findFirst()
                .orElseThrow();
        assertThat(ns.owners())
                .extracting(o -> o.getName() + ":" + o.getController())
                .containsExactly("a:true", "b:false");
        assertThat(ns.spec().getMinMember()).isEqualTo(3);
        assertThat(ns.spec().getSubGroupPolicy())
                .extracting(p -> p.getName() + "/" + p.getSubGroupSize())
                .containsExactly("deploy-a/1", "deploy-b/2");
    }

    @Test
    void groupOnAKindThatCannotJoinOneIsRefused() {
        var objects = Fixtures.objects("""
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: PodSet
                metadata: {name: ps, namespace: ns, uid: u, annotations: {topobridge.io/group: g}}
                spec:
                  podGroupSize: 2
                  template: {spec: {containers: [{name: c, image: x}]}}
                """);
        TranslationResult result = translate(objects);
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings())
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .contains("topobridge.io/group=\"g\"")
                        .contains("only Deployments"));
    }

    static final String LWS = """
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata:
              name: big
              namespace: ns
              uid: uid-big
              annotations: {topobridge.io/highest-tier: "2", topobridge.io/subgroup-highest-tier: "1"}
            spec:
              replicas: %d
              startupPolicy: %s
              leaderWorkerTemplate:
                size: 5
                subGroupPolicy: {subGroupSize: 2, subGroupPolicyType: LeaderExcluded}
                leaderTemplate:
                  spec:
                    containers: [{name: l, image: x, resources: {requests: {cpu: "2"}}}]
                workerTemplate:
                  spec:
                    containers: [{name: w, image: x, resources: {limits: {nvidia.com/gpu: "8"}}}]
            """;

    @Test
    void lwsGroupsWithTheirOwnSubgroupsAndLeaderReadyStartsWithTheLeader() {
        TranslationResult result = translate(Fixtures.objects(LWS.formatted(2, "LeaderReady")));
        assertThat(names(result)).containsExactly("tb-lws-big-0", "tb-lws-big-1");
        DesiredPodGroup first = result.podGroups().get(0);
        assertThat(first.spec().getMinMember()).isEqualTo(1);
        assertThat(first.spec().getMinResources())
                .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "2", "nvidia.com/gpu", "32"));
        assertThat(first.spec().getSubGroupPolicy()).singleElement().satisfies(p -> {
            assertThat(p.getMatchLabelKeys()).containsExactly("leaderworkerset.sigs.k8s.io/subgroup-index");
            assertThat(p.getSubGroupSize()).isEqualTo(2);
            assertThat(p.getNetworkTopology().getHighestTierAllowed()).isEqualTo(1);
        });
        assertThat(translate(Fixtures.objects(LWS.formatted(1, "LeaderCreated")))
                        .podGroups()
                        .get(0)
                        .spec()
                        .getMinMember())
                .isEqualTo(5);
    }

    @Test
    void unreadableWorkloadIsRefusedAndItsNeighbourIsNot() {
        var objects = Fixtures.objects(LWS.formatted(1, "LeaderCreated").replace("size: 5", "size: five") + "---\n"
                + deployment("ns", "good", 1, Map.of("topobridge.io/highest-tier", "1")));
        TranslationResult result = translate(objects);
        assertThat(names(result)).containsExactly("tb-deploy-good");
        assertThat(result.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.UNREADABLE_WORKLOAD);
            assertThat(f.message()).contains("LeaderWorkerSet/ns/big").contains("spec.leaderWorkerTemplate.size");
        });
    }

    @Test
    void statefulSetsOfAnLwsAreNotGangsOfTheirOwn() {
        var objects = Fixtures.objects("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: big-0
                  namespace: ns
                  ownerReferences: [{apiVersion: v1, kind: Pod, name: big-0, uid: p0, controller: true}]
                  annotations: {topobridge.io/highest-tier: "2"}
                spec:
                  replicas: 4
                  selector: {matchLabels: {a: b}}
                  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x}]}}
                """);
        assertThat(translate(objects).podGroups()).isEmpty();
    }

    @Test
    void stormServiceWithoutRoleSetsWaits() {
        var objects = Fixtures.objects("""
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: StormService
                metadata: {name: s, namespace: ns, uid: us, annotations: {topobridge.io/highest-tier: "2"}}
                spec:
                  replicas: 1
                  template:
                    spec:
                      roles: [{name: r, replicas: 1, template: {spec: {containers: [{name: c, image: x}]}}}]
                """);
        TranslationResult result = translate(objects);
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.WAITING_FOR_ROLE_SETS);
            assertThat(f.severity()).isEqualTo(Severity.INFO);
        });
    }

    @Test
    void roleLevelVolcanoStrategyAdoptsEachPodSetAndKeepsTheOtherRolesAsOneGang() {
        var objects = new ArrayList<>(Fixtures.objects("""
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: RoleSet
                metadata: {name: rs, namespace: ns, uid: urs, annotations: {topobridge.io/highest-tier: "3", topobridge.io/subgroup-highest-tier: "1"}}
                spec:
                  roles:
                  - name: router
                    replicas: 2
                    template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}
                  - name: worker
                    replicas: 2
                    podGroupSize: 4
                    schedulingStrategy: {volcanoSchedulingStrategy: {minMember: 4}}
                    template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}
                ---
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: PodSet
                metadata:
                  name: rs-worker-abc-0
                  namespace: ns
                  labels: {roleset-name: rs, role-name: worker}
                  ownerReferences: [{apiVersion: orchestration.aibrix.ai/v1alpha1, kind: RoleSet, name: rs, uid: urs, controller: true}]
                spec: {podGroupSize: 4, template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}}
                """));
        TranslationResult result = translate(objects);
        assertThat(result.podGroups())
                .extracting(p -> p.name() + ":" + p.ownership())
                .containsExactly("tb-rs-rs:OWNED", "rs-worker-abc-0:ADOPTED");
        assertThat(result.podGroups().get(0).spec().getMinMember()).isEqualTo(2);
        assertThat(result.podGroups().get(1).spec().getNetworkTopology().getHighestTierAllowed())
                .as("a PodSet's PodGroup is a subgroup of the RoleSet: the subgroup tier applies")
                .isEqualTo(1);
    }

    @Test
    void differentPriorityClassesWarnAndSetNone() {
        var objects = Fixtures.objects(deployment("ns", "a", 1, Map.of("topobridge.io/group", "g"))
                        .replace("      containers:", "      priorityClassName: high\n      containers:")
                + "---\n"
                + deployment("ns", "b", 1, Map.of("topobridge.io/group", "g"))
                        .replace("      containers:", "      priorityClassName: low\n      containers:"));
        TranslationResult result = translate(objects);
        assertThat(result.podGroups())
                .singleElement()
                .satisfies(p -> assertThat(p.spec().getPriorityClassName()).isNull());
        assertThat(result.findings()).extracting(Finding::reason).containsOnly(WorkloadReason.PRIORITY_CLASSES_DIFFER);
    }

    @Test
    void scopesOfObjectsAndPodGroups() {
        var translator = Fixtures.translator();
        var objects = Fixtures.objects("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: ds-0-abc-prefill
                  namespace: ns
                  ownerReferences: [{apiVersion: disaggregatedset.x-k8s.io/v1, kind: DisaggregatedSet, name: ds, uid: u, controller: true}]
                spec: {leaderWorkerTemplate: {workerTemplate: {spec: {containers: [{name: c, image: x}]}}}}
                ---
                """ + Fixtures.bridgePodGroup("tb-group-g", "ns", "Group/g", null) + """
                ---
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata:
                  name: ds-0-abc-prefill-0-rev
                  namespace: ns
                  ownerReferences: [{apiVersion: v1, kind: Pod, name: ds-0-abc-prefill-0, uid: p, controller: true}]
                """);
        var lookup = Fixtures.lookup(objects);
        assertThat(translator.scopeOf(objects.get(0), lookup))
                .contains(new GangScope.Single(WorkloadKind.DISAGGREGATED_SET, "ns", "ds"));
        assertThat(translator.scopeOfPodGroup(objects.get(1), lookup)).contains(new GangScope.Group("ns", "g"));
        assertThat(translator.scopeOfPodGroup(objects.get(2), lookup))
                .contains(new GangScope.Single(WorkloadKind.DISAGGREGATED_SET, "ns", "ds"));
    }
}

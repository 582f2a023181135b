package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.translate.TranslationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A pod being created finds its gang from its labels and owner chain alone, and the name it gets is the
 * name of the PodGroup the translator makes for that workload.
 */
class PodAssignmentTest {

    private static Optional<PodAssignment> assign(List<HasMetadata> objects, String podYaml) {
        return Fixtures.translator()
                .tie(Fixtures.pod(podYaml), Fixtures.TIERS, Fixtures.lookup(objects))
                .assigned();
    }

    private static List<String> podGroupNames(List<HasMetadata> objects) {
        return TranslationResult.of(Fixtures.translator(), objects, Fixtures.TIERS, Fixtures.lookup(objects))
                .podGroups()
                .stream()
                .map(DesiredPodGroup::name)
                .toList();
    }

    private static final String PAIR = WorkloadTranslatorTest.deployment(
                    "llm", "prefill", 2, Map.of("topobridge.io/group", "pd", "topobridge.io/highest-tier", "2"))
            + "---\n"
            + WorkloadTranslatorTest.deployment("llm", "decode", 1, Map.of("topobridge.io/group", "pd"))
            + "---\n" + WorkloadTranslatorTest.deployment("llm", "solo", 1, Map.of("topobridge.io/highest-tier", "1"))
            + "---\n" + WorkloadTranslatorTest.deployment("llm", "plain", 1, Map.of());

    private static String deploymentPod(String replicaSet, String hash) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %1$s-x1
                  namespace: llm
                  labels: {pod-template-hash: %2$s}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: %1$s, uid: r, controller: true}]
                spec: {containers: [{name: c, image: x}]}
                """.formatted(replicaSet, hash);
    }

    @Test
    void deploymentPodThroughItsCachedReplicaSet() {
        var objects = new ArrayList<>(Fixtures.objects(PAIR + """
                ---
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata:
                  name: solo-7d9f
                  namespace: llm
                  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: solo, uid: uid-solo, controller: true}]
                """));
        assertThat(assign(objects, deploymentPod("solo-7d9f", "7d9f")))
                .contains(new PodAssignment("tb-deploy-solo", "solo", Map.of()));
        assertThat(podGroupNames(objects)).contains("tb-deploy-solo");
    }

    @Test
    void deploymentPodBeforeTheReplicaSetIsCachedUsesTheTemplateHash() {
        var objects = Fixtures.objects(PAIR);
        assertThat(assign(objects, deploymentPod("solo-5c6b7", "5c6b7")).map(PodAssignment::podGroupName))
                .contains("tb-deploy-solo");
    }

    @Test
    void groupMemberGetsTheGroupNameItsRoleAndTheMemberLabel() {
        var objects = Fixtures.objects(PAIR);
        assertThat(assign(objects, deploymentPod("decode-abc12", "abc12")))
                .contains(new PodAssignment(
                        "tb-group-pd", "deploy-decode", Map.of("topobridge.io/member", "deploy-decode")));
        assertThat(assign(objects, deploymentPod("prefill-abc12", "abc12")).map(PodAssignment::taskSpec))
                .contains("deploy-prefill");
        assertThat(podGroupNames(objects)).contains("tb-group-pd");
    }

    @Test
    void unmanagedOrRefusedWorkloadsGetNothing() {
        var objects = Fixtures.objects(PAIR + "---\n"
                + WorkloadTranslatorTest.deployment("llm", "broken", 1, Map.of("topobridge.io/highest-tier", "9")));
        assertThat(assign(objects, deploymentPod("plain-abc12", "abc12"))).isEmpty();
        assertThat(assign(objects, deploymentPod("broken-abc12", "abc12"))).isEmpty();
        assertThat(assign(objects, deploymentPod("missing-abc12", "abc12"))).isEmpty();
        assertThat(assign(objects, "apiVersion: v1\nkind: Pod\nmetadata: {name: bare, namespace: llm}\n"))
                .isEmpty();
    }

    @Test
    void podsOfAGangWaitingForTheTopologyAreTiedAlready() {
        // the tie can only be made at creation: a pod created before the first topology pass must not escape
        var objects = Fixtures.objects(PAIR + "---\n"
                + WorkloadTranslatorTest.deployment(
                        "llm", "typo", 1, Map.of("topobridge.io/highest-tier", "rack", "topobridge.io/mode", "hrad")));
        var lookup = Fixtures.lookup(objects);
        assertThat(Fixtures.translator()
                        .tie(Fixtures.pod(deploymentPod("solo-abc12", "abc12")), TierCatalog.EMPTY, lookup)
                        .assigned()
                        .map(PodAssignment::podGroupName))
                .contains("tb-deploy-solo");
        // while nothing is created for it until the tiers are known
        assertThat(TranslationResult.of(Fixtures.translator(), objects, TierCatalog.EMPTY, lookup)
                        .podGroups())
                .isEmpty();
        // a mistake of the user's is not waiting for anything: its pods stay untied
        assertThat(Fixtures.translator()
                        .tie(Fixtures.pod(deploymentPod("typo-abc12", "abc12")), TierCatalog.EMPTY, lookup)
                        .assigned())
                .isEmpty();
    }

    @Test
    void aPodThatAlreadyNamesItsGroupKeepsIt() {
        var objects = Fixtures.objects(PAIR);
        String pod = deploymentPod("solo-abc12", "abc12")
                .replace(
                        "  labels:",
                        "  annotations: {scheduling.k8s.io/group-name: chosen, volcano.sh/task-spec: mine}\n  labels:");
        assertThat(assign(objects, pod)).contains(new PodAssignment("chosen", "mine", Map.of()));
    }

    @Test
    void statefulSetPod() {
        var objects = Fixtures.objects("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: llm, uid: u, annotations: {topobridge.io/mode: soft}}
                spec:
                  replicas: 2
                  selector: {matchLabels: {a: b}}
                  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x}]}}
                """);
        var pod = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: db-1
                  namespace: llm
                  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: u, controller: true}]
                """;
        assertThat(assign(objects, pod)).contains(new PodAssignment("tb-sts-db", "db", Map.of()));
        assertThat(podGroupNames(objects)).containsExactly("tb-sts-db");
    }

    private static final String LWS = """
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata: {name: lws, namespace: llm, uid: ul, annotations: {topobridge.io/highest-tier: "1"}}
            spec:
              replicas: 3
              leaderWorkerTemplate:
                size: 4
                workerTemplate: {spec: {containers: [{name: c, image: x}]}}
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: lws-2
              namespace: llm
              labels: {leaderworkerset.sigs.k8s.io/name: lws, leaderworkerset.sigs.k8s.io/group-index: "2"}
              ownerReferences: [{apiVersion: v1, kind: Pod, name: lws-2, uid: p2, controller: true}]
            spec:
              selector: {matchLabels: {a: b}}
              template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x}]}}
            """;

    @Test
    void lwsPodsByLabels() {
        var objects = Fixtures.objects(LWS);
        var worker = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: lws-1-3
                  namespace: llm
                  labels: {leaderworkerset.sigs.k8s.io/name: lws, leaderworkerset.sigs.k8s.io/group-index: "1",
                           leaderworkerset.sigs.k8s.io/worker-index: "3"}
                """;
        assertThat(assign(objects, worker)).contains(new PodAssignment("tb-lws-lws-1", "worker", Map.of()));
        assertThat(assign(objects, worker.replace("worker-index: \"3\"", "worker-index: \"0\""))
                        .map(PodAssignment::taskSpec))
                .contains("leader");
        assertThat(podGroupNames(objects)).containsExactly("tb-lws-lws-0", "tb-lws-lws-1", "tb-lws-lws-2");
    }

    @Test
    void lwsPodsBeforeLwsLabelledThemUseTheirOwnerStatefulSets() {
        var objects = Fixtures.objects(LWS);
        var worker = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: lws-2-1
                  namespace: llm
                  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: lws-2, uid: s2, controller: true}]
                """;
        assertThat(assign(objects, worker)).contains(new PodAssignment("tb-lws-lws-2", "worker", Map.of()));
        var leader = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: lws-1
                  namespace: llm
                  labels: {leaderworkerset.sigs.k8s.io/name: lws}
                  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: lws, uid: s, controller: true}]
                """;
        assertThat(assign(objects, leader)).contains(new PodAssignment("tb-lws-lws-1", "leader", Map.of()));
    }

    @Test
    void disaggregatedSetPodJoinsItsSlice() {
        var objects = Fixtures.objects("""
                apiVersion: disaggregatedset.x-k8s.io/v1
                kind: DisaggregatedSet
                metadata: {name: pd, namespace: llm, uid: ud, annotations: {topobridge.io/highest-tier: "3"}}
                spec:
                  slices: 2
                  roles:
                  - name: prefill
                    spec: {replicas: 2, leaderWorkerTemplate: {size: 1, workerTemplate: {spec: {containers: [{name: c, image: x}]}}}}
                  - name: decode
                    spec: {replicas: 1, leaderWorkerTemplate: {size: 2, workerTemplate: {spec: {containers: [{name: c, image: x}]}}}}
                """);
        var pod = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: pd-1-abc-decode-0-1
                  namespace: llm
                  labels: {disaggregatedset.x-k8s.io/name: pd, disaggregatedset.x-k8s.io/slice: "1",
                           disaggregatedset.x-k8s.io/role: decode, leaderworkerset.sigs.k8s.io/worker-index: "1"}
                """;
        assertThat(assign(objects, pod)).contains(new PodAssignment("tb-ds-pd-1", "decode-worker", Map.of()));
        assertThat(podGroupNames(objects)).containsExactly("tb-ds-pd-0", "tb-ds-pd-1");
    }

    @Test
    void podOfASetWithoutSlicesJoinsTheOneSlice() {
        // LWS v0.9's DisaggregatedSet has no slices: its pods carry no slice label, the set is one gang
        var objects = Fixtures.objects("""
                apiVersion: disaggregatedset.x-k8s.io/v1
                kind: DisaggregatedSet
                metadata: {name: pd, namespace: llm, uid: ud, annotations: {topobridge.io/highest-tier: "3"}}
                spec:
                  roles:
                  - name: prefill
                    spec: {replicas: 2, leaderWorkerTemplate: {size: 1, workerTemplate: {spec: {containers: [{name: c, image: x}]}}}}
                """);
        var pod = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: pd-abc-prefill-1
                  namespace: llm
                  labels: {disaggregatedset.x-k8s.io/name: pd, disaggregatedset.x-k8s.io/role: prefill,
                           leaderworkerset.sigs.k8s.io/name: pd-abc-prefill, leaderworkerset.sigs.k8s.io/group-index: "1",
                           leaderworkerset.sigs.k8s.io/worker-index: "0"}
                """;
        assertThat(assign(objects, pod)).contains(new PodAssignment("tb-ds-pd-0", "prefill-leader", Map.of()));
        var sliced = Fixtures.objects("""
                apiVersion: disaggregatedset.x-k8s.io/v1
                kind: DisaggregatedSet
                metadata: {name: pd, namespace: llm, uid: ud, annotations: {topobridge.io/highest-tier: "3"}}
                spec:
                  slices: 1
                  roles:
                  - name: prefill
                    spec: {replicas: 2, leaderWorkerTemplate: {size: 1, workerTemplate: {spec: {containers: [{name: c, image: x}]}}}}
                """);
        assertThat(assign(sliced, pod).map(PodAssignment::podGroupName))
                .as("after an upgrade the set reads back with slices: 1; a pod without a slice label is slice 0, as LWS"
                        + " reads it")
                .contains("tb-ds-pd-0");
    }

    private static final String STORM = Fixtures.stormWithRoleSet(
            "uss",
            "urs",
            "rack",
            List.of(
                    "{name: prefill, replicas: 1, podGroupSize: 2, template: {spec: {containers: [{name: c, image: x}]}}}"));

    @Test
    void aibrixPodOfAPodSetJoinsItsRoleSet() {
        var objects = Fixtures.objects(STORM);
        var pod = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: ss-roleset-abcde-prefill-hash-0-1
                  namespace: llm
                  labels: {roleset-name: ss-roleset-abcde, role-name: prefill, storm-service-name: ss,
                           stormservice.orchestration.aibrix.ai/podset-name: ss-roleset-abcde-prefill-hash-0}
                  ownerReferences: [{apiVersion: orchestration.aibrix.ai/v1alpha1, kind: PodSet, name: ss-roleset-abcde-prefill-hash-0, uid: ups, controller: true}]
                """;
        assertThat(assign(objects, pod)).contains(new PodAssignment("tb-rs-ss-roleset-abcde", "prefill", Map.of()));
        assertThat(podGroupNames(objects)).containsExactly("tb-rs-ss-roleset-abcde");
        // the StormService's annotations govern: without them the pod is not the bridge's
        var plain =
                Fixtures.objects(STORM.replace("annotations: {topobridge.io/highest-tier: rack}", "annotations: {}"));
        assertThat(assign(plain, pod)).isEmpty();
    }

    @Test
    void adoptedAibrixGangKeepsAibrixsName() {
        var objects = Fixtures.objects(STORM.replace(
                "spec:\n  roles:",
                "spec:\n  schedulingStrategy: {volcanoSchedulingStrategy: {minMember: 2}}\n  roles:"));
        var pod = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: p
                  namespace: llm
                  labels: {roleset-name: ss-roleset-abcde, role-name: prefill}
                """;
        assertThat(assign(objects, pod).map(PodAssignment::podGroupName)).contains("ss-roleset-abcde");
    }
}

package io.topobridge.core.kinds.lws;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.PodAssignment;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.reconcile.TestSettings;
import io.topobridge.core.workload.translate.TranslationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * LeaderWorkerSet {@code groupIdentity: Hash}, as LWS implements it after v0.10 (kubernetes-sigs/lws PR #987, read at
 * its head commit cb3b0cd; PR #1050 adds a scheduling gate on the leaders and changes none of the names below). Facts
 * the fixtures follow, not code: {@code pkg/controllers/leaderworkerset_hash.go} runs the leaders as a Deployment named
 * after the LWS and controlled by it, whose pod template carries the labels {@code leaderworkerset.sigs.k8s.io/name},
 * {@code worker-index: "0"} and {@code template-revision-hash} and the annotation
 * {@code leaderworkerset.sigs.k8s.io/group-identity: Hash}, the Deployment itself the LWS's annotations;
 * {@code pkg/webhooks/pod_webhook.go} gives a leader without one a random group key
 * ({@code leaderworkerset.sigs.k8s.io/group-key}, a SHA-1 in hex, 40 characters) and writes the same value as its
 * {@code group-index} label; {@code pkg/controllers/pod_controller.go} makes the worker StatefulSet named after the leader
 * pod and controlled by it, its template labelled with the leader's group-index, group-key and revision and annotated
 * with the leader's name. No real-cluster test: the test cluster runs LWS v0.9.0, which has no Hash identity.
 */
class HashGroupIdentityTest {

    static final String KEY_A = "3f786850e387550fdab836ed7e6dc881de23001b";
    static final String KEY_B = "89e6c98d92887913cadf06b2adb97f26cde4849b";

    private static final String POD_SPEC =
            "{spec: {containers: [{name: c, image: x, resources: {requests: {cpu: \"2\", nvidia.com/gpu: \"4\"}}}]}}";

    static final String LWS = """
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata: {name: vllm, namespace: llm, uid: u-lws, annotations: {topobridge.io/highest-tier: "1"}}
            spec:
              replicas: 2
              groupIdentity: Hash
              leaderWorkerTemplate: {size: 2, workerTemplate: %1$s}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: vllm
              namespace: llm
              uid: u-deploy
              labels: {leaderworkerset.sigs.k8s.io/name: vllm, leaderworkerset.sigs.k8s.io/template-revision-hash: r1}
              annotations: {topobridge.io/highest-tier: "1", leaderworkerset.sigs.k8s.io/replicas: "2"}
              ownerReferences: [{apiVersion: leaderworkerset.x-k8s.io/v1, kind: LeaderWorkerSet, name: vllm, uid: u-lws,
                                 controller: true}]
            spec:
              replicas: 2
              selector: {matchLabels: {leaderworkerset.sigs.k8s.io/name: vllm, leaderworkerset.sigs.k8s.io/worker-index: "0"}}
              template:
                metadata:
                  labels: {leaderworkerset.sigs.k8s.io/name: vllm, leaderworkerset.sigs.k8s.io/worker-index: "0",
                           leaderworkerset.sigs.k8s.io/template-revision-hash: r1}
                  annotations: {leaderworkerset.sigs.k8s.io/size: "2", leaderworkerset.sigs.k8s.io/group-identity: Hash}
                spec: {containers: [{name: c, image: x}]}
            """.formatted(POD_SPEC);

    /** A leader pod as the Deployment's ReplicaSet creates it and LWS's webhook labels it (key null: not yet). */
    static String leader(String name, String uid, String key) {
        String keyed = key == null
                ? ""
                : ",\n           leaderworkerset.sigs.k8s.io/group-key: %1$s, leaderworkerset.sigs.k8s.io/group-index: %1$s"
                        .formatted(key);
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %1$s
                  generateName: vllm-7d4b9c8f5-
                  namespace: llm
                  uid: %2$s
                  labels: {leaderworkerset.sigs.k8s.io/name: vllm, leaderworkerset.sigs.k8s.io/worker-index: "0",
                           leaderworkerset.sigs.k8s.io/template-revision-hash: r1, pod-template-hash: 7d4b9c8f5%3$s}
                  annotations: {leaderworkerset.sigs.k8s.io/size: "2", leaderworkerset.sigs.k8s.io/group-identity: Hash}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: vllm-7d4b9c8f5, uid: u-rs,
                                     controller: true}]
                spec: %4$s
                """.formatted(name, uid, keyed, POD_SPEC.substring(7, POD_SPEC.length() - 1));
    }

    /** The worker StatefulSet LWS makes for a leader: named after the leader pod, controlled by it. */
    static String workerStatefulSet(String leader, String uid, String key) {
        return """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: %1$s
                  namespace: llm
                  uid: sts-%1$s
                  annotations: {topobridge.io/highest-tier: "1"}
                  labels: {leaderworkerset.sigs.k8s.io/name: vllm, leaderworkerset.sigs.k8s.io/group-index: %3$s,
                           leaderworkerset.sigs.k8s.io/group-key: %3$s, leaderworkerset.sigs.k8s.io/template-revision-hash: r1}
                  ownerReferences: [{apiVersion: v1, kind: Pod, name: %1$s, uid: %2$s, controller: true,
                                     blockOwnerDeletion: true}]
                spec:
                  replicas: 1
                  selector: {matchLabels: {leaderworkerset.sigs.k8s.io/name: vllm, leaderworkerset.sigs.k8s.io/group-key: %3$s}}
                  template:
                    metadata:
                      labels: {leaderworkerset.sigs.k8s.io/name: vllm, leaderworkerset.sigs.k8s.io/group-index: %3$s,
                               leaderworkerset.sigs.k8s.io/group-key: %3$s, leaderworkerset.sigs.k8s.io/template-revision-hash: r1}
                      annotations: {leaderworkerset.sigs.k8s.io/leader-name: %1$s, leaderworkerset.sigs.k8s.io/size: "2",
                                    leaderworkerset.sigs.k8s.io/group-identity: Hash}
                    spec: %4$s
                """.formatted(leader, uid, key, POD_SPEC.substring(7, POD_SPEC.length() - 1));
    }

    /** A worker pod of a group, as its StatefulSet creates it and LWS's webhook gives it its worker index. */
    static String worker(String leader, String key) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %1$s-1
                  namespace: llm
                  labels: {leaderworkerset.sigs.k8s.io/name: vllm, leaderworkerset.sigs.k8s.io/group-index: %2$s,
                           leaderworkerset.sigs.k8s.io/group-key: %2$s, leaderworkerset.sigs.k8s.io/worker-index: "1",
                           leaderworkerset.sigs.k8s.io/template-revision-hash: r1}
                  annotations: {leaderworkerset.sigs.k8s.io/leader-name: %1$s, leaderworkerset.sigs.k8s.io/group-identity: Hash}
                  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: %1$s, uid: sts-%1$s, controller: true}]
                spec: %3$s
                """.formatted(leader, key, POD_SPEC.substring(7, POD_SPEC.length() - 1));
    }

    /** Group A shows as its leader pod; group B, whose leader the pod cache has not listed yet, as its StatefulSet. */
    static List<HasMetadata> cluster() {
        return Fixtures.objects(LWS + "---\n" + leader("vllm-7d4b9c8f5-x2x9k", "pa", KEY_A) + "---\n"
                + workerStatefulSet("vllm-7d4b9c8f5-q8r2m", "pb", KEY_B));
    }

    private static TranslationResult translate(List<HasMetadata> objects) {
        return TranslationResult.of(Fixtures.translator(), objects, Fixtures.TIERS, Fixtures.lookup(objects));
    }

    private static OwnerReference leaderRef(String name, String uid) {
        return new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Pod")
                .withName(name)
                .withUid(uid)
                .withController(true)
                .build();
    }

    @Test
    void onePodGroupPerGroupKeyTheClusterShowsOwnedByTheGroupsLeader() {
        TranslationResult result = translate(cluster());
        assertThat(result.findings()).noneMatch(Finding::isRejection);
        assertThat(result.podGroups())
                .extracting(DesiredPodGroup::name)
                .containsExactly("tb-lwsh-vllm-" + KEY_A, "tb-lwsh-vllm-" + KEY_B);
        DesiredPodGroup a = result.podGroups().get(0);
        assertThat(a.owners()).containsExactly(leaderRef("vllm-7d4b9c8f5-x2x9k", "pa"));
        assertThat(a.labels())
                .containsEntry("leaderworkerset.sigs.k8s.io/name", "vllm")
                .containsEntry("leaderworkerset.sigs.k8s.io/group-key", KEY_A)
                .containsEntry("app.kubernetes.io/managed-by", "topobridge");
        assertThat(a.spec().getMinMember()).isEqualTo(2);
        assertThat(a.spec().getMinResources()).containsEntry("nvidia.com/gpu", "8");
        assertThat(a.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(1);
        assertThat(result.podGroups().get(1).owners()).containsExactly(leaderRef("vllm-7d4b9c8f5-q8r2m", "pb"));
        // the same cluster read again (a restart, another replica) gives the same PodGroups
        assertThat(translate(cluster()).podGroups()).isEqualTo(result.podGroups());
    }

    /** The controller's reconcile step: the leader pods come from its pod cache, through the pass's facts. */
    @Test
    void theReconcileStepReadsTheGroupsFromThePodCache() {
        var reconciler = new io.topobridge.core.workload.reconcile.ScopeReconciler(
                Fixtures.translator(),
                new io.topobridge.core.workload.reconcile.ReconcileSettings(
                        false,
                        "topobridge.io/enabled",
                        java.time.Duration.ZERO,
                        io.topobridge.core.recovery.DomainLossRestarts.Settings.DEFAULTS),
                TestSettings.NO_RESERVATION_LIMITS);
        List<HasMetadata> cached = Fixtures.objects(LWS);
        // the leader as admission let it in
        var pod = new PodAdmission(new AdmissionSettings("volcano"), Fixtures.translator()::tie)
                .admit(
                        Fixtures.pod(leader("vllm-7d4b9c8f5-x2x9k", "pa", KEY_A)),
                        Fixtures.TIERS,
                        Fixtures.lookup(cached))
                .pod();
        var placements = new io.topobridge.core.workload.reconcile.ClusterFacts() {
            @Override
            public List<io.fabric8.kubernetes.api.model.Pod> livePods(String namespace) {
                return "llm".equals(namespace) ? List.of(pod) : List.of();
            }
        };
        var facts = new io.topobridge.core.workload.reconcile.PassFacts(
                Fixtures.TIERS,
                Fixtures.TIERS,
                null,
                io.topobridge.core.workload.changes.QueueStates.UNKNOWN,
                java.time.Instant.parse("2026-12-01T10:00:00Z"),
                placements);
        GangScope scope = new GangScope.Single(WorkloadKind.LEADER_WORKER_SET, "llm", "vllm");
        var lookup = new io.topobridge.core.render.InMemoryLookup(cached);
        var outcome = reconciler.reconcile(List.of(scope), lookup, facts).get(0);
        assertThat(outcome.steps())
                .singleElement()
                .isInstanceOfSatisfying(io.topobridge.core.workload.changes.PodGroupChanges.Apply.class, apply -> {
                    assertThat(apply.podGroup().name()).isEqualTo("tb-lwsh-vllm-" + KEY_A);
                    assertThat(apply.podGroup().owners()).containsExactly(leaderRef("vllm-7d4b9c8f5-x2x9k", "pa"));
                });
        // the leader pod is tied already (admission named the PodGroup): nothing untied to report
        assertThat(outcome.findings()).noneMatch(f -> f.reason() == WorkloadReason.UNTIED_PODS);
        // the pod cache not listed yet (as after a restart): the PodGroup made is kept, nothing is deleted
        List<HasMetadata> withPodGroup = new ArrayList<>(cached);
        withPodGroup.add(io.topobridge.volcano.VolcanoObjects.podGroup(
                ((io.topobridge.core.workload.changes.PodGroupChanges.Apply)
                                outcome.steps().get(0))
                        .podGroup()));
        var restarted = reconciler
                .reconcile(
                        List.of(scope),
                        new io.topobridge.core.render.InMemoryLookup(withPodGroup),
                        new io.topobridge.core.workload.reconcile.PassFacts(
                                Fixtures.TIERS,
                                Fixtures.TIERS,
                                null,
                                io.topobridge.core.workload.changes.QueueStates.UNKNOWN,
                                java.time.Instant.parse("2026-12-01T10:00:00Z"),
                                io.topobridge.core.workload.reconcile.ClusterFacts.NONE))
                .get(0);
        assertThat(restarted.steps())
                .noneMatch(io.topobridge.core.workload.changes.PodGroupChanges.Delete.class::isInstance)
                .extracting(io.topobridge.core.workload.changes.PodGroupChanges.Step::name)
                .containsExactly("tb-lwsh-vllm-" + KEY_A);
    }

    @Test
    void admissionTiesEachPodToItsGroupsPodGroupFromThePodsOwnKey() {
        // nothing of the groups is cached yet: the leader's own labels, and the worker's, say where they go
        var objects = Fixtures.objects(LWS);
        var translator = Fixtures.translator();
        var lookup = Fixtures.lookup(objects);
        assertThat(translator
                        .tie(Fixtures.pod(leader("vllm-7d4b9c8f5-x2x9k", null, KEY_A)), Fixtures.TIERS, lookup)
                        .assigned())
                .contains(new PodAssignment("tb-lwsh-vllm-" + KEY_A, "leader", Map.of()));
        assertThat(translator
                        .tie(Fixtures.pod(worker("vllm-7d4b9c8f5-q8r2m", KEY_B)), Fixtures.TIERS, lookup)
                        .assigned())
                .contains(new PodAssignment("tb-lwsh-vllm-" + KEY_B, "worker", Map.of()));
        // and the names are those the reconciler makes
        assertThat(translate(cluster()).podGroups())
                .extracting(DesiredPodGroup::name)
                .contains("tb-lwsh-vllm-" + KEY_A, "tb-lwsh-vllm-" + KEY_B);
    }

    @Test
    void aLeaderWithoutAGroupKeyIsLeftUntiedAndAdmissionSaysWhy() {
        var objects = Fixtures.objects(LWS);
        var admission = new PodAdmission(new AdmissionSettings("volcano"), Fixtures.translator()::tie);
        PodAdmission.Result result = admission.admit(
                Fixtures.pod(leader("vllm-7d4b9c8f5-x2x9k", null, null)), Fixtures.TIERS, Fixtures.lookup(objects));
        assertThat(result.outcome()).isEqualTo(PodAdmission.Outcome.UNMANAGED);
        assertThat(result.pod().getMetadata().getAnnotations()).doesNotContainKey("scheduling.k8s.io/group-name");
        assertThat(result.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.GROUP_KEY_UNKNOWN);
            assertThat(f.message()).contains("leader pod carries no leaderworkerset.sigs.k8s.io/group-key label");
        });
        // a pod of an LWS the bridge does not manage is passed without a word
        var plain =
                Fixtures.objects(LWS.replace("annotations: {topobridge.io/highest-tier: \"1\"}", "annotations: {}"));
        assertThat(admission
                        .admit(
                                Fixtures.pod(leader("vllm-7d4b9c8f5-x2x9k", null, null)),
                                Fixtures.TIERS,
                                Fixtures.lookup(plain))
                        .findings())
                .isEmpty();
    }

    @Test
    void aGroupsPodGroupOutlivesAPodCacheStillBeingListed() {
        // after a restart the pods may not be listed yet: the PodGroups the bridge made for the groups are kept (their
        // leader pod owns them, so the garbage collector takes each with its group)
        List<HasMetadata> before = cluster();
        List<HasMetadata> withPodGroups = new ArrayList<>(Fixtures.objects(LWS));
        for (DesiredPodGroup pg : translate(before).podGroups()) {
            withPodGroups.add(io.topobridge.volcano.VolcanoObjects.podGroup(pg));
        }
        var kept = translate(withPodGroups).podGroups();
        assertThat(kept)
                .extracting(DesiredPodGroup::name)
                .containsExactly("tb-lwsh-vllm-" + KEY_A, "tb-lwsh-vllm-" + KEY_B);
        assertThat(kept).isEqualTo(translate(before).podGroups());
        // a PodGroup of the scope no leader pod owns is not a group the cluster shows
        var handMade = io.topobridge.volcano.VolcanoObjects.podGroup(
                translate(before).podGroups().get(0));
        handMade.getMetadata().setOwnerReferences(List.of());
        var objects = new ArrayList<>(Fixtures.objects(LWS));
        objects.add(handMade);
        assertThat(translate(objects).podGroups()).isEmpty();
    }

    @Test
    void theGangCountCapStillApplies() {
        var objects = cluster();
        var translator =
                Fixtures.translator(Fixtures.settings().maxGangsPerWorkload(1).build());
        var result = TranslationResult.of(translator, objects, Fixtures.TIERS, Fixtures.lookup(objects));
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings())
                .filteredOn(f -> f.reason() == WorkloadReason.TOO_MANY_GANGS)
                .singleElement()
                .satisfies(f -> assertThat(f.message()).contains("spec.replicas asks for 2 groups"));
    }

    @Test
    void aGroupIdentityTheBridgeDoesNotKnowIsRefusedNamingTheOnesItDoes() {
        var result = translate(Fixtures.objects(LWS.replace("groupIdentity: Hash", "groupIdentity: Random")));
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings())
                .filteredOn(Finding::isRejection)
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.reason()).isEqualTo(WorkloadReason.UNSUPPORTED_LEADER_WORKER_SET);
                    assertThat(f.message())
                            .contains("groupIdentity: \"Random\"")
                            .contains("Ordinal")
                            .contains("Hash");
                    assertThat(f.message()).doesNotContain("Index identity");
                });
        assertThat(translate(Fixtures.objects(LWS.replace("groupIdentity: Hash", "groupIdentity: Ordinal")))
                        .podGroups())
                .extracting(DesiredPodGroup::name)
                .containsExactly("tb-lws-vllm-0", "tb-lws-vllm-1");
    }

    /**
     * The prefill/decode gang of llm-d's P/D guide: a DisaggregatedSet whose roles both set {@code groupIdentity: Hash}
     * in their inline LWS spec (LWS wires the field through to the role's LeaderWorkerSets).
     */
    @Test
    void aDisaggregatedSetWhoseRolesUseHashIdentityGetsItsSliceGang() {
        var objects = Fixtures.objects("""
                apiVersion: disaggregatedset.x-k8s.io/v1
                kind: DisaggregatedSet
                metadata: {name: pd, namespace: llm, uid: u-ds, annotations: {topobridge.io/highest-tier: "2"}}
                spec:
                  roles:
                  - name: prefill
                    spec: {replicas: 2, groupIdentity: Hash, leaderWorkerTemplate: {size: 1, workerTemplate: %1$s}}
                  - name: decode
                    spec: {replicas: 1, groupIdentity: Hash, leaderWorkerTemplate: {size: 2, workerTemplate: %1$s}}
                """.formatted(POD_SPEC));
        var result = translate(objects);
        assertThat(result.findings()).noneMatch(Finding::isRejection);
        assertThat(result.podGroups()).singleElement().satisfies(pg -> {
            assertThat(pg.name()).isEqualTo("tb-ds-pd-0");
            assertThat(pg.spec().getMinMember()).isEqualTo(2 + 2);
        });
        var decodeLeader = """
                apiVersion: v1
                kind: Pod
                metadata:
                  generateName: pd-0-6ad7c921-decode-5f6d7c8b9-
                  namespace: llm
                  labels: {disaggregatedset.x-k8s.io/name: pd, disaggregatedset.x-k8s.io/slice: "0",
                           disaggregatedset.x-k8s.io/role: decode, leaderworkerset.sigs.k8s.io/name: pd-0-6ad7c921-decode,
                           leaderworkerset.sigs.k8s.io/worker-index: "0", leaderworkerset.sigs.k8s.io/group-key: %1$s,
                           leaderworkerset.sigs.k8s.io/group-index: %1$s}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: pd-0-6ad7c921-decode-5f6d7c8b9,
                                     uid: u-rs, controller: true}]
                """.formatted(KEY_A);
        assertThat(Fixtures.translator()
                        .tie(Fixtures.pod(decodeLeader), Fixtures.TIERS, Fixtures.lookup(objects))
                        .assigned())
                .contains(new PodAssignment("tb-ds-pd-0", "decode-leader", Map.of()));
    }
}

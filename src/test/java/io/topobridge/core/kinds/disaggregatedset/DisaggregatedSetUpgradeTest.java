package io.topobridge.core.kinds.disaggregatedset;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.PodAssignment;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.translate.TranslationResult;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A DisaggregatedSet made by LWS v0.9 (no slices) and read back after an upgrade to v0.10: the API server now defaults
 * {@code spec.slices: 1}, while the set's old LeaderWorkerSets and their pods carry no slice label. LWS v0.10 treats an
 * object without a slice label as slice 0 (its {@code SliceLabelMatches} in pkg/utils/disaggregatedset/utils.go at
 * v0.10.0), and so must the bridge. Also: the {@code topobridge.io/} annotations LWS copies from a role's metadata onto
 * the role's LeaderWorkerSets, and from those onto their StatefulSets (and, with {@code groupIdentity: Hash}, onto the
 * leader Deployment), make none of them a gang of its own.
 */
class DisaggregatedSetUpgradeTest {

    private static final String POD_SPEC =
            "{spec: {containers: [{name: c, image: x, resources: {requests: {cpu: \"1\"}}}]}}";

    /** The set as v0.10 reads it back: slices defaulted to 1, the decode role scaled from outside. */
    private static final String SET = Fixtures.pdSet("uds", 1, "topobridge.io/highest-tier: \"2\"", POD_SPEC);

    /** A LeaderWorkerSet v0.9 made for a role: the pre-slices name and no slice label. */
    private static String legacyLws(String role, int replicas, int size) {
        return """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: pd-6ad7c921-%1$s
                  namespace: llm
                  uid: u-%1$s
                  labels: {disaggregatedset.x-k8s.io/name: pd, disaggregatedset.x-k8s.io/role: %1$s,
                           disaggregatedset.x-k8s.io/revision: 6ad7c921}
                  ownerReferences: [{apiVersion: disaggregatedset.x-k8s.io/v1, kind: DisaggregatedSet, name: pd,
                                     uid: uds, controller: true}]
                spec:
                  replicas: %2$d
                  leaderWorkerTemplate: {size: %3$d, workerTemplate: %4$s}
                """.formatted(role, replicas, size, POD_SPEC);
    }

    private static List<HasMetadata> objects() {
        return Fixtures.objects(SET + "---\n" + legacyLws("prefill", 2, 1) + "---\n" + legacyLws("decode", 3, 2));
    }

    private static Optional<PodAssignment> assign(List<HasMetadata> objects, String pod) {
        return Fixtures.translator()
                .tie(Fixtures.pod(pod), Fixtures.TIERS, Fixtures.lookup(objects))
                .assigned();
    }

    @Test
    void aPodOfAnOldSliceZeroLeaderWorkerSetJoinsSliceZero() {
        // labels as v0.9 stamped them on the LWS's pod templates: set name and role, no slice
        var leader = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: pd-6ad7c921-decode-2
                  namespace: llm
                  labels: {disaggregatedset.x-k8s.io/name: pd, disaggregatedset.x-k8s.io/role: decode,
                           leaderworkerset.sigs.k8s.io/name: pd-6ad7c921-decode,
                           leaderworkerset.sigs.k8s.io/group-index: "2", leaderworkerset.sigs.k8s.io/worker-index: "0"}
                """;
        assertThat(assign(objects(), leader))
                .contains(new PodAssignment("tb-ds-pd-0", "decode-leader", java.util.Map.of()));
        // a worker whose only link is its LWS's label (the set's labels are on the LWS, not the pod)
        var worker = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: pd-6ad7c921-decode-2-1
                  namespace: llm
                  labels: {leaderworkerset.sigs.k8s.io/name: pd-6ad7c921-decode,
                           leaderworkerset.sigs.k8s.io/group-index: "2", leaderworkerset.sigs.k8s.io/worker-index: "1"}
                """;
        assertThat(assign(objects(), worker).map(PodAssignment::podGroupName)).contains("tb-ds-pd-0");
        // an empty slice label is no slice label, as LWS reads it
        assertThat(assign(
                        objects(),
                        leader.replace("role: decode,", "role: decode, disaggregatedset.x-k8s.io/slice: \"\",")))
                .map(PodAssignment::podGroupName)
                .contains("tb-ds-pd-0");
    }

    @Test
    void anExternallyScaledRoleCountsTheReplicasOfItsOldLeaderWorkerSet() {
        var objects = objects();
        DesiredPodGroup pg =
                TranslationResult.of(Fixtures.translator(), objects, Fixtures.TIERS, Fixtures.lookup(objects))
                        .podGroups()
                        .stream()
                        .filter(p -> p.name().equals("tb-ds-pd-0"))
                        .findFirst()
                        .orElseThrow();
        // prefill 2 groups of 1, decode 3 groups (its scaler wrote 3 on the old LWS, the spec still says 1) of 2
        assertThat(pg.spec().getMinMember()).isEqualTo(2 + 3 * 2);
        assertThat(pg.spec().getMinResources()).containsEntry("cpu", "8");
    }

    /** A {@code kind} the decode LWS of slice 0 makes, with the {@code metadata} line LWS copied onto it. */
    private static String ownedByTheDecodeLws(String kind, String uid, String metadata) {
        return """
                apiVersion: apps/v1
                kind: %s
                metadata:
                  name: pd-0-6ad7c921-decode
                  namespace: llm
                  uid: %s
                  %s
                  labels: {leaderworkerset.sigs.k8s.io/name: pd-0-6ad7c921-decode}
                  ownerReferences: [{apiVersion: leaderworkerset.x-k8s.io/v1, kind: LeaderWorkerSet,
                                     name: pd-0-6ad7c921-decode, uid: ul, controller: true}]
                spec: {replicas: 2, selector: {matchLabels: {a: b}}, template: %s}
                """.formatted(kind, uid, metadata, POD_SPEC);
    }

    @Test
    void annotationsCopiedOntoTheSetsLeaderWorkerSetsAndTheirObjectsMakeNoGangsOfTheirOwn() {
        // v0.10 copies a role's metadata annotations onto its LWS, and LWS copies its own onto the StatefulSets (and,
        // for
        // groupIdentity: Hash, the leader Deployment) it makes
        String copied = "annotations: {topobridge.io/highest-tier: \"2\", topobridge.io/subgroup-highest-tier: \"1\"}";
        var objects =
                Fixtures.objects(SET.replace("  - name: decode\n", "  - name: decode\n    metadata: {" + copied + "}\n")
                        + "---\n"
                        + """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: pd-0-6ad7c921-decode
                  namespace: llm
                  uid: ul
                  %1$s
                  labels: {disaggregatedset.x-k8s.io/name: pd, disaggregatedset.x-k8s.io/role: decode,
                           disaggregatedset.x-k8s.io/slice: "0"}
                  ownerReferences: [{apiVersion: disaggregatedset.x-k8s.io/v1, kind: DisaggregatedSet, name: pd,
                                     uid: uds, controller: true}]
                spec: {replicas: 1, leaderWorkerTemplate: {size: 2, workerTemplate: %2$s}}
                """.formatted(copied, POD_SPEC)
                        + "---\n"
                        + ownedByTheDecodeLws("StatefulSet", "us", copied)
                        + "---\n"
                        + """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: pd-0-6ad7c921-decode-1
                  namespace: llm
                  uid: uw
                  %1$s
                  labels: {leaderworkerset.sigs.k8s.io/name: pd-0-6ad7c921-decode,
                           leaderworkerset.sigs.k8s.io/group-index: "1"}
                  ownerReferences: [{apiVersion: v1, kind: Pod, name: pd-0-6ad7c921-decode-1, uid: up, controller: true}]
                spec: {replicas: 1, selector: {matchLabels: {a: b}}, template: %2$s}
                """.formatted(copied, POD_SPEC)
                        + "---\n"
                        + ownedByTheDecodeLws("Deployment", "ud", copied));
        var lookup = Fixtures.lookup(objects);
        var translator = Fixtures.translator();
        GangScope set = new GangScope.Single(WorkloadKind.DISAGGREGATED_SET, "llm", "pd");
        for (HasMetadata object : objects) {
            String what = object.getKind() + " " + object.getMetadata().getName();
            if (object.getKind().equals("StatefulSet")
                    && object.getMetadata().getName().endsWith("-1")) {
                assertThat(translator.scopeOf(object, lookup)).as(what).isEmpty();
            } else {
                assertThat(translator.scopeOf(object, lookup)).as(what).contains(set);
            }
        }
        var result = TranslationResult.of(translator, objects, Fixtures.TIERS, lookup);
        assertThat(result.podGroups()).extracting(DesiredPodGroup::name).containsExactly("tb-ds-pd-0");
        assertThat(result.findings()).noneMatch(f -> f.isRejection());
    }
}

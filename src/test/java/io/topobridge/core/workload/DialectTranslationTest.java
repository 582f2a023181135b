package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.annotation.Dialects;
import io.topobridge.core.workload.gang.Slices;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.volcano.model.SubGroupPolicySpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The same workload written with the bridge's keys or with another scheduler's gets the same PodGroups. */
class DialectTranslationTest {

    static final String CLIQUE = Fixtures.CLIQUE;
    static final String RACK = Fixtures.RACK;
    static final TierCatalog TIERS = Fixtures.LABELLED_TIERS;

    /** An LWS of two groups of 4 (a leader and 3 workers of 4 GPUs), in subgroups of 2: %s metadata, %s templates. */
    static final String LWS = """
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata:
              name: tp
              namespace: llm
              uid: uid-tp
              annotations: {%s}
            spec:
              replicas: 2
              startupPolicy: %s
              leaderWorkerTemplate:
                size: 4
                %s
                leaderTemplate:
                  metadata: {annotations: {%s}}
                  spec:
                    containers: [{name: l, image: x, resources: {limits: {nvidia.com/gpu: "4"}}}]
                workerTemplate:
                  metadata: {annotations: {%s}}
                  spec:
                    containers: [{name: w, image: x, resources: {limits: {nvidia.com/gpu: "4"}}}]
            """;

    static final String SUBGROUPS = "subGroupPolicy: {subGroupSize: 2}";

    private static String lws(String meta, String subGroups, String template) {
        return lws(meta, "LeaderCreated", subGroups, template);
    }

    private static String lws(String meta, String startup, String subGroups, String template) {
        return LWS.formatted(meta, startup, subGroups, template, template);
    }

    static Stream<Arguments> dialects() {
        String kueue = Dialects.KUEUE_REQUIRED + ": " + RACK + ", " + Dialects.KUEUE_SLICE_REQUIRED + ": " + CLIQUE
                + ", " + Dialects.KUEUE_SLICE_SIZE + ": \"2\"";
        String kai = Dialects.KAI_SEGMENT_SIZE + ": \"2\", " + Dialects.KAI_SEGMENT_REQUIRED + ": " + CLIQUE;
        return Stream.of(
                Arguments.of("Kueue", lws("", SUBGROUPS, kueue)),
                Arguments.of(
                        "KAI",
                        lws(Dialects.KAI_REQUIRED + ": " + RACK + ", kai.scheduler/topology: t", SUBGROUPS, kai)),
                Arguments.of(
                        "LeaderWorkerSet",
                        lws(
                                Dialects.LWS_EXCLUSIVE + ": " + RACK + ", " + Dialects.LWS_SUBGROUP_EXCLUSIVE + ": "
                                        + CLIQUE,
                                SUBGROUPS,
                                "")),
                Arguments.of("Kueue, without the LWS's own subgroups", lws("", "", kueue)),
                Arguments.of(
                        "KAI, without the LWS's own subgroups", lws(Dialects.KAI_REQUIRED + ": " + RACK, "", kai)));
    }

    private static TranslationResult translate(String yaml) {
        List<HasMetadata> objects = Fixtures.objects(yaml);
        return TranslationResult.of(Fixtures.translator(), objects, TIERS, Fixtures.lookup(objects));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void theSameLeaderWorkerSetInAnotherDialectGetsTheSamePodGroups(String name, String yaml) {
        boolean ownSubgroups = yaml.contains(SUBGROUPS);
        // with exclusive placement LWS makes a group's workers once its leader is bound: the leader starts first, as
        // under LeaderReady
        TranslationResult ours = translate(lws(
                "topobridge.io/highest-tier: rack, topobridge.io/subgroup-highest-tier: \"1\"",
                yaml.contains(Dialects.LWS_EXCLUSIVE) ? "LeaderReady" : "LeaderCreated",
                ownSubgroups ? SUBGROUPS : "",
                ""));
        TranslationResult theirs = translate(yaml);
        assertThat(theirs.findings()).noneMatch(f -> f.severity() != Severity.INFO);
        assertThat(theirs.podGroups()).hasSize(2);
        if (ownSubgroups) {
            assertThat(theirs.podGroups()).isEqualTo(ours.podGroups());
            assertThat(theirs.podGroups().get(0).spec().getMinMember())
                    .isEqualTo(yaml.contains(Dialects.LWS_EXCLUSIVE) ? 1 : 4);
            return;
        }
        // without subgroups of its own, the LWS's groups are cut into slices by worker index
        for (int g = 0; g < 2; g++) {
            DesiredPodGroup pg = theirs.podGroups().get(g);
            DesiredPodGroup own = ours.podGroups().get(g);
            assertThat(pg.name()).isEqualTo(own.name());
            assertThat(pg.spec().getMinMember())
                    .isEqualTo(own.spec().getMinMember())
                    .isEqualTo(4);
            assertThat(pg.spec().getMinResources()).isEqualTo(own.spec().getMinResources());
            assertThat(pg.spec().getNetworkTopology()).isEqualTo(own.spec().getNetworkTopology());
            assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(2);
            SubGroupPolicySpec slices = pg.spec().getSubGroupPolicy().get(0);
            assertThat(slices.getMatchLabelKeys()).containsExactly(Slices.LABEL);
            assertThat(slices.getSubGroupSize()).isEqualTo(2);
            assertThat(slices.getNetworkTopology().getHighestTierAllowed()).isEqualTo(1);
            assertThat(slices.getLabelSelector().getMatchExpressions())
                    .extracting(r -> r.getKey())
                    .containsExactly("leaderworkerset.sigs.k8s.io/worker-index", Slices.LABEL);
        }
    }

    @Test
    void podsOfASlicedGangAreLabelledWithTheirSliceAtAdmission() {
        List<HasMetadata> objects = Fixtures.objects(lws(
                Dialects.KAI_REQUIRED + ": " + RACK,
                "",
                Dialects.KAI_SEGMENT_SIZE + ": \"2\", " + Dialects.KAI_SEGMENT_REQUIRED + ": " + CLIQUE));
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: tp-1-%s
                  namespace: llm
                  labels: {leaderworkerset.sigs.k8s.io/name: tp, leaderworkerset.sigs.k8s.io/group-index: "1"%s}
                  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: tp-1, uid: s1, controller: true}]
                """;
        var translator = Fixtures.translator();
        var lookup = Fixtures.lookup(objects);
        var labelled = translator
                .tie(
                        Fixtures.pod(pod.formatted("3", ", leaderworkerset.sigs.k8s.io/worker-index: \"3\"")),
                        TIERS,
                        lookup)
                .assigned();
        assertThat(labelled).hasValueSatisfying(a -> {
            assertThat(a.podGroupName()).isEqualTo("tb-lws-tp-1");
            assertThat(a.labels()).containsEntry(Slices.LABEL, "1");
        });
        // before LWS's webhook labelled it, the worker's index is the ordinal in its name
        assertThat(translator
                        .tie(Fixtures.pod(pod.formatted("2", "")), TIERS, lookup)
                        .assigned())
                .hasValueSatisfying(a -> assertThat(a.labels()).containsEntry(Slices.LABEL, "1"));
        assertThat(translator
                        .tie(Fixtures.pod(pod.formatted("1", "")), TIERS, lookup)
                        .assigned())
                .hasValueSatisfying(a -> assertThat(a.labels()).containsEntry(Slices.LABEL, "0"));
    }

    static final String STS = """
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db, namespace: llm, uid: u}
            spec:
              replicas: %d
              podManagementPolicy: Parallel
              selector: {matchLabels: {a: b}}
              template:
                metadata: {labels: {a: b}, annotations: {%s}}
                spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}
            """;

    @Test
    void aStatefulSetIsCutIntoSlicesByItsOrdinals() {
        String kueue = Dialects.KUEUE_PREFERRED + ": " + RACK + ", " + Dialects.KUEUE_SLICE_REQUIRED + ": " + CLIQUE
                + ", " + Dialects.KUEUE_SLICE_SIZE + ": \"2\"";
        List<HasMetadata> objects = Fixtures.objects(STS.formatted(4, kueue));
        TranslationResult result =
                TranslationResult.of(Fixtures.translator(), objects, TIERS, Fixtures.lookup(objects));
        assertThat(result.findings()).isEmpty();
        DesiredPodGroup pg = result.podGroups().get(0);
        assertThat(pg.spec().getNetworkTopology().getMode())
                .isEqualTo(io.topobridge.volcano.model.NetworkTopologySpec.ModeEnum.SOFT);
        assertThat(pg.spec().getSubGroupPolicy()).singleElement().satisfies(p -> {
            assertThat(p.getSubGroupSize()).isEqualTo(2);
            assertThat(p.getNetworkTopology().getMode())
                    .isEqualTo(io.topobridge.volcano.model.NetworkTopologySpec.ModeEnum.HARD);
            assertThat(p.getLabelSelector().getMatchExpressions().get(0).getKey())
                    .isEqualTo("apps.kubernetes.io/pod-index");
        });
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: db-3
                  namespace: llm
                  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: u, controller: true}]
                """;
        assertThat(Fixtures.translator()
                        .tie(Fixtures.pod(pod), TIERS, Fixtures.lookup(objects))
                        .assigned())
                .hasValueSatisfying(a -> assertThat(a.labels()).isEqualTo(Map.of(Slices.LABEL, "1")));

        TranslationResult uneven = TranslationResult.of(
                Fixtures.translator(), Fixtures.objects(STS.formatted(5, kueue)), TIERS, Fixtures.lookup(List.of()));
        assertThat(uneven.podGroups()).isEmpty();
        assertThat(uneven.findings())
                .anySatisfy(f -> assertThat(f.message()).contains("slices of 2 pods do not divide the 5 pods"));
    }

    static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: llm, uid: u, annotations: {%s}}
            spec:
              replicas: 4
              selector: {matchLabels: {a: b}}
              template:
                metadata: {labels: {a: b}, annotations: {%s}}
                spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}
            """;

    @Test
    void slicesOfPodsWithoutAnIndexAreRefusedWhenRequiredAndIgnoredWhenPreferred() {
        String required = Dialects.KAI_SEGMENT_SIZE + ": \"2\", " + Dialects.KAI_SEGMENT_REQUIRED + ": " + CLIQUE;
        TranslationResult refused = translate(DEPLOYMENT.formatted(Dialects.KAI_REQUIRED + ": " + RACK, required));
        assertThat(refused.podGroups()).isEmpty();
        assertThat(refused.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.NO_POD_INDEX);
            assertThat(f.isRejection()).isTrue();
            assertThat(f.message()).contains("Deployment").contains("slices of 2 pods need each pod's index");
        });

        TranslationResult ignored = translate(
                DEPLOYMENT.formatted(Dialects.KAI_REQUIRED + ": " + RACK, required.replace("required", "preferred")));
        assertThat(ignored.podGroups())
                .singleElement()
                .satisfies(pg -> assertThat(pg.spec().getSubGroupPolicy()).isNull());
        assertThat(ignored.findings()).extracting(Finding::reason).contains(WorkloadReason.NO_POD_INDEX);

        TranslationResult named = translate(DEPLOYMENT.formatted(
                Dialects.KAI_REQUIRED + ": " + RACK,
                required + ", " + Dialects.KAI_POD_INDEX_LABEL + ": example.com/rank"));
        assertThat(named.findings()).isEmpty();
        assertThat(named.podGroups().get(0).spec().getSubGroupPolicy())
                .singleElement()
                .satisfies(p -> assertThat(p.getLabelSelector()
                                .getMatchExpressions()
                                .get(0)
                                .getKey())
                        .isEqualTo("example.com/rank"));
    }

    @Test
    void aKueueWorkloadIsLeftToKueue() {
        String yaml = STS.formatted(2, Dialects.KUEUE_REQUIRED + ": " + RACK)
                .replace(
                        "metadata: {name: db, namespace: llm, uid: u}",
                        "metadata: {name: db, namespace: llm, uid: u, labels: {kueue.x-k8s.io/queue-name: q}}");
        TranslationResult result = translate(yaml);
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.LEFT_TO_OTHER_SCHEDULER);
            assertThat(f.message()).contains("Kueue manages it");
        });
    }
}

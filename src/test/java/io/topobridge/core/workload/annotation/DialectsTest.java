package io.topobridge.core.workload.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadReason;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every other scheduler's key read as the bridge's own setting, and every way it can be wrong. */
class DialectsTest {

    static final String CLIQUE = Fixtures.CLIQUE;
    static final String RACK = Fixtures.RACK;
    static final String SPINE = Fixtures.SPINE;
    static final TierCatalog TIERS = Fixtures.LABELLED_TIERS;

    private static final ObjectRef LWS =
            new ObjectRef("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "llm", "vllm", "u1");

    private static AnnotationSource meta(Map<String, String> annotations) {
        return new AnnotationSource(LWS, "metadata", annotations, Map.of(), null);
    }

    private static AnnotationSource template(Map<String, String> annotations) {
        return new AnnotationSource(LWS, "worker template", annotations, Map.of(), null);
    }

    private static ParsedIntent parse(AnnotationSource... sources) {
        return AnnotationParser.parse(List.of(sources), TIERS);
    }

    /** What one key (with what it needs beside it) means: gang tier and mode, subgroup tier and mode, slice size. */
    static Stream<Arguments> keys() {
        return Stream.of(
                Arguments.of(
                        Dialects.KUEUE_REQUIRED, Map.of(Dialects.KUEUE_REQUIRED, RACK), 2, "HARD", null, null, null),
                Arguments.of(
                        Dialects.KUEUE_PREFERRED, Map.of(Dialects.KUEUE_PREFERRED, SPINE), 3, "SOFT", null, null, null),
                Arguments.of(
                        Dialects.KUEUE_SLICE_REQUIRED + " + " + Dialects.KUEUE_SLICE_SIZE,
                        Map.of(Dialects.KUEUE_SLICE_REQUIRED, CLIQUE, Dialects.KUEUE_SLICE_SIZE, "4"),
                        null,
                        null,
                        1,
                        "HARD",
                        4),
                Arguments.of(Dialects.KAI_REQUIRED, Map.of(Dialects.KAI_REQUIRED, RACK), 2, "HARD", null, null, null),
                Arguments.of(Dialects.KAI_PREFERRED, Map.of(Dialects.KAI_PREFERRED, RACK), 2, "SOFT", null, null, null),
                Arguments.of(
                        Dialects.KAI_SEGMENT_REQUIRED + " + " + Dialects.KAI_SEGMENT_SIZE,
                        Map.of(Dialects.KAI_SEGMENT_REQUIRED, CLIQUE, Dialects.KAI_SEGMENT_SIZE, "2"),
                        null,
                        null,
                        1,
                        "HARD",
                        2),
                Arguments.of(
                        Dialects.KAI_SEGMENT_PREFERRED + " + " + Dialects.KAI_SEGMENT_SIZE,
                        Map.of(Dialects.KAI_SEGMENT_PREFERRED, RACK, Dialects.KAI_SEGMENT_SIZE, "+8"),
                        null,
                        null,
                        2,
                        "SOFT",
                        8),
                Arguments.of(
                        Dialects.LWS_EXCLUSIVE,
                        Map.of(Dialects.LWS_EXCLUSIVE, " " + RACK),
                        2,
                        "HARD",
                        null,
                        null,
                        null),
                Arguments.of(
                        Dialects.LWS_SUBGROUP_EXCLUSIVE,
                        Map.of(Dialects.LWS_SUBGROUP_EXCLUSIVE, CLIQUE),
                        null,
                        null,
                        1,
                        "HARD",
                        null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keys")
    void eachKeyGivesItsSetting(
            String name,
            Map<String, String> annotations,
            Integer tier,
            String mode,
            Integer subTier,
            String subMode,
            Integer slice) {
        ParsedIntent parsed = parse(template(annotations));
        assertThat(parsed.findings()).isEmpty();
        GangIntent intent = parsed.intent();
        assertThat(intent.managed()).isTrue();
        assertThat(intent.highestTier()).isEqualTo(tier);
        assertThat(intent.mode()).isEqualTo(mode == null ? null : TopologyMode.valueOf(mode));
        assertThat(intent.subgroupTier()).isEqualTo(subTier);
        assertThat(intent.subgroupMode()).isEqualTo(subMode == null ? null : TopologyMode.valueOf(subMode));
        assertThat(intent.sliceSize()).isEqualTo(slice);
    }

    @Test
    void kaiPodIndexLabelNamesTheIndexOfTheSegments() {
        ParsedIntent parsed = parse(
                meta(Map.of(Dialects.KAI_REQUIRED, SPINE)),
                template(Map.of(
                        Dialects.KAI_SEGMENT_REQUIRED, RACK,
                        Dialects.KAI_SEGMENT_SIZE, "4",
                        Dialects.KAI_POD_INDEX_LABEL, "example.com/rank")));
        assertThat(parsed.findings()).isEmpty();
        assertThat(parsed.intent().podIndexLabel()).isEqualTo("example.com/rank");
        assertThat(parsed.intent().highestTier()).isEqualTo(3);
        assertThat(parsed.intent().subgroupTier()).isEqualTo(2);
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(
                        "a label no tier reads",
                        Map.of(Dialects.KUEUE_REQUIRED, "example.com/zone"),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(
                                Dialects.KUEUE_REQUIRED + "=\"example.com/zone\"",
                                "no tier reads node label",
                                "1=" + CLIQUE,
                                "2=" + RACK)),
                Arguments.of(
                        "not a label key",
                        Map.of(Dialects.KAI_REQUIRED, "rack please"),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(Dialects.KAI_REQUIRED + "=\"rack please\"", "not a node label key")),
                Arguments.of(
                        "an empty value",
                        Map.of(Dialects.LWS_EXCLUSIVE, ""),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(Dialects.LWS_EXCLUSIVE + "=\"\"", "not a node label key")),
                Arguments.of(
                        "a slice topology without its size",
                        Map.of(Dialects.KUEUE_SLICE_REQUIRED, RACK),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(
                                Dialects.KUEUE_SLICE_REQUIRED + "=\"" + RACK + "\"",
                                "need " + Dialects.KUEUE_SLICE_SIZE)),
                Arguments.of(
                        "a segment size without its topology",
                        Map.of(Dialects.KAI_SEGMENT_SIZE, "4"),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(Dialects.KAI_SEGMENT_SIZE + "=\"4\"", Dialects.KAI_SEGMENT_REQUIRED)),
                Arguments.of(
                        "a slice size of zero",
                        Map.of(Dialects.KUEUE_SLICE_REQUIRED, RACK, Dialects.KUEUE_SLICE_SIZE, "0"),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(Dialects.KUEUE_SLICE_SIZE + "=\"0\"", "at least 1")),
                Arguments.of(
                        "a slice size that is no number",
                        Map.of(Dialects.KUEUE_SLICE_REQUIRED, RACK, Dialects.KUEUE_SLICE_SIZE, "4.5"),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(Dialects.KUEUE_SLICE_SIZE + "=\"4.5\"", "whole number")),
                Arguments.of(
                        "a pod index label that is no label key",
                        Map.of(Dialects.KAI_POD_INDEX_LABEL, "-rank-", Dialects.KAI_REQUIRED, RACK),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(Dialects.KAI_POD_INDEX_LABEL + "=\"-rank-\"", "not a label key")),
                Arguments.of(
                        "slices above the gang's tier",
                        Map.of(
                                Dialects.KUEUE_REQUIRED, RACK,
                                Dialects.KUEUE_SLICE_REQUIRED, SPINE,
                                Dialects.KUEUE_SLICE_SIZE, "2"),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(Dialects.KUEUE_SLICE_REQUIRED, "above the gang's highest tier 2")),
                Arguments.of(
                        "Kueue's required and preferred together",
                        Map.of(Dialects.KUEUE_REQUIRED, RACK, Dialects.KUEUE_PREFERRED, RACK),
                        WorkloadReason.CONFLICTING_ANNOTATIONS,
                        List.of("conflicting values for the topology mode", Dialects.KUEUE_PREFERRED)),
                Arguments.of(
                        "a very long value is cut",
                        Map.of(Dialects.KUEUE_REQUIRED, "x".repeat(5000)),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(Dialects.KUEUE_REQUIRED + "=\"xxxx")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void badValuesAreRefusedNamingObjectKeyAndValue(
            String name, Map<String, String> annotations, WorkloadReason reason, List<String> expected) {
        ParsedIntent parsed = parse(template(annotations));
        assertThat(parsed.rejected()).isTrue();
        assertThat(parsed.findings()).anySatisfy(f -> {
            assertThat(f.reason()).isEqualTo(reason);
            assertThat(f.severity()).isEqualTo(Severity.REJECTED);
            assertThat(f.object()).isEqualTo(LWS);
            assertThat(f.message()).contains(LWS.toString());
            expected.forEach(part -> assertThat(f.message()).contains(part));
            assertThat(f.message().length()).isLessThan(1200);
        });
    }

    @Test
    void twoDialectsThatDisagreeConflictAndEqualMeaningsAgree() {
        ParsedIntent conflict =
                parse(meta(Map.of(Dialects.LWS_EXCLUSIVE, RACK)), template(Map.of(Dialects.KUEUE_REQUIRED, SPINE)));
        assertThat(conflict.rejected()).isTrue();
        assertThat(conflict.findings())
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .contains("conflicting values for the highest tier")
                        .contains(Dialects.LWS_EXCLUSIVE + "=\"" + RACK + "\"")
                        .contains(Dialects.KUEUE_REQUIRED + "=\"" + SPINE + "\""));

        ParsedIntent agree = parse(
                meta(Map.of(Dialects.LWS_EXCLUSIVE, RACK, "topobridge.io/highest-tier", "rack")),
                template(Map.of(Dialects.KUEUE_REQUIRED, RACK, Dialects.KAI_REQUIRED, RACK)));
        assertThat(agree.findings()).isEmpty();
        assertThat(agree.intent().highestTier()).isEqualTo(2);
        assertThat(agree.intent().effectiveMode()).isEqualTo(TopologyMode.HARD);
    }

    @Test
    void aDialectThatDisagreesWithOursConflicts() {
        ParsedIntent parsed = parse(meta(Map.of("topobridge.io/mode", "soft", Dialects.KAI_REQUIRED, RACK)));
        assertThat(parsed.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.CONFLICTING_ANNOTATIONS);
            assertThat(f.message()).contains("topobridge.io/mode=\"soft\"").contains(Dialects.KAI_REQUIRED);
        });
    }

    @Test
    void kaiPreferenceNextToItsRequirementIsIgnoredAndSaid() {
        ParsedIntent parsed = parse(meta(
                Map.of(Dialects.KAI_REQUIRED, SPINE, Dialects.KAI_PREFERRED, RACK, "kai.scheduler/topology", "t")));
        assertThat(parsed.rejected()).isFalse();
        assertThat(parsed.intent().highestTier()).isEqualTo(3);
        assertThat(parsed.intent().mode()).isEqualTo(TopologyMode.HARD);
        assertThat(parsed.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.FOREIGN_KEY_IGNORED);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.message()).contains(Dialects.KAI_PREFERRED + "=\"" + RACK + "\"");
        });
    }

    static Stream<Arguments> otherSchedulers() {
        return Stream.of(
                Arguments.of(
                        "Kueue's queue on the workload",
                        new AnnotationSource(
                                LWS,
                                "metadata",
                                Map.of(Dialects.LWS_EXCLUSIVE, RACK),
                                Map.of(Dialects.KUEUE_QUEUE_LABEL, "team-a"),
                                null),
                        "Kueue manages it"),
                Arguments.of(
                        "Kueue's queue on the pod template",
                        new AnnotationSource(
                                LWS,
                                "worker template",
                                Map.of(Dialects.KUEUE_REQUIRED, RACK),
                                Map.of(Dialects.KUEUE_QUEUE_LABEL, "team-a"),
                                null),
                        "Kueue manages it"),
                Arguments.of(
                        "another scheduler's name",
                        new AnnotationSource(
                                LWS, "worker template", Map.of(Dialects.KAI_REQUIRED, RACK), Map.of(), "kai-scheduler"),
                        "names scheduler \"kai-scheduler\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("otherSchedulers")
    void anotherSchedulersWorkloadIsLeftToIt(String name, AnnotationSource source, String why) {
        ParsedIntent parsed = parse(source);
        assertThat(parsed.intent().managed()).isFalse();
        assertThat(parsed.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.LEFT_TO_OTHER_SCHEDULER);
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.message()).contains(why);
        });
        ParsedIntent ours = parse(
                source,
                new AnnotationSource(LWS, "metadata", Map.of("topobridge.io/highest-tier", "1"), Map.of(), null));
        assertThat(ours.intent().managed()).isTrue();
        assertThat(ours.intent().highestTier())
                .as("the bridge's own keys still hold")
                .isEqualTo(1);
    }

    @Test
    void volcanosOwnSchedulerNamesAreVolcanos() {
        for (String scheduler : new String[] {null, "", "default-scheduler", "volcano"}) {
            ParsedIntent parsed = parse(new AnnotationSource(
                    LWS, "worker template", Map.of(Dialects.KAI_REQUIRED, RACK), Map.of(), scheduler));
            assertThat(parsed.findings()).as(String.valueOf(scheduler)).isEmpty();
            assertThat(parsed.intent().highestTier()).isEqualTo(2);
        }
    }

    @Test
    void unknownTiersAndTiersWithoutLabelKeysWaitInsteadOfRefusing() {
        var source = List.of(template(Map.of(Dialects.KUEUE_REQUIRED, RACK)));
        assertThat(AnnotationParser.parse(source, TierCatalog.EMPTY).waitingForTiers())
                .isTrue();
        // a catalog of bare tiers (HyperNodes of other sources) knows no label keys
        var fromHyperNodes =
                TierCatalog.of(List.of(new TierCatalog.Tier(1, "nvlink"), new TierCatalog.Tier(2, "rack")), List.of());
        assertThat(AnnotationParser.parse(source, fromHyperNodes).waitingForTiers())
                .isTrue();
    }

    @Test
    void unannotatedAndOtherKeysAreNotManaged() {
        ParsedIntent parsed = parse(meta(Map.of("kai.scheduler/topology", "cluster-topology", "team", "a")));
        assertThat(parsed.intent().managed()).isFalse();
        assertThat(parsed.findings()).isEmpty();
        assertThat(AnnotationParser.managed(List.of(template(Map.of(Dialects.KUEUE_REQUIRED, RACK)))))
                .as("the namespace opt-in check counts only the bridge's own keys")
                .isFalse();
    }

    @Test
    void everyKeyOfTheTableIsOneOfTheDocumentedOnes() {
        assertThat(tableKeys())
                .containsExactlyInAnyOrder(
                        Dialects.KUEUE_REQUIRED,
                        Dialects.KUEUE_PREFERRED,
                        Dialects.KUEUE_SLICE_REQUIRED,
                        Dialects.KUEUE_SLICE_SIZE,
                        Dialects.KAI_REQUIRED,
                        Dialects.KAI_PREFERRED,
                        Dialects.KAI_SEGMENT_REQUIRED,
                        Dialects.KAI_SEGMENT_PREFERRED,
                        Dialects.KAI_SEGMENT_SIZE,
                        Dialects.KAI_POD_INDEX_LABEL,
                        Dialects.LWS_EXCLUSIVE,
                        Dialects.LWS_SUBGROUP_EXCLUSIVE);
        assertThat(tableKeys())
                .allSatisfy(k ->
                        assertThat(AnnotationParser.relevant(Map.of(k, "v"))).containsKey(k));
    }

    private static List<String> tableKeys() {
        return Arrays.stream(Dialects.Setting.values())
                .flatMap(s -> Dialects.keys(s).stream())
                .toList();
    }
}

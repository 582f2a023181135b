package io.topobridge.core.workload.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.recovery.DomainLossPolicy;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadReason;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every bad value is refused with a message naming object, key and value; good values parse to numbers. */
class AnnotationParserTest {

    private static final ObjectRef DEPLOY = new ObjectRef("apps/v1", "Deployment", "llm", "vllm", "u1");
    private static final ObjectRef OTHER = new ObjectRef("apps/v1", "Deployment", "llm", "decode", "u2");

    private static AnnotationSource meta(Map<String, String> annotations) {
        return AnnotationSource.of(DEPLOY, "metadata", annotations);
    }

    private static AnnotationSource template(Map<String, String> annotations) {
        return AnnotationSource.of(DEPLOY, "pod template", annotations);
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(
                        "unknown tier name",
                        Map.of("topobridge.io/highest-tier", "spine2"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of(
                                "topobridge.io/highest-tier=\"spine2\"",
                                "unknown tier name",
                                "known tiers 1=nvlink, 2=rack, 3=spine")),
                Arguments.of(
                        "tier above the top",
                        Map.of("topobridge.io/highest-tier", "4"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/highest-tier=\"4\"", "tier 4 is above the top tier 3")),
                Arguments.of(
                        "tier zero",
                        Map.of("topobridge.io/highest-tier", "0"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("=\"0\"", "start at 1")),
                Arguments.of(
                        "negative tier",
                        Map.of("topobridge.io/highest-tier", "-2"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("=\"-2\"", "start at 1")),
                Arguments.of(
                        "fractional tier",
                        Map.of("topobridge.io/highest-tier", "2.5"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("=\"2.5\"", "not a whole number")),
                Arguments.of(
                        "huge tier",
                        Map.of("topobridge.io/highest-tier", "99999999999999999999"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("above the top tier 3")),
                Arguments.of(
                        "empty tier",
                        Map.of("topobridge.io/highest-tier", " "),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/highest-tier=\" \"", "empty value")),
                Arguments.of(
                        "bad mode",
                        Map.of("topobridge.io/highest-tier", "2", "topobridge.io/mode", "strict"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/mode=\"strict\"", "hard or soft")),
                Arguments.of(
                        "bad Volcano mode on the template",
                        Map.of("topobridge.io/highest-tier", "2"),
                        Map.of("volcano.sh/network-topology-mode", "medium"),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("volcano.sh/network-topology-mode=\"medium\" (pod template)", "hard or soft")),
                Arguments.of(
                        "unknown Volcano tier",
                        Map.of("topobridge.io/queue", "q1"),
                        Map.of("volcano.sh/network-topology-highest-tier", "core"),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("volcano.sh/network-topology-highest-tier=\"core\"", "unknown tier name")),
                Arguments.of(
                        "conflicting keys",
                        Map.of("topobridge.io/highest-tier", "2"),
                        Map.of("volcano.sh/network-topology-highest-tier", "3"),
                        WorkloadReason.CONFLICTING_ANNOTATIONS,
                        List.of(
                                "conflicting values for the highest tier",
                                "topobridge.io/highest-tier=\"2\" (metadata)",
                                "volcano.sh/network-topology-highest-tier=\"3\" (pod template)")),
                Arguments.of(
                        "conflicting sources",
                        Map.of("topobridge.io/highest-tier", "2"),
                        Map.of("topobridge.io/highest-tier", "nvlink"),
                        WorkloadReason.CONFLICTING_ANNOTATIONS,
                        List.of(
                                "topobridge.io/highest-tier=\"2\" (metadata)",
                                "topobridge.io/highest-tier=\"nvlink\" (pod template)")),
                Arguments.of(
                        "conflicting modes",
                        Map.of("topobridge.io/highest-tier", "2", "topobridge.io/mode", "soft"),
                        Map.of("volcano.sh/network-topology-mode", "hard"),
                        WorkloadReason.CONFLICTING_ANNOTATIONS,
                        List.of(
                                "topology mode",
                                "topobridge.io/mode=\"soft\"",
                                "volcano.sh/network-topology-mode=\"hard\"")),
                Arguments.of(
                        "hard mode without tier",
                        Map.of("topobridge.io/mode", "hard"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/mode=\"hard\"", "needs a highest tier")),
                Arguments.of(
                        "subgroup hard mode without tier",
                        Map.of("topobridge.io/highest-tier", "2", "topobridge.io/subgroup-mode", "hard"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/subgroup-mode=\"hard\"", "needs a subgroup highest tier")),
                Arguments.of(
                        "subgroup tier above gang tier",
                        Map.of("topobridge.io/highest-tier", "nvlink", "topobridge.io/subgroup-highest-tier", "rack"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/subgroup-highest-tier=\"rack\"", "above the gang's highest tier 1")),
                Arguments.of(
                        "bad subgroup tier",
                        Map.of("topobridge.io/subgroup-highest-tier", "x"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/subgroup-highest-tier=\"x\"")),
                Arguments.of(
                        "bad group",
                        Map.of("topobridge.io/group", "Prefill_Decode"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/group=\"Prefill_Decode\"", "DNS-1123")),
                Arguments.of(
                        "bad queue",
                        Map.of("topobridge.io/queue", "Team A"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/queue=\"Team A\"", "queue name")),
                Arguments.of(
                        "conflicting queues",
                        Map.of("topobridge.io/queue", "a", "scheduling.volcano.sh/queue-name", "b"),
                        Map.of(),
                        WorkloadReason.CONFLICTING_ANNOTATIONS,
                        List.of("queue", "=\"a\"", "=\"b\"")),
                Arguments.of(
                        "min-member not a number",
                        Map.of("topobridge.io/min-member", "all"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/min-member=\"all\"", "not a whole number")),
                Arguments.of(
                        "min-member zero",
                        Map.of("topobridge.io/min-member", "0"),
                        Map.of(),
                        WorkloadReason.INVALID_ANNOTATION,
                        List.of("topobridge.io/min-member=\"0\"", "at least 1")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void refusesWithMessageNamingObjectKeyAndValue(
            String name,
            Map<String, String> metadata,
            Map<String, String> template,
            WorkloadReason reason,
            List<String> fragments) {
        ParsedIntent parsed = AnnotationParser.parse(List.of(meta(metadata), template(template)), Fixtures.TIERS);
        assertThat(parsed.rejected()).as(name).isTrue();
        Finding finding = parsed.findings().stream()
                .filter(f -> f.reason() == reason)
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + ": no " + reason + " in " + parsed.findings()));
        assertThat(finding.severity()).isEqualTo(Severity.REJECTED);
        assertThat(finding.object()).isEqualTo(DEPLOY);
        assertThat(finding.message()).startsWith("Deployment/llm/vllm: ");
        for (String fragment : fragments) {
            assertThat(finding.message()).as(name).contains(fragment);
        }
    }

    static Stream<Arguments> goodValues() {
        return Stream.of(
                Arguments.of("number", Map.of("topobridge.io/highest-tier", "3"), 3, null),
                Arguments.of("name", Map.of("topobridge.io/highest-tier", "rack"), 2, null),
                Arguments.of("padded number", Map.of("topobridge.io/highest-tier", " 2 "), 2, null),
                Arguments.of("upper-case name", Map.of("topobridge.io/highest-tier", "NVLink"), 1, null),
                Arguments.of(
                        "soft",
                        Map.of("topobridge.io/highest-tier", "2", "topobridge.io/mode", "Soft"),
                        2,
                        TopologyMode.SOFT),
                Arguments.of(
                        "Volcano keys honoured next to ours",
                        Map.of(
                                "topobridge.io/queue",
                                "q",
                                "volcano.sh/network-topology-highest-tier",
                                "spine",
                                "volcano.sh/network-topology-mode",
                                "hard"),
                        3,
                        TopologyMode.HARD),
                Arguments.of(
                        "same tier as name and number",
                        Map.of("topobridge.io/highest-tier", "rack", "volcano.sh/network-topology-highest-tier", "2"),
                        2,
                        null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodValues")
    void resolvesTiersToNumbers(String name, Map<String, String> metadata, int tier, TopologyMode mode) {
        ParsedIntent parsed = AnnotationParser.parse(List.of(meta(metadata)), Fixtures.TIERS);
        assertThat(parsed.findings()).as(name).isEmpty();
        assertThat(parsed.intent().highestTier()).isEqualTo(tier);
        assertThat(parsed.intent().mode()).isEqualTo(mode);
    }

    static Stream<Arguments> badDomainLossValues() {
        return Stream.of(
                Arguments.of(
                        "policy neither wait nor restart",
                        Map.of("topobridge.io/on-domain-loss", "reboot"),
                        List.of("topobridge.io/on-domain-loss=\"reboot\"", "must be wait or restart")),
                Arguments.of(
                        "empty policy",
                        Map.of("topobridge.io/on-domain-loss", ""),
                        List.of("topobridge.io/on-domain-loss=\"\"", "must be wait or restart")),
                Arguments.of(
                        "grace without a unit",
                        Map.of("topobridge.io/domain-loss-grace", "300"),
                        List.of("topobridge.io/domain-loss-grace=\"300\"", "not a duration", "between 1s and 24h")),
                Arguments.of(
                        "grace below the bound",
                        Map.of("topobridge.io/domain-loss-grace", "0s"),
                        List.of("=\"0s\"", "out of range", "between 1s and 24h")),
                Arguments.of(
                        "grace above the bound",
                        Map.of("topobridge.io/domain-loss-grace", "25h"),
                        List.of("=\"25h\"", "out of range")),
                Arguments.of(
                        "negative grace",
                        Map.of("topobridge.io/domain-loss-grace", "-5m"),
                        List.of("=\"-5m\"", "not a duration")),
                Arguments.of(
                        "a very long grace value is quoted bounded",
                        Map.of("topobridge.io/domain-loss-grace", "9".repeat(5000) + "s"),
                        List.of("not a duration")),
                Arguments.of(
                        "conflicting policies",
                        Map.of("topobridge.io/on-domain-loss", "restart"),
                        List.of("conflicting values for the domain-loss policy")));
    }

    /**
     * A bad {@code on-domain-loss} or {@code domain-loss-grace} is a warning naming object, key and value; the
     * default holds and nothing valid next to it is lost (the gang is still made).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("badDomainLossValues")
    void aBadDomainLossSettingWarnsAndTheDefaultHolds(
            String name, Map<String, String> metadata, List<String> fragments) {
        Map<String, String> annotations = new java.util.HashMap<>(metadata);
        annotations.put("topobridge.io/highest-tier", "nvlink");
        Map<String, String> template =
                name.startsWith("conflicting") ? Map.of("topobridge.io/on-domain-loss", "wait") : Map.of();
        ParsedIntent parsed = AnnotationParser.parse(List.of(meta(annotations), template(template)), Fixtures.TIERS);
        assertThat(parsed.rejected()).as(name).isFalse();
        assertThat(parsed.intent().highestTier()).isEqualTo(1);
        assertThat(parsed.intent().onDomainLoss()).isNull();
        assertThat(parsed.intent().domainLossGrace()).isNull();
        assertThat(parsed.findings()).hasSize(1);
        Finding finding = parsed.findings().get(0);
        assertThat(finding.severity()).isEqualTo(Severity.WARNING);
        assertThat(finding.object()).isEqualTo(DEPLOY);
        assertThat(finding.message()).startsWith("Deployment/llm/vllm: ").hasSizeLessThan(1200);
        for (String fragment : fragments) {
            assertThat(finding.message()).as(name).contains(fragment);
        }
    }

    static Stream<Arguments> goodDomainLossValues() {
        return Stream.of(
                Arguments.of("restart", "restart", null, DomainLossPolicy.RESTART, null),
                Arguments.of("wait, upper case", " Wait ", null, DomainLossPolicy.WAIT, null),
                Arguments.of("seconds", "restart", "10s", DomainLossPolicy.RESTART, java.time.Duration.ofSeconds(10)),
                Arguments.of("minutes", "restart", "5m", DomainLossPolicy.RESTART, java.time.Duration.ofMinutes(5)),
                Arguments.of(
                        "hours and minutes",
                        "restart",
                        "1h30m",
                        DomainLossPolicy.RESTART,
                        java.time.Duration.ofMinutes(90)),
                Arguments.of("the top bound", null, "24h", null, java.time.Duration.ofHours(24)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodDomainLossValues")
    void readsTheDomainLossPolicyAndGrace(
            String name, String policy, String grace, DomainLossPolicy expected, java.time.Duration expectedGrace) {
        Map<String, String> annotations = new java.util.HashMap<>();
        annotations.put("topobridge.io/highest-tier", "nvlink");
        if (policy != null) {
            annotations.put("topobridge.io/on-domain-loss", policy);
        }
        if (grace != null) {
            annotations.put("topobridge.io/domain-loss-grace", grace);
        }
        ParsedIntent parsed = AnnotationParser.parse(List.of(meta(annotations)), Fixtures.TIERS);
        assertThat(parsed.findings()).as(name).isEmpty();
        assertThat(parsed.intent().onDomainLoss()).isEqualTo(expected);
        assertThat(parsed.intent().domainLossGrace()).isEqualTo(expectedGrace);
    }

    @Test
    void softModeMayOmitTheTier() {
        ParsedIntent parsed =
                AnnotationParser.parse(List.of(meta(Map.of("topobridge.io/mode", "soft"))), Fixtures.TIERS);
        assertThat(parsed.rejected()).isFalse();
        assertThat(parsed.intent().highestTier()).isNull();
        assertThat(parsed.intent().mode()).isEqualTo(TopologyMode.SOFT);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"auto", "AUTO", " Auto "})
    void autoLeavesTheTierToTheBridge(String value) {
        ParsedIntent parsed = AnnotationParser.parse(
                List.of(meta(
                        Map.of("topobridge.io/highest-tier", value, "topobridge.io/subgroup-highest-tier", value))),
                Fixtures.TIERS);
        assertThat(parsed.findings()).isEmpty();
        assertThat(parsed.intent().autoTier()).isTrue();
        assertThat(parsed.intent().autoSubgroupTier()).isTrue();
        assertThat(parsed.intent().highestTier()).isNull();
        assertThat(parsed.intent().mode()).as("no mode written: auto picks it").isNull();
        assertThat(parsed.intent().hasSubgroupTopology()).isTrue();
    }

    @Test
    void autoWithHardModeIsNotAHardModeWithoutATier() {
        ParsedIntent parsed = AnnotationParser.parse(
                List.of(meta(Map.of("topobridge.io/highest-tier", "auto", "topobridge.io/mode", "hard"))),
                Fixtures.TIERS);
        assertThat(parsed.rejected()).isFalse();
        assertThat(parsed.intent().mode()).isEqualTo(TopologyMode.HARD);
    }

    @Test
    void autoAndANumberInTwoSourcesConflict() {
        ParsedIntent parsed = AnnotationParser.parse(
                List.of(
                        meta(Map.of("topobridge.io/highest-tier", "auto")),
                        template(Map.of("topobridge.io/highest-tier", "2"))),
                Fixtures.TIERS);
        assertThat(parsed.rejected()).isTrue();
        assertThat(parsed.findings().get(0).reason()).isEqualTo(WorkloadReason.CONFLICTING_ANNOTATIONS);
        assertThat(parsed.findings().get(0).message()).contains("\"auto\"").contains("\"2\"");
    }

    @Test
    void autoWithoutTiersWaitsForThem() {
        ParsedIntent parsed =
                AnnotationParser.parse(List.of(meta(Map.of("topobridge.io/highest-tier", "auto"))), TierCatalog.EMPTY);
        assertThat(parsed.rejected()).isTrue();
        assertThat(parsed.waitingForTiers()).isTrue();
        assertThat(parsed.findings().get(0).message())
                .contains("topobridge.io/highest-tier=\"auto\"")
                .contains("no tiers are known yet");
    }

    @Test
    void ambiguousNameListsTheCandidateNumbers() {
        var tiers = TierCatalog.of(
                List.of(
                        new TierCatalog.Tier(1, "nvlink"),
                        new TierCatalog.Tier(2, "rack"),
                        new TierCatalog.Tier(3, "rack")),
                List.of());
        ParsedIntent parsed =
                AnnotationParser.parse(List.of(meta(Map.of("topobridge.io/highest-tier", "rack"))), tiers);
        assertThat(parsed.rejected()).isTrue();
        assertThat(parsed.findings().get(0).message())
                .contains("topobridge.io/highest-tier=\"rack\"")
                .contains("ambiguous")
                .contains("2, 3");
        ParsedIntent byNumber = AnnotationParser.parse(List.of(meta(Map.of("topobridge.io/highest-tier", "3"))), tiers);
        assertThat(byNumber.intent().highestTier()).isEqualTo(3);
    }

    @Test
    void noTiersKnownIsARefusalNotASilentDefault() {
        ParsedIntent parsed =
                AnnotationParser.parse(List.of(meta(Map.of("topobridge.io/highest-tier", "1"))), TierCatalog.EMPTY);
        assertThat(parsed.rejected()).isTrue();
        assertThat(parsed.findings().get(0).message()).contains("no tiers are known");
        // well formed, only waiting for the topology: its pods may be tied to the gang already
        assertThat(parsed.waitingForTiers()).isTrue();
        ParsedIntent alsoBadMode = AnnotationParser.parse(
                List.of(meta(Map.of("topobridge.io/highest-tier", "rack", "topobridge.io/mode", "sideways"))),
                TierCatalog.EMPTY);
        assertThat(alsoBadMode.rejected()).isTrue();
        assertThat(alsoBadMode.waitingForTiers()).isFalse();
        assertThat(AnnotationParser.parse(List.of(meta(Map.of("topobridge.io/highest-tier", "9"))), Fixtures.TIERS)
                        .waitingForTiers())
                .isFalse();
    }

    @Test
    void conflictAcrossObjectsIsReportedOnEach() {
        var a = AnnotationSource.of(DEPLOY, "metadata", Map.of("topobridge.io/highest-tier", "1"));
        var b = AnnotationSource.of(OTHER, "metadata", Map.of("topobridge.io/highest-tier", "2"));
        ParsedIntent parsed = AnnotationParser.parse(List.of(a, b), Fixtures.TIERS);
        assertThat(parsed.findings()).extracting(Finding::object).containsExactly(DEPLOY, OTHER);
        assertThat(parsed.findings().get(0).message())
                .contains("topobridge.io/highest-tier=\"2\" (metadata of Deployment/llm/decode)");
    }

    /**
     * Every mistake on one object is its own finding (object, reason, key): the registry keeps one finding per
     * identity, so two mistakes sharing one would hide each other from Events, metrics and the API. Unknown keys
     * are the exception: one finding per object names them all (up to three) and counts the rest, so a flood of
     * keys is one finding.
     */
    @Test
    void eachMistakeOnOneObjectHasItsOwnIdentity() {
        var metadata = AnnotationSource.of(
                DEPLOY,
                "metadata",
                Map.of(
                        "topobridge.io/highest-tier",
                        "spine2",
                        "topobridge.io/mode",
                        "sideways",
                        "topobridge.io/queue",
                        "Team A",
                        "topobridge.io/min-member",
                        "0",
                        "topobridge.io/highest_tier",
                        "2",
                        "topobridge.io/modes",
                        "soft",
                        "topobridge.io/subgroup-mode",
                        "hard"));
        var podTemplate = AnnotationSource.of(
                DEPLOY,
                "pod template",
                Map.of(
                        "topobridge.io/highest-tier",
                        "core",
                        "volcano.sh/network-topology-mode",
                        "medium",
                        "scheduling.volcano.sh/queue-name",
                        "b"));
        var leaderTemplate = AnnotationSource.of(DEPLOY, "leader template", Map.of("topobridge.io/highest-tier", "x"));
        ParsedIntent parsed = AnnotationParser.parse(List.of(metadata, podTemplate, leaderTemplate), Fixtures.TIERS);
        // three bad tiers (one key in three sources), two bad modes, a bad queue and min-member, two unknown
        // keys (one finding), and subgroup hard mode without a subgroup tier
        assertThat(parsed.findings()).hasSize(9);
        assertThat(parsed.findings()).extracting(Finding::id).doesNotHaveDuplicates();
        assertThat(parsed.findings())
                .filteredOn(f -> f.reason() == WorkloadReason.INVALID_ANNOTATION)
                .extracting(Finding::key)
                .contains(
                        "topobridge.io/highest-tier (metadata)",
                        "topobridge.io/highest-tier (pod template)",
                        "topobridge.io/highest-tier (leader template)");
        assertThat(parsed.findings())
                .filteredOn(f -> f.reason() == WorkloadReason.UNKNOWN_ANNOTATION)
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.key()).isEmpty();
                    assertThat(f.message())
                            .contains("2 unknown topobridge.io/ annotations are ignored: "
                                    + "topobridge.io/highest_tier=\"2\" (metadata), topobridge.io/modes=\"soft\""
                                    + " (metadata); known keys: ");
                });

        // two fields in conflict at once: one finding each
        ParsedIntent conflicts = AnnotationParser.parse(
                List.of(
                        meta(Map.of("topobridge.io/highest-tier", "1", "topobridge.io/queue", "a")),
                        template(Map.of("topobridge.io/highest-tier", "2", "topobridge.io/queue", "b"))),
                Fixtures.TIERS);
        assertThat(conflicts.findings())
                .hasSize(2)
                .allMatch(f -> f.reason() == WorkloadReason.CONFLICTING_ANNOTATIONS)
                .extracting(Finding::id)
                .doesNotHaveDuplicates();
    }

    @Test
    void unknownTopobridgeKeyWarnsButKeepsTheRest() {
        ParsedIntent parsed = AnnotationParser.parse(
                List.of(meta(Map.of("topobridge.io/highest_tier", "2", "topobridge.io/queue", "q"))), Fixtures.TIERS);
        assertThat(parsed.rejected()).isFalse();
        assertThat(parsed.findings()).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.UNKNOWN_ANNOTATION);
            assertThat(f.message()).contains("topobridge.io/highest_tier=\"2\"");
        });
        assertThat(parsed.intent().queue()).isEqualTo("q");
    }

    @Test
    void volcanoKeysAloneDoNotMakeAWorkloadManaged() {
        ParsedIntent parsed = AnnotationParser.parse(
                List.of(template(Map.of("volcano.sh/network-topology-mode", "oops"))), Fixtures.TIERS);
        assertThat(parsed.intent().managed()).isFalse();
        assertThat(parsed.findings()).isEmpty();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 42, 2024})
    void randomValuesNeverThrowAndAreEitherAcceptedOrExplained(long seed) {
        var random = new Random(seed);
        String alphabet = "0123456789-+.eE abcHARDsoftrackNVLINK_/\u00e9";
        List<String> keys = List.of(
                "topobridge.io/highest-tier",
                "topobridge.io/mode",
                "topobridge.io/subgroup-highest-tier",
                "topobridge.io/subgroup-mode",
                "topobridge.io/group",
                "topobridge.io/queue",
                "topobridge.io/min-member",
                "volcano.sh/network-topology-mode",
                "volcano.sh/network-topology-highest-tier");
        for (int i = 0; i < 1000; i++) {
            String key = keys.get(random.nextInt(keys.size()));
            var value = new StringBuilder();
            int length = random.nextInt(12);
            for (int j = 0; j < length; j++) {
                value.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            var annotations = new java.util.HashMap<String, String>();
            annotations.put("topobridge.io/queue", "q");
            annotations.put(key, value.toString());
            ParsedIntent parsed = AnnotationParser.parse(List.of(meta(annotations)), Fixtures.TIERS);
            for (Finding f : parsed.findings()) {
                if (f.isRejection()) {
                    assertThat(f.message())
                            .as("seed %d value %s", seed, value)
                            .contains(f.object().toString());
                }
            }
            GangIntent intent = parsed.intent();
            if (!parsed.rejected() && intent.highestTier() != null) {
                assertThat(intent.highestTier())
                        .as("seed %d value %s", seed, value)
                        .isBetween(1, 3);
            }
            if (!parsed.rejected() && intent.effectiveMode() == TopologyMode.HARD && intent.mode() != null) {
                assertThat(intent.highestTier())
                        .as("hard needs a tier, seed %d value %s", seed, value)
                        .isNotNull();
            }
        }
    }
}

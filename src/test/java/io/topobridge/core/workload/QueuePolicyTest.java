package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.translate.TranslationResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Admins decide, tenants choose within it: the queues a namespace's workloads may use (the namespace's
 * {@code topobridge.io/allowed-queues}, else {@code topobridge.workloads.queues-without-allow-list}) and its default
 * queue (Volcano's namespace annotation), judged by the one translation the reconciler and admission share.
 */
class QueuePolicyTest {

    private static final String ALLOWED = "topobridge.io/allowed-queues";
    private static final String NS_DEFAULT = "scheduling.volcano.sh/queue-name";
    private static final WorkloadSettings DEFAULT_ONLY = Fixtures.defaultSettings();
    private static final WorkloadSettings ANY =
            Fixtures.settings("default", WorkloadSettings.UnlistedQueues.ANY, 500, 1);

    /** The workload's annotations besides a tier. */
    private static Map<String, String> workload(String... keyValues) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("topobridge.io/highest-tier", "1");
        for (int i = 0; i < keyValues.length; i += 2) {
            out.put(keyValues[i], keyValues[i + 1]);
        }
        return out;
    }

    private static TranslationResult translate(
            WorkloadSettings settings, Map<String, String> namespace, Map<String, String> annotations) {
        List<HasMetadata> objects = Fixtures.objects(
                Fixtures.namespace("team", namespace) + "---\n" + Fixtures.deployment("team", "web", 2, annotations));
        return TranslationResult.of(Fixtures.translator(settings), objects, Fixtures.TIERS, Fixtures.lookup(objects));
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // name, settings, namespace annotations, workload annotations, queue of the PodGroup or null, reason
                Arguments.of("no allow-list: the default queue", DEFAULT_ONLY, Map.of(), workload(), "default", null),
                Arguments.of(
                        "no allow-list: another queue is refused",
                        DEFAULT_ONLY,
                        Map.of(),
                        workload("topobridge.io/queue", "team-b"),
                        null,
                        WorkloadReason.QUEUE_NOT_ALLOWED),
                Arguments.of(
                        "no allow-list: naming the default is fine",
                        DEFAULT_ONLY,
                        Map.of(),
                        workload("topobridge.io/queue", "default"),
                        "default",
                        null),
                Arguments.of(
                        "no allow-list, any: another queue is taken",
                        ANY,
                        Map.of(),
                        workload("topobridge.io/queue", "team-b"),
                        "team-b",
                        null),
                Arguments.of(
                        "allow-list: a listed queue",
                        DEFAULT_ONLY,
                        Map.of(ALLOWED, "team-a, shared"),
                        workload("topobridge.io/queue", "shared"),
                        "shared",
                        null),
                Arguments.of(
                        "allow-list: an unlisted queue is refused",
                        DEFAULT_ONLY,
                        Map.of(ALLOWED, "team-a,shared"),
                        workload("topobridge.io/queue", "team-b"),
                        null,
                        WorkloadReason.QUEUE_NOT_ALLOWED),
                Arguments.of(
                        "allow-list wins over any",
                        ANY,
                        Map.of(ALLOWED, "team-a"),
                        workload("topobridge.io/queue", "team-b"),
                        null,
                        WorkloadReason.QUEUE_NOT_ALLOWED),
                Arguments.of(
                        "allow-list *: any queue",
                        DEFAULT_ONLY,
                        Map.of(ALLOWED, "*"),
                        workload("topobridge.io/queue", "team-b"),
                        "team-b",
                        null),
                Arguments.of(
                        "allow-list without the default: naming none is refused",
                        DEFAULT_ONLY,
                        Map.of(ALLOWED, "team-a"),
                        workload(),
                        null,
                        WorkloadReason.QUEUE_NOT_ALLOWED),
                Arguments.of(
                        "namespace default queue when the workload names none",
                        DEFAULT_ONLY,
                        Map.of(NS_DEFAULT, "team-a"),
                        workload(),
                        "team-a",
                        null),
                Arguments.of(
                        "namespace default beside the cluster default",
                        DEFAULT_ONLY,
                        Map.of(NS_DEFAULT, "team-a"),
                        workload("topobridge.io/queue", "default"),
                        "default",
                        null),
                Arguments.of(
                        "namespace default is allowed beside its allow-list",
                        DEFAULT_ONLY,
                        Map.of(NS_DEFAULT, "team-a", ALLOWED, "shared"),
                        workload(),
                        "team-a",
                        null),
                Arguments.of(
                        "namespace default: another queue is still refused",
                        DEFAULT_ONLY,
                        Map.of(NS_DEFAULT, "team-a"),
                        workload("topobridge.io/queue", "team-b"),
                        null,
                        WorkloadReason.QUEUE_NOT_ALLOWED),
                Arguments.of(
                        "Volcano's queue key on the workload is judged too",
                        DEFAULT_ONLY,
                        Map.of(ALLOWED, "team-a"),
                        workload(NS_DEFAULT, "team-b"),
                        null,
                        WorkloadReason.QUEUE_NOT_ALLOWED),
                Arguments.of(
                        "a namespace default that is no queue name",
                        DEFAULT_ONLY,
                        Map.of(NS_DEFAULT, "Team A"),
                        workload(),
                        null,
                        WorkloadReason.INVALID_ANNOTATION),
                Arguments.of(
                        "a namespace default that is no queue name, a queue named",
                        DEFAULT_ONLY,
                        Map.of(NS_DEFAULT, "Team A", ALLOWED, "team-a"),
                        workload("topobridge.io/queue", "team-a"),
                        "team-a",
                        null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void queuesFollowTheNamespacesPolicy(
            String name,
            WorkloadSettings settings,
            Map<String, String> namespace,
            Map<String, String> annotations,
            String queue,
            WorkloadReason reason) {
        TranslationResult result = translate(settings, namespace, annotations);
        if (queue != null) {
            assertThat(result.podGroups())
                    .as(result.findings().toString())
                    .singleElement()
                    .satisfies(pg -> assertThat(pg.spec().getQueue()).isEqualTo(queue));
            assertThat(result.findings()).isEmpty();
        } else {
            assertThat(result.podGroups()).isEmpty();
            assertThat(result.findings()).singleElement().satisfies(f -> {
                assertThat(f.reason()).isEqualTo(reason);
                assertThat(f.isRejection()).isTrue();
                assertThat(f.object().toString()).isEqualTo("Deployment/team/web");
            });
        }
    }

    @Test
    void theRefusalNamesTheObjectTheKeyTheQueueAndWhatIsAllowed() {
        Finding listed = translate(
                        DEFAULT_ONLY, Map.of(ALLOWED, "team-a,shared"), workload("topobridge.io/queue", "team-b"))
                .findings()
                .get(0);
        assertThat(listed.key()).isEqualTo("topobridge.io/queue");
        assertThat(listed.message())
                .isEqualTo(
                        "Deployment/team/web: topobridge.io/queue=\"team-b\" (metadata): queue"
                                + " \"team-b\" is not allowed here: namespace team allows topobridge.io/allowed-queues=\"team-a,shared\"");

        Finding unlisted = translate(
                        DEFAULT_ONLY, Map.of(NS_DEFAULT, "team-a"), workload("topobridge.io/queue", "team-b"))
                .findings()
                .get(0);
        assertThat(unlisted.message())
                .endsWith("queue \"team-b\" is not allowed here: namespace team has no"
                        + " topobridge.io/allowed-queues annotation, so only its default queue \"team-a\""
                        + " (scheduling.volcano.sh/queue-name) and the cluster's default queue \"default\" may be used"
                        + " (topobridge.workloads.queues-without-allow-list=default-only)");

        Finding none = translate(DEFAULT_ONLY, Map.of(ALLOWED, "team-a"), workload())
                .findings()
                .get(0);
        assertThat(none.message())
                .isEqualTo(
                        "Deployment/team/web: names no queue, and the default queue \"default\" is"
                                + " not allowed here: namespace team allows topobridge.io/allowed-queues=\"team-a\"; set topobridge.io/queue");
    }

    @Test
    void badSettingsNameTheKeyAndTheValue() {
        assertThat(WorkloadSettings.UnlistedQueues.parse(" any ")).isEqualTo(WorkloadSettings.UnlistedQueues.ANY);
        assertThat(WorkloadSettings.UnlistedQueues.parse("default-only"))
                .isEqualTo(WorkloadSettings.UnlistedQueues.DEFAULT_ONLY);
        assertThatThrownBy(() -> WorkloadSettings.UnlistedQueues.parse("all\nof them"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "topobridge.workloads.queues-without-allow-list=\"all\\nof them\": must be default-only or any");
        assertThatThrownBy(() -> Fixtures.settings("default", WorkloadSettings.UnlistedQueues.ANY, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("topobridge.workloads.max-podgroups-per-namespace=0: must be at least 1");
    }

    @Test
    void anAdminsValueWithControlCharactersCannotForgeALine() {
        // written into a double-quoted YAML scalar, so the annotation holds a real line break
        Finding finding = translate(
                        DEFAULT_ONLY,
                        Map.of(ALLOWED, "team-a\\nWARNING forged\u202e"),
                        workload("topobridge.io/queue", "team-b"))
                .findings()
                .get(0);
        assertThat(finding.message())
                .doesNotContain("\n")
                .doesNotContain("\u202e")
                .contains("\"team-a\\nWARNING forged\\u202e\"");
        assertThat(finding.line()).doesNotContain("\n");
    }

    @Test
    void eachMemberOfAGroupNamingAQueueItMayNotUseIsRefusedItself() {
        String member = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: %s, namespace: team, uid: u-%s, annotations: {topobridge.io/group: pd, topobridge.io/queue: team-b}}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}
                """;
        List<HasMetadata> objects = Fixtures.objects(Fixtures.namespace("team", Map.of(ALLOWED, "team-a")) + "---\n"
                + member.formatted("prefill", "prefill", "prefill", "prefill") + "---\n"
                + member.formatted("decode", "decode", "decode", "decode"));
        var translator = Fixtures.translator();
        var lookup = Fixtures.lookup(objects);
        TranslationResult result = TranslationResult.of(translator, objects, Fixtures.TIERS, lookup);
        assertThat(result.podGroups()).isEmpty();
        assertThat(result.findings())
                .extracting(f -> f.reason() + " " + f.object().name())
                .containsExactlyInAnyOrder("QUEUE_NOT_ALLOWED decode", "QUEUE_NOT_ALLOWED prefill");
        // admission asks about one object at a time: each is denied for its own annotation
        for (HasMetadata object : objects.subList(1, 3)) {
            assertThat(translator.validate(object, Fixtures.TIERS, lookup))
                    .extracting(Finding::reason)
                    .containsExactly(WorkloadReason.QUEUE_NOT_ALLOWED);
        }
    }

    @Test
    void podsOfAGangInAQueueItMayNotUseAreNotTiedToIt() {
        List<HasMetadata> allowed = Fixtures.objects(Fixtures.namespace("team", Map.of(ALLOWED, "team-a")) + "---\n"
                + Fixtures.deployment("team", "web", 2, workload("topobridge.io/queue", "team-a")));
        List<HasMetadata> refused = Fixtures.objects(Fixtures.namespace("team", Map.of(ALLOWED, "team-a")) + "---\n"
                + Fixtures.deployment("team", "web", 2, workload("topobridge.io/queue", "team-b")));
        Pod pod = (Pod) Fixtures.objects("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web-5d8f7c9b4-abcde
                  namespace: team
                  labels: {app: web, pod-template-hash: 5d8f7c9b4}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d8f7c9b4, uid: rs1, controller: true}]
                spec: {containers: [{name: c, image: x}]}
                """).get(0);
        var translator = Fixtures.translator();
        assertThat(translator.tie(pod, Fixtures.TIERS, Fixtures.lookup(allowed)).assigned())
                .hasValueSatisfying(a -> assertThat(a.podGroupName()).isEqualTo("tb-deploy-web"));
        assertThat(translator.tie(pod, Fixtures.TIERS, Fixtures.lookup(refused)).assigned())
                .isEmpty();
    }
}

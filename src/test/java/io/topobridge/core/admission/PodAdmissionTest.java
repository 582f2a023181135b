package io.topobridge.core.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.PodAssignment;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.testing.PendingPod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The pod as admitted, for a given gang assignment: what is stamped, what is kept, what is reported. */
class PodAdmissionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final InMemoryLookup NO_WORKLOADS = new InMemoryLookup(List.of());
    private static final PodAssignment WORKER =
            new PodAssignment("lws-a-0", "worker", Map.of("topobridge.io/subgroup", "lws-a-0"));

    /** A pending pod of namespace ml, for the cases. */
    static PendingPod pod() {
        return PendingPod.generated("web-").namespace("ml");
    }

    private static PodAdmission admission(PodAssignment assignment) {
        return new PodAdmission(
                new AdmissionSettings("volcano"), (p, t, l) -> new WorkloadTranslator.Tie(assignment, null, List.of()));
    }

    /** name, pod, assignment, expected annotations, expected labels, expected scheduler, expected outcome, finding reasons. */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "a pod of no gang passes untouched",
                        pod().scheduler("default-scheduler").build(),
                        null,
                        Map.of(),
                        Map.of(),
                        "default-scheduler",
                        PodAdmission.Outcome.UNMANAGED,
                        List.of()),
                Arguments.of(
                        "a gang pod without scheduler gets group, task-spec, labels and volcano",
                        pod().build(),
                        WORKER,
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "lws-a-0", VolcanoApi.TASK_SPEC_ANNOTATION, "worker"),
                        Map.of("topobridge.io/subgroup", "lws-a-0"),
                        "volcano",
                        PodAdmission.Outcome.ASSIGNED,
                        List.of()),
                Arguments.of(
                        "default-scheduler is replaced",
                        pod().scheduler("default-scheduler").build(),
                        WORKER,
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "lws-a-0", VolcanoApi.TASK_SPEC_ANNOTATION, "worker"),
                        Map.of("topobridge.io/subgroup", "lws-a-0"),
                        "volcano",
                        PodAdmission.Outcome.ASSIGNED,
                        List.of()),
                Arguments.of(
                        "another explicit scheduler is kept and reported",
                        pod().scheduler("kai").build(),
                        WORKER,
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "lws-a-0", VolcanoApi.TASK_SPEC_ANNOTATION, "worker"),
                        Map.of("topobridge.io/subgroup", "lws-a-0"),
                        "kai",
                        PodAdmission.Outcome.ASSIGNED,
                        List.of("ForeignScheduler")),
                Arguments.of(
                        "a foreign group name is kept and nothing else changes",
                        pod().annotation(VolcanoApi.GROUP_NAME_ANNOTATION, "theirs")
                                .scheduler("default-scheduler")
                                .build(),
                        WORKER,
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "theirs"),
                        Map.of(),
                        "default-scheduler",
                        PodAdmission.Outcome.KEPT,
                        List.of("ForeignGroupName")),
                Arguments.of(
                        "a group name without a managed gang is kept silently",
                        pod().annotation(VolcanoApi.GROUP_NAME_ANNOTATION, "theirs")
                                .build(),
                        null,
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "theirs"),
                        Map.of(),
                        null,
                        PodAdmission.Outcome.KEPT,
                        List.of()),
                Arguments.of(
                        "the adopted group name is completed with task-spec and labels",
                        pod().annotation(VolcanoApi.GROUP_NAME_ANNOTATION, "lws-a-0")
                                .scheduler("volcano")
                                .build(),
                        WORKER,
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "lws-a-0", VolcanoApi.TASK_SPEC_ANNOTATION, "worker"),
                        Map.of("topobridge.io/subgroup", "lws-a-0"),
                        "volcano",
                        PodAdmission.Outcome.ADOPTED,
                        List.of()),
                Arguments.of(
                        "the pod's own task-spec wins",
                        pod().annotation(VolcanoApi.TASK_SPEC_ANNOTATION, "mine")
                                .build(),
                        WORKER,
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "lws-a-0", VolcanoApi.TASK_SPEC_ANNOTATION, "mine"),
                        Map.of("topobridge.io/subgroup", "lws-a-0"),
                        "volcano",
                        PodAdmission.Outcome.ASSIGNED,
                        List.of()),
                Arguments.of(
                        "a conflicting subgroup label is kept and reported",
                        pod().label("topobridge.io/subgroup", "other").build(),
                        WORKER,
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "lws-a-0", VolcanoApi.TASK_SPEC_ANNOTATION, "worker"),
                        Map.of("topobridge.io/subgroup", "other"),
                        "volcano",
                        PodAdmission.Outcome.ASSIGNED,
                        List.of("SubgroupLabelConflict")),
                Arguments.of(
                        "a pod of a gang in a Kubernetes gang of its own (1.36 spec.schedulingGroup) is left untouched",
                        pod().specField("schedulingGroup", Map.of("podGroupName", "decode-0"))
                                .scheduler("default-scheduler")
                                .build(),
                        WORKER,
                        Map.of(),
                        Map.of(),
                        "default-scheduler",
                        PodAdmission.Outcome.NATIVE_GANG,
                        List.of("NativeGang")),
                Arguments.of(
                        "so is one in a 1.35 spec.workloadRef gang",
                        pod().specField("workloadRef", Map.of("name", "decode", "podGroup", "workers"))
                                .build(),
                        WORKER,
                        Map.of(),
                        Map.of(),
                        null,
                        PodAdmission.Outcome.NATIVE_GANG,
                        List.of("NativeGang")),
                Arguments.of(
                        "a pod in a Kubernetes gang that belongs to no managed gang passes without a word",
                        pod().specField("schedulingGroup", Map.of("podGroupName", "decode-0"))
                                .build(),
                        null,
                        Map.of(),
                        Map.of(),
                        null,
                        PodAdmission.Outcome.UNMANAGED,
                        List.of()),
                Arguments.of(
                        "a schedulingGroup naming no PodGroup is no gang: the pod is tied",
                        pod().specField("schedulingGroup", Map.of("podGroupName", " "))
                                .build(),
                        WORKER,
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "lws-a-0", VolcanoApi.TASK_SPEC_ANNOTATION, "worker"),
                        Map.of("topobridge.io/subgroup", "lws-a-0"),
                        "volcano",
                        PodAdmission.Outcome.ASSIGNED,
                        List.of()),
                Arguments.of(
                        "an assignment without task-spec or labels sets only group and scheduler",
                        pod().build(),
                        new PodAssignment("deploy-web", null, Map.of()),
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "deploy-web"),
                        Map.of(),
                        "volcano",
                        PodAdmission.Outcome.ASSIGNED,
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void admits(
            String name,
            Pod pod,
            PodAssignment assignment,
            Map<String, String> annotations,
            Map<String, String> labels,
            String scheduler,
            PodAdmission.Outcome outcome,
            List<String> reasons) {
        JsonNode before = JSON.valueToTree(pod);
        PodAdmission.Result result = admission(assignment).admit(pod, TierCatalog.EMPTY, NO_WORKLOADS);

        Pod admitted = result.pod();
        assertThat(orEmpty(admitted.getMetadata().getAnnotations())).isEqualTo(annotations);
        assertThat(orEmpty(admitted.getMetadata().getLabels())).isEqualTo(labels);
        assertThat(admitted.getSpec().getSchedulerName()).isEqualTo(scheduler);
        assertThat(result.outcome()).isEqualTo(outcome);
        assertThat(result.findings()).extracting(f -> f.reason().reason()).containsExactlyElementsOf(reasons);
        assertThat(result.findings())
                .allSatisfy(f -> assertThat(f.object().name()).isEqualTo("web-*"));
        assertThat((JsonNode) JSON.valueToTree(pod))
                .as("the input pod is never mutated")
                .isEqualTo(before);
    }

    @Test
    void findingsNameTheKeysAndValues() {
        Pod pod =
                pod().scheduler("kai").label("topobridge.io/subgroup", "other").build();
        List<String> messages = admission(WORKER).admit(pod, TierCatalog.EMPTY, NO_WORKLOADS).findings().stream()
                .map(Finding::message)
                .toList();
        assertThat(messages)
                .anySatisfy(
                        m -> assertThat(m).contains("kai").contains("volcano").contains("lws-a-0"));
        assertThat(messages)
                .anySatisfy(m -> assertThat(m)
                        .contains("topobridge.io/subgroup=\"other\"")
                        .contains("topobridge.io/subgroup=\"lws-a-0\""));
    }

    @Test
    void theNativeGangFindingNamesTheFieldItsGangAndTheVolcanoPodGroupItIsNotTiedTo() {
        Pod pod = pod().specField("schedulingGroup", Map.of("podGroupName", "decode-0"))
                .build();
        assertThat(admission(WORKER).admit(pod, TierCatalog.EMPTY, NO_WORKLOADS).findings())
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(io.topobridge.core.finding.Severity.WARNING);
                    assertThat(f.message())
                            .contains("spec.schedulingGroup (PodGroup \"decode-0\")")
                            .contains("not tied to PodGroup lws-a-0");
                });
    }

    @Test
    void configuredSchedulerNameIsUsed() {
        var admission = new PodAdmission(
                new AdmissionSettings("volcano-gpu"), (p, t, l) -> new WorkloadTranslator.Tie(WORKER, null, List.of()));
        assertThat(admission
                        .admit(pod().build(), TierCatalog.EMPTY, NO_WORKLOADS)
                        .pod()
                        .getSpec()
                        .getSchedulerName())
                .isEqualTo("volcano-gpu");
    }

    static IntStream seeds() {
        return IntStream.range(0, 10).map(i -> 104729 * i + 3);
    }

    /**
     * Whatever the pod and assignment, admission changes nothing but the group-name and task-spec annotations,
     * the assignment's labels and the scheduler name, and never drops or changes a value the pod had.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void changesOnlyWhatItOwnsAndKeepsWhatThePodHad(int seed) {
        Random random = new Random(seed);
        String[] keys = {
            VolcanoApi.GROUP_NAME_ANNOTATION, VolcanoApi.TASK_SPEC_ANNOTATION, "app", "topobridge.io/subgroup", "x/y"
        };
        String[] schedulers = {null, "", "default-scheduler", "volcano", "kai"};
        for (int i = 0; i < 100; i++) {
            PendingPod builder = pod().scheduler(schedulers[random.nextInt(schedulers.length)]);
            for (int k = random.nextInt(4); k > 0; k--) {
                builder.annotation(keys[random.nextInt(keys.length)], "a" + random.nextInt(2));
                builder.label(keys[2 + random.nextInt(3)], "l" + random.nextInt(2));
            }
            Pod pod = builder.build();
            PodAssignment assignment = random.nextInt(4) == 0
                    ? null
                    : new PodAssignment(
                            "a" + random.nextInt(2),
                            random.nextBoolean() ? "t" + random.nextInt(2) : null,
                            random.nextBoolean()
                                    ? Map.of("topobridge.io/subgroup", "l" + random.nextInt(2))
                                    : Map.of());
            Pod admitted = admission(assignment)
                    .admit(pod, TierCatalog.EMPTY, NO_WORKLOADS)
                    .pod();

            String context = "seed " + seed + " iteration " + i + ": " + pod + " with " + assignment;
            assertThat(withoutOwned(admitted)).as(context).isEqualTo(withoutOwned(pod));
            assertThat(orEmpty(admitted.getMetadata().getAnnotations()))
                    .as(context)
                    .containsAllEntriesOf(orEmpty(pod.getMetadata().getAnnotations()));
            assertThat(orEmpty(admitted.getMetadata().getLabels()))
                    .as(context)
                    .containsAllEntriesOf(orEmpty(pod.getMetadata().getLabels()));
            String scheduler = pod.getSpec().getSchedulerName();
            boolean replaceable = scheduler == null || scheduler.isEmpty() || "default-scheduler".equals(scheduler);
            String existing = orEmpty(pod.getMetadata().getAnnotations()).get(VolcanoApi.GROUP_NAME_ANNOTATION);
            boolean tied = assignment != null && (existing == null || existing.equals(assignment.podGroupName()));
            if (!tied || !replaceable) {
                assertThat(admitted.getSpec().getSchedulerName()).as(context).isEqualTo(scheduler);
            } else {
                assertThat(admitted.getSpec().getSchedulerName()).as(context).isEqualTo("volcano");
            }
            if (!tied) {
                assertThat((JsonNode) JSON.valueToTree(admitted)).as(context).isEqualTo(JSON.valueToTree(pod));
            }
        }
    }

    private static JsonNode withoutOwned(Pod pod) {
        ObjectNode node = JSON.valueToTree(pod);
        ((ObjectNode) node.get("metadata")).remove(List.of("annotations", "labels"));
        ((ObjectNode) node.get("spec")).remove("schedulerName");
        return node;
    }

    private static Map<String, String> orEmpty(Map<String, String> map) {
        return map == null ? Map.of() : new LinkedHashMap<>(map);
    }
}

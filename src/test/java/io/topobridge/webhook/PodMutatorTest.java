package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.restassured.response.Response;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.PodAssignment;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pod webhook over real HTTPS with a scripted gang assignment (label {@code gang=<name>} means "this pod
 * belongs to PodGroup name"): the JSON patch, applied with a strict RFC 6902 implementation, gives the pod as
 * admitted; everything else passes unchanged.
 */
class PodMutatorTest {

    private static final ConcurrentLinkedQueue<Pod> SEEN = new ConcurrentLinkedQueue<>();
    private static WebhookFixture fixture;

    /** label gang=G: PodGroup G, role from label role (task-spec), subgroup label topobridge.io/subgroup=G-role. */
    private static Optional<PodAssignment> scripted(
            Pod pod, TierCatalog tiers, io.topobridge.core.workload.WorkloadLookup lookup) {
        SEEN.add(pod);
        Map<String, String> labels = pod.getMetadata().getLabels() == null
                ? Map.of()
                : pod.getMetadata().getLabels();
        if (labels.containsKey("explode")) {
            throw new IllegalStateException(
                    "lookup failed for " + pod.getMetadata().getGenerateName());
        }
        String gang = labels.get("gang");
        if (gang == null) {
            return Optional.empty();
        }
        String role = labels.get("role");
        return Optional.of(new PodAssignment(
                gang, role, role == null ? Map.of() : Map.of("topobridge.io/subgroup", gang + "-" + role)));
    }

    @BeforeAll
    static void start() {
        var admission = new PodAdmission(
                new AdmissionSettings("volcano"),
                (pod, tiers, lookup) ->
                        new WorkloadTranslator.Tie(scripted(pod, tiers, lookup).orElse(null), null, List.of()));
        var mutator = new PodMutator(
                admission,
                new AdmissionWebhook.Context(
                        () -> TierCatalog.EMPTY,
                        new InMemoryLookup(List.of()),
                        Reviews.SERIALIZATION,
                        java.util.Set.of("kube-system")));
        fixture = new WebhookFixture(List.of(mutator));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    private static PodBuilder pod() {
        // as a ReplicaSet creates it: generateName, no name, no namespace in the object, defaulted scheduler
        return new PodBuilder()
                .withNewMetadata()
                .withGenerateName("web-7d9f-")
                .endMetadata()
                .withNewSpec()
                .withSchedulerName("default-scheduler")
                .addNewContainer()
                .withName("c")
                .withImage("i")
                .endContainer()
                .endSpec();
    }

    private static Response post(ObjectNode review) {
        return fixture.request()
                .body(review.toString())
                .post(PodMutator.PATH)
                .then()
                .statusCode(200)
                .body("response.uid", equalTo(Reviews.uid(review)))
                .body("response.allowed", equalTo(true))
                .extract()
                .response();
    }

    @Test
    void aGangPodWithoutAnnotationsOrLabelsGetsWholeMapsAdded() {
        Pod pod = pod().build();
        pod.getMetadata().setLabels(null);
        ObjectNode review = Reviews.podCreate("ml", pod);
        // the label map is absent: the scripted gang comes from an annotation-free pod via a fixed assignment
        ((ObjectNode) review.path("request").path("object").path("metadata"))
                .putObject("labels")
                .put("gang", "g1")
                .put("role", "leader");
        Response response = post(review);

        JsonNode patch = Reviews.patch(response);
        assertThat(patch)
                .contains(Reviews.JSON.valueToTree(Map.of(
                        "op",
                        "add",
                        "path",
                        "/metadata/annotations",
                        "value",
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "g1", VolcanoApi.TASK_SPEC_ANNOTATION, "leader"))));
        assertThat(patch)
                .contains(Reviews.JSON.valueToTree(
                        Map.of("op", "add", "path", "/metadata/labels/topobridge.io~1subgroup", "value", "g1-leader")));
        assertThat(patch)
                .contains(Reviews.JSON.valueToTree(
                        Map.of("op", "replace", "path", "/spec/schedulerName", "value", "volcano")));
        assertThat(patch).hasSize(3);

        Pod admitted = Reviews.admittedPod(review, response);
        assertThat(admitted.getMetadata().getAnnotations())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(VolcanoApi.GROUP_NAME_ANNOTATION, "g1", VolcanoApi.TASK_SPEC_ANNOTATION, "leader"));
        assertThat(admitted.getMetadata().getLabels())
                .containsEntry("topobridge.io/subgroup", "g1-leader")
                .containsEntry("gang", "g1")
                .containsEntry("role", "leader");
        assertThat(admitted.getSpec().getSchedulerName()).isEqualTo("volcano");
        assertThat(admitted.getMetadata().getNamespace())
                .as("the patch never adds the namespace")
                .isNull();
    }

    @Test
    void existingAnnotationsAreKeptAndKeysWithSlashesAreEscaped() {
        Pod pod = pod().editMetadata()
                .addToAnnotations("prometheus.io/scrape", "true")
                .addToLabels("gang", "g2")
                .endMetadata()
                .build();
        ObjectNode review = Reviews.podCreate("ml", pod);
        Response response = post(review);
        assertThat(Reviews.patch(response))
                .contains(Reviews.JSON.valueToTree(Map.of(
                        "op", "add", "path", "/metadata/annotations/scheduling.k8s.io~1group-name", "value", "g2")));
        Pod admitted = Reviews.admittedPod(review, response);
        assertThat(admitted.getMetadata().getAnnotations())
                .containsEntry("prometheus.io/scrape", "true")
                .containsEntry(VolcanoApi.GROUP_NAME_ANNOTATION, "g2")
                .doesNotContainKey(VolcanoApi.TASK_SPEC_ANNOTATION);
    }

    @Test
    void fieldsTheModelDoesNotKnowSurviveAndArePatchedAround() {
        ObjectNode pod = (ObjectNode) Reviews.toJson(
                pod().editMetadata().addToLabels("gang", "g7").endMetadata().build());
        ((ObjectNode) pod.path("spec"))
                .put("futurePodField", "kept")
                .putObject("resources")
                .put("cpu", "1");
        ((ObjectNode) pod.path("spec").path("containers").get(0)).put("futureContainerField", 7);
        ((ObjectNode) pod.path("metadata")).put("futureMetaField", true);
        ObjectNode review = Reviews.podCreate("ml", pod);
        Response response = post(review);
        JsonNode admitted = io.topobridge.core.admission.Rfc6902.apply(
                Reviews.patch(response), review.path("request").path("object"));
        assertThat(admitted.path("spec").path("futurePodField").asText()).isEqualTo("kept");
        assertThat(admitted.path("spec").path("resources").path("cpu").asText()).isEqualTo("1");
        assertThat(admitted.path("spec")
                        .path("containers")
                        .get(0)
                        .path("futureContainerField")
                        .asInt())
                .isEqualTo(7);
        assertThat(admitted.path("metadata").path("futureMetaField").asBoolean())
                .isTrue();
        assertThat(Reviews.patch(response))
                .allSatisfy(op -> assertThat(PodMutator.owned(new io.topobridge.core.admission.JsonPatch.Operation(
                                op.path("op").asText(), op.path("path").asText(), op.get("value"))))
                        .isTrue());
    }

    @Test
    void onlyOwnedPathsMayBePatched() {
        assertThat(PodMutator.owned(new io.topobridge.core.admission.JsonPatch.Operation(
                        "add", "/metadata/annotations/a~1b", null)))
                .isTrue();
        assertThat(PodMutator.owned(
                        new io.topobridge.core.admission.JsonPatch.Operation("replace", "/spec/schedulerName", null)))
                .isTrue();
        assertThat(PodMutator.owned(
                        new io.topobridge.core.admission.JsonPatch.Operation("remove", "/metadata/labels/x", null)))
                .isFalse();
        assertThat(PodMutator.owned(
                        new io.topobridge.core.admission.JsonPatch.Operation("replace", "/spec/containers", null)))
                .isFalse();
        assertThat(PodMutator.owned(new io.topobridge.core.admission.JsonPatch.Operation("replace", "/metadata", null)))
                .isFalse();
        assertThat(PodMutator.owned(
                        new io.topobridge.core.admission.JsonPatch.Operation("add", "/metadata/namespace", null)))
                .isFalse();
    }

    @Test
    void theNamespaceOfTheRequestReachesTheAssignment() {
        SEEN.clear();
        post(Reviews.podCreate(
                "team-a",
                pod().editMetadata().addToLabels("gang", "g3").endMetadata().build()));
        assertThat(SEEN)
                .singleElement()
                .satisfies(p -> assertThat(p.getMetadata().getNamespace()).isEqualTo("team-a"));
    }

    @Test
    void podsOfNoGangPassUnchanged() {
        post(Reviews.podCreate(
                        "ml",
                        pod().editMetadata()
                                .addToLabels("app", "web")
                                .endMetadata()
                                .build()))
                .then()
                .body("response.patch", nullValue())
                .body("response.patchType", nullValue());
        assertThat(fixture.count("pods", "unchanged")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void kubeSystemPodsPassUnchangedWithoutBeingLookedAt() {
        SEEN.clear();
        post(Reviews.podCreate(
                        "kube-system",
                        pod().editMetadata()
                                .addToLabels("gang", "g4")
                                .endMetadata()
                                .build()))
                .then()
                .body("response.patch", nullValue());
        assertThat(SEEN).isEmpty();
    }

    @Test
    void aPodWithAnotherGroupNamePassesUnchanged() {
        Pod pod = pod().editMetadata()
                .addToLabels("gang", "ours")
                .addToAnnotations(VolcanoApi.GROUP_NAME_ANNOTATION, "lws-sample-0-5b8c")
                .endMetadata()
                .build();
        post(Reviews.podCreate("ml", pod))
                .then()
                .body("response.patch", nullValue())
                .body("response.warnings[0]", containsString("lws-sample-0-5b8c"));
    }

    /**
     * Kubernetes 1.36's gang scheduling (KEP-4671/5832, alpha): a pod names its PodGroup in
     * {@code spec.schedulingGroup.podGroupName}, a field the fabric8 model does not know. Such a pod of a managed gang
     * is left as it is, with a warning: tied to a Volcano PodGroup too, neither scheduler would gang it.
     */
    @Test
    void aPodInAKubernetesGangOfItsOwnPassesUnchangedWithAWarning() {
        Pod pod = pod().editMetadata().addToLabels("gang", "g9").endMetadata().build();
        ObjectNode review = Reviews.podCreate("ml", pod);
        ((ObjectNode) review.path("request").path("object").path("spec"))
                .putObject("schedulingGroup")
                .put("podGroupName", "decode-0");
        post(review)
                .then()
                .body("response.patch", nullValue())
                .body("response.warnings", hasItem(containsString("spec.schedulingGroup (PodGroup \"decode-0\")")));
        // its 1.35 form, spec.workloadRef, likewise
        ObjectNode older = Reviews.podCreate("ml", pod);
        ((ObjectNode) older.path("request").path("object").path("spec"))
                .putObject("workloadRef")
                .put("name", "decode")
                .put("podGroup", "workers");
        post(older)
                .then()
                .body("response.patch", nullValue())
                .body("response.warnings", hasItem(containsString("spec.workloadRef")));
        // an empty reference is no gang: the pod is tied as usual
        ObjectNode empty = Reviews.podCreate("ml", pod);
        ((ObjectNode) empty.path("request").path("object").path("spec"))
                .putObject("schedulingGroup")
                .put("podGroupName", "");
        Pod admitted = Reviews.admittedPod(empty, post(empty));
        assertThat(admitted.getMetadata().getAnnotations()).containsEntry(VolcanoApi.GROUP_NAME_ANNOTATION, "g9");
        assertThat(admitted.getSpec().getAdditionalProperties()).containsKey("schedulingGroup");
    }

    @Test
    void anotherExplicitSchedulerIsLeftAloneAndReported() {
        Pod pod = pod().editMetadata()
                .addToLabels("gang", "g5")
                .endMetadata()
                .editSpec()
                .withSchedulerName("kai-scheduler")
                .endSpec()
                .build();
        ObjectNode review = Reviews.podCreate("ml", pod);
        Response response = post(review);
        assertThat(Reviews.admittedPod(review, response).getSpec().getSchedulerName())
                .isEqualTo("kai-scheduler");
        assertThat(Reviews.patch(response).toString()).doesNotContain("schedulerName");
        response.then().body("response.warnings", hasItem(containsString("kai-scheduler")));
    }

    @Test
    void otherOperationsPassUnchanged() {
        Pod pod = pod().editMetadata().addToLabels("gang", "g6").endMetadata().build();
        ObjectNode review =
                Reviews.review("UPDATE", "ml", "", "v1", "Pod", "pods", Reviews.toJson(pod), Reviews.toJson(pod));
        post(review).then().body("response.patch", nullValue());
    }

    @Test
    void aFailureToFindTheGangLetsThePodInUnchanged() {
        double before = fixture.count("pods", "error");
        post(Reviews.podCreate(
                        "ml",
                        pod().editMetadata()
                                .addToLabels("explode", "yes")
                                .endMetadata()
                                .build()))
                .then()
                .body("response.patch", nullValue())
                .body("response.warnings[0]", containsString("lookup failed for web-7d9f-"));
        assertThat(fixture.count("pods", "error")).isEqualTo(before + 1);
    }

    @Test
    void aPodCreateWithoutThePodOrWithABrokenPodIs400() {
        ObjectNode noObject = Reviews.review("CREATE", "ml", "", "v1", "Pod", "pods", null, null);
        fixture.request()
                .body(noObject.toString())
                .post(PodMutator.PATH)
                .then()
                .statusCode(400)
                .body("message", containsString("request.object is missing"));
        ObjectNode broken = Reviews.podCreate(
                "ml",
                Reviews.JSON
                        .createObjectNode()
                        .put("apiVersion", "v1")
                        .put("kind", "Pod")
                        .put("spec", "not an object"));
        fixture.request()
                .body(broken.toString())
                .post(PodMutator.PATH)
                .then()
                .statusCode(400)
                .body("message", containsString("request.object is not a Pod"));
    }
}

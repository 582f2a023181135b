package io.topobridge.webhook;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.topobridge.cache.WorkloadCaches;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.workload.ControllersSimulation;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.testing.ClusterObjects;
import io.topobridge.testing.MockApiServer;
import io.topobridge.testing.PodTemplates;
import io.topobridge.testing.Upstream;
import io.topobridge.volcano.PodGroup;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Admission end to end in the controller process: the upstream AIBrix and LWS samples, a two-slice DisaggregatedSet (plus a
 * Deployment and a StatefulSet) live in the mock API server with {@code topobridge.io/} annotations, the
 * controller's informer caches see them, and AdmissionReviews for the pods their controllers would create are
 * posted over HTTPS. Each answer's patch is applied (strict RFC 6902) and the admitted pod checked; the PodGroup
 * it names is the one the translator makes for the workload and the running workload controller creates. (That a
 * pod may come before its PodGroup is shown where no PodGroup exists at all: {@link RenderMatchesWebhookTest}.)
 * Runs in its own application so the workload CRDs it installs do not leak into other test classes.
 */
@QuarkusTest
@TestProfile(AdmissionEndToEndTest.Profile.class)
@QuarkusTestResource(MockApiServer.class)
class AdmissionEndToEndTest {

    /** Its own application with fixed tiers (1=nvlink, 2=rack, 3=spine). */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(FixedTiers.class);
        }
    }

    private static final String NS = "e2e";
    private static final Path CRDS = Path.of("examples/crds");

    @Inject
    AdmissionServer controller;

    @Inject
    WorkloadCaches lookup;

    @Inject
    KubernetesClient client;

    private static List<HasMetadata> workloads;

    @BeforeEach
    void cluster() throws Exception {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> controller.ready() && AdmissionServers.port(controller) > 0);
        if (workloads != null) {
            return;
        }
        client.resource(ClusterObjects.optedInNamespace(NS)).createOr(NonDeletingOperation::update);
        try (Stream<Path> files = Files.list(CRDS)) {
            for (Path file : files.sorted().toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    CustomResourceDefinition crd = client.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .load(in)
                            .item();
                    client.resource(crd).createOr(NonDeletingOperation::update);
                }
            }
        }
        // the Volcano queue the gangs go to (Volcano refuses PodGroups of a missing queue, and so the reconciler waits)
        client.resource(ClusterObjects.queue("default")).createOr(NonDeletingOperation::update);
        List<HasMetadata> created = new ArrayList<>();
        GenericKubernetesResource storm = upstream(
                "aibrix:samples/disaggregation/sglang/tp-1p1d.yaml", Map.of("topobridge.io/highest-tier", "rack"));
        created.add(createCustom(WorkloadKind.STORM_SERVICE, storm));
        for (HasMetadata roleSet : ControllersSimulation.roleSets(created.get(0))) {
            created.add(createCustom(WorkloadKind.ROLE_SET, (GenericKubernetesResource) roleSet));
        }
        created.add(createCustom(
                WorkloadKind.LEADER_WORKER_SET,
                upstream(
                        "lws:docs/examples/sample/gang-scheduling/lws-sample-volcano.yaml",
                        Map.of("topobridge.io/highest-tier", "1"))));
        created.add(createCustom(
                WorkloadKind.DISAGGREGATED_SET,
                withAnnotations(
                        client.getKubernetesSerialization()
                                .unmarshal(DISAGGREGATED_SET, GenericKubernetesResource.class),
                        Map.of("topobridge.io/highest-tier", "spine"))));
        var web = client.resource(new DeploymentBuilder()
                        .withNewMetadata()
                        .withName("web")
                        .withNamespace(NS)
                        .addToAnnotations("topobridge.io/highest-tier", "2")
                        .endMetadata()
                        .withSpec(PodTemplates.deploymentSpec(3, "app", "web"))
                        .build())
                .create();
        created.add(web);
        client.resource(new ReplicaSetBuilder()
                        .withNewMetadata()
                        .withName("web-5d4f8")
                        .withNamespace(NS)
                        .addNewOwnerReference()
                        .withApiVersion("apps/v1")
                        .withKind("Deployment")
                        .withName("web")
                        .withUid(web.getMetadata().getUid())
                        .withController(true)
                        .endOwnerReference()
                        .endMetadata()
                        .withSpec(PodTemplates.replicaSetSpec(3, "app", "web"))
                        .build())
                .create();
        created.add(client.resource(new StatefulSetBuilder()
                        .withNewMetadata()
                        .withName("db")
                        .withNamespace(NS)
                        .addToAnnotations("topobridge.io/highest-tier", "nvlink")
                        .addToAnnotations("topobridge.io/mode", "soft")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(2)
                        .withServiceName("db")
                        .withNewSelector()
                        .addToMatchLabels("app", "db")
                        .endSelector()
                        .withTemplate(PodTemplates.labelled("app", "db"))
                        .endSpec()
                        .build())
                .create());
        created.add(client.resource(new DeploymentBuilder()
                        .withNewMetadata()
                        .withName("plain")
                        .withNamespace(NS)
                        .endMetadata()
                        .withSpec(PodTemplates.deploymentSpec(1, "app", "plain"))
                        .build())
                .create());
        // the informer caches see every workload
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> created.stream()
                                .allMatch(o -> WorkloadKind.of(o.getApiVersion(), o.getKind())
                                        .flatMap(k -> lookup.get(
                                                k, NS, o.getMetadata().getName()))
                                        .isPresent())
                        && lookup.get(WorkloadKind.REPLICA_SET, NS, "web-5d4f8").isPresent());
        workloads = created;
    }

    /** A P/D DisaggregatedSet of two slices (the slice field and label came after the LWS release the e2e tier runs). */
    private static final String DISAGGREGATED_SET = """
            apiVersion: disaggregatedset.x-k8s.io/v1
            kind: DisaggregatedSet
            metadata: {name: pd-disagg-vllm}
            spec:
              slices: 2
              roles:
              - name: prefill
                spec:
                  replicas: 4
                  leaderWorkerTemplate:
                    size: 1
                    workerTemplate:
                      metadata: {labels: {llm-d.ai/role: prefill}}
                      spec: {containers: [{name: modelserver, image: vllm, resources: {limits: {nvidia.com/gpu: "1"}}}]}
              - name: decode
                spec:
                  replicas: 1
                  leaderWorkerTemplate:
                    size: 4
                    workerTemplate:
                      metadata: {labels: {llm-d.ai/role: decode}}
                      spec: {containers: [{name: modelserver, image: vllm, resources: {limits: {nvidia.com/gpu: "1"}}}]}
            """;

    private GenericKubernetesResource upstream(String file, Map<String, String> annotations) throws Exception {
        GenericKubernetesResource object;
        try (InputStream in = Files.newInputStream(
                Upstream.file(file.substring(0, file.indexOf(':')), file.substring(file.indexOf(':') + 1)))) {
            object = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        }
        return withAnnotations(object, annotations);
    }

    private static GenericKubernetesResource withAnnotations(
            GenericKubernetesResource object, Map<String, String> annotations) {
        object.getMetadata().setNamespace(NS);
        var merged = new java.util.LinkedHashMap<String, String>(
                object.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : object.getMetadata().getAnnotations());
        merged.putAll(annotations);
        object.getMetadata().setAnnotations(merged);
        return object;
    }

    private GenericKubernetesResource createCustom(WorkloadKind kind, GenericKubernetesResource object) {
        var context = new ResourceDefinitionContext.Builder()
                .withGroup(kind.group())
                .withVersion(kind.version())
                .withKind(kind.kind())
                .withPlural(kind.plural())
                .withNamespaced(true)
                .build();
        return client.genericKubernetesResources(context)
                .inNamespace(NS)
                .resource(object)
                .create();
    }

    private static String roleSetName() {
        return workloads.stream()
                .filter(w -> "RoleSet".equals(w.getKind()))
                .findFirst()
                .orElseThrow()
                .getMetadata()
                .getName();
    }

    /** The names of the PodGroups the reconciler makes for the workloads in the cluster. */
    private List<String> reconcilerPodGroups() {
        var translator = Fixtures.translator(Fixtures.defaultSettings());
        return TranslationResult.of(translator, workloads, FixedTiers.TIERS, lookup).podGroups().stream()
                .map(DesiredPodGroup::name)
                .toList();
    }

    /** Posts {@code review} to the webhook's {@code path} over HTTPS; the answer is a 200. */
    private ValidatableResponse post(String path, ObjectNode review) {
        return given().relaxedHTTPSValidation()
                .baseUri("https://localhost")
                .port(AdmissionServers.port(controller))
                .contentType("application/json")
                .body(review.toString())
                .post(path)
                .then()
                .statusCode(200);
    }

    private Response admit(ObjectNode review) {
        return post(PodMutator.PATH, review)
                .body("response.uid", equalTo(Reviews.uid(review)))
                .body("response.allowed", equalTo(true))
                .extract()
                .response();
    }

    private static Pod pod(String yaml) {
        return Reviews.SERIALIZATION.unmarshal(yaml, Pod.class);
    }

    /** Each kind's pod as its controller creates it, the PodGroup and task-spec it must name. */
    static Stream<Arguments> kinds() {
        return Stream.of(
                Arguments.of(
                        "AIBrix StormService role pod (routing)",
                        (java.util.function.Supplier<String>) () -> """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          generateName: %1$s-routing-
                          labels: {roleset-name: %1$s, role-name: routing, storm-service-name: tp-1p1d, app: tp-1p1d}
                          ownerReferences: [{apiVersion: orchestration.aibrix.ai/v1alpha1, kind: RoleSet, name: %1$s, uid: u1, controller: true}]
                        spec: {containers: [{name: mini-lb, image: aibrix/sglang-router:v0.1.6}]}
                        """.formatted(roleSetName()),
                        "tb-rs-%s",
                        "routing"),
                Arguments.of(
                        "AIBrix PodSet pod (prefill, podGroupSize 2)",
                        (java.util.function.Supplier<String>) () -> """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: %1$s-prefill-0-1
                          labels: {roleset-name: %1$s, role-name: prefill, storm-service-name: tp-1p1d,
                                   stormservice.orchestration.aibrix.ai/podset-name: %1$s-prefill-0}
                          ownerReferences: [{apiVersion: orchestration.aibrix.ai/v1alpha1, kind: PodSet, name: %1$s-prefill-0, uid: u2, controller: true}]
                        spec: {containers: [{name: prefill, image: aibrix/sglang}]}
                        """.formatted(roleSetName()),
                        "tb-rs-%s",
                        "prefill"),
                Arguments.of(
                        "LWS leader",
                        (java.util.function.Supplier<String>) () -> """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: lws-sample-volcano-1
                          labels: {leaderworkerset.sigs.k8s.io/name: lws-sample-volcano, leaderworkerset.sigs.k8s.io/group-index: "1",
                                   leaderworkerset.sigs.k8s.io/worker-index: "0"}
                          ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: lws-sample-volcano, uid: u3, controller: true}]
                        spec: {schedulerName: volcano, containers: [{name: nginx, image: nginxinc/nginx-unprivileged:1.27}]}
                        """,
                        "tb-lws-lws-sample-volcano-1",
                        "leader"),
                Arguments.of(
                        "LWS worker",
                        (java.util.function.Supplier<String>) () -> """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: lws-sample-volcano-1-3
                          labels: {leaderworkerset.sigs.k8s.io/name: lws-sample-volcano, leaderworkerset.sigs.k8s.io/group-index: "1",
                                   leaderworkerset.sigs.k8s.io/worker-index: "3"}
                          ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: lws-sample-volcano-1, uid: u4, controller: true}]
                        spec: {schedulerName: volcano, containers: [{name: nginx, image: nginxinc/nginx-unprivileged:1.27}]}
                        """,
                        "tb-lws-lws-sample-volcano-1",
                        "worker"),
                Arguments.of(
                        "DisaggregatedSet decode pod",
                        (java.util.function.Supplier<String>) () -> """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: pd-disagg-vllm-1-decode-0
                          labels: {disaggregatedset.x-k8s.io/name: pd-disagg-vllm, disaggregatedset.x-k8s.io/slice: "1",
                                   disaggregatedset.x-k8s.io/role: decode, leaderworkerset.sigs.k8s.io/worker-index: "0",
                                   llm-d.ai/role: decode}
                        spec: {containers: [{name: modelserver, image: vllm}]}
                        """,
                        "tb-ds-pd-disagg-vllm-1",
                        "decode-leader"),
                Arguments.of(
                        "Deployment pod through its ReplicaSet",
                        (java.util.function.Supplier<String>) () -> """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          generateName: web-5d4f8-
                          labels: {app: web, pod-template-hash: 5d4f8}
                          ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4f8, uid: u5, controller: true}]
                        spec: {schedulerName: default-scheduler, containers: [{name: c, image: x}]}
                        """,
                        "tb-deploy-web",
                        "web"),
                Arguments.of("StatefulSet pod", (java.util.function.Supplier<String>) () -> """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: db-0
                          labels: {app: db}
                          ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: u6, controller: true}]
                        spec: {containers: [{name: c, image: x}]}
                        """, "tb-sts-db", "db"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aPodOfEachKindIsTiedToItsGang(
            String name, java.util.function.Supplier<String> yaml, String group, String taskSpec) {
        String expectedGroup = group.contains("%s") ? group.formatted(roleSetName()) : group;
        Pod pod = pod(yaml.get());
        ObjectNode review = Reviews.podCreate(NS, pod);
        Response response = admit(review);
        Pod admitted = Reviews.admittedPod(review, response);

        assertThat(admitted.getMetadata().getAnnotations())
                .containsEntry(VolcanoApi.GROUP_NAME_ANNOTATION, expectedGroup)
                .containsEntry(VolcanoApi.TASK_SPEC_ANNOTATION, taskSpec);
        assertThat(admitted.getSpec().getSchedulerName()).isEqualTo("volcano");
        assertThat(admitted.getMetadata().getLabels())
                .containsAllEntriesOf(pod.getMetadata().getLabels());
        assertThat(admitted.getSpec().getContainers()).isEqualTo(pod.getSpec().getContainers());
        // the name is the PodGroup the translator makes for the workload, and the running reconciler creates it
        assertThat(reconcilerPodGroups()).contains(expectedGroup);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> client.resources(PodGroup.class)
                                .inNamespace(NS)
                                .withName(expectedGroup)
                                .get()
                        != null);
    }

    @Test
    void podsOfUnmanagedWorkloadsKubeSystemAndOwnGroupNamesPassUnchanged() {
        Pod plain = pod("""
                apiVersion: v1
                kind: Pod
                metadata:
                  generateName: plain-6c7b9-
                  labels: {app: plain, pod-template-hash: 6c7b9}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: plain-6c7b9, uid: u7, controller: true}]
                spec: {containers: [{name: c, image: x}]}
                """);
        admit(Reviews.podCreate(NS, plain)).then().body("response.patch", nullValue());

        Pod system = pod("""
                apiVersion: v1
                kind: Pod
                metadata:
                  generateName: web-5d4f8-
                  labels: {app: web, pod-template-hash: 5d4f8}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4f8, uid: u5, controller: true}]
                spec: {containers: [{name: c, image: x}]}
                """);
        admit(Reviews.podCreate("kube-system", system)).then().body("response.patch", nullValue());

        Pod provider = pod("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: lws-sample-volcano-0-1
                  annotations: {scheduling.k8s.io/group-name: lws-sample-volcano-0-6c8d7b, volcano.sh/task-spec: worker}
                  labels: {leaderworkerset.sigs.k8s.io/name: lws-sample-volcano, leaderworkerset.sigs.k8s.io/group-index: "0",
                           leaderworkerset.sigs.k8s.io/worker-index: "1"}
                spec: {schedulerName: volcano, containers: [{name: nginx, image: nginxinc/nginx-unprivileged:1.27}]}
                """);
        admit(Reviews.podCreate(NS, provider)).then().body("response.patch", nullValue());
    }

    @Test
    void invalidWorkloadsAreDeniedWithTheReconcilersMessage() {
        var bad = new DeploymentBuilder()
                .withNewMetadata()
                .withName("typo")
                .withNamespace(NS)
                .addToAnnotations("topobridge.io/highest-tier", "rak")
                .endMetadata()
                .withNewSpec()
                .withReplicas(2)
                .endSpec()
                .build();
        ObjectNode review = Reviews.deployment("CREATE", NS, Reviews.toJson(bad), null);
        String message = Fixtures.translator(Fixtures.defaultSettings())
                .validate(bad, FixedTiers.TIERS, new InMemoryLookup(List.of()))
                .get(0)
                .message();
        post(WorkloadValidator.PATH, review)
                .body("response.uid", equalTo(Reviews.uid(review)))
                .body("response.allowed", equalTo(false))
                .body("response.status.code", equalTo(422))
                .body("response.status.message", equalTo(message))
                .body("response.status.message", containsString("topobridge.io/highest-tier=\"rak\""));

        GenericKubernetesResource lws = (GenericKubernetesResource) workloads.stream()
                .filter(w -> "LeaderWorkerSet".equals(w.getKind()))
                .findFirst()
                .orElseThrow();
        ObjectNode sideways = (ObjectNode) Reviews.toJson(lws);
        ((ObjectNode) sideways.path("metadata").path("annotations")).put("topobridge.io/mode", "sideways");
        ObjectNode update = Reviews.review(
                "UPDATE",
                NS,
                "leaderworkerset.x-k8s.io",
                "v1",
                "LeaderWorkerSet",
                "leaderworkersets",
                sideways,
                Reviews.toJson(lws));
        post(WorkloadValidator.PATH, update)
                .body("response.allowed", equalTo(false))
                .body("response.status.message", containsString("topobridge.io/mode=\"sideways\""));

        ObjectNode valid = Reviews.review(
                "UPDATE",
                NS,
                "leaderworkerset.x-k8s.io",
                "v1",
                "LeaderWorkerSet",
                "leaderworkersets",
                Reviews.toJson(lws),
                Reviews.toJson(lws));
        post(WorkloadValidator.PATH, valid).body("response.allowed", equalTo(true));
    }
}

package io.topobridge.core.expand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.testing.JsonFields;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile input never escapes as an exception and never costs a valid neighbour: every field of every kind is given
 * a wrong type, a null, an out-of-range or huge number and garbage; the expansion returns, what it says about the bad
 * object is bounded, every object it makes is a valid object of its kind, and the neighbours expand exactly as alone.
 */
class ExpansionHostileInputTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger CASES = new AtomicInteger();

    private static final List<Object> BAD = Arrays.asList(
            Map.of("not", "this"),
            List.of(1, 2),
            "garbage",
            true,
            null,
            -1,
            0,
            2_147_483_647,
            4_294_967_296L,
            1.5,
            "25%",
            "150%",
            "g".repeat(100_000));

    private static final String TEMPLATE = """
            {"metadata": {"labels": {"app": "x"}, "annotations": {"a": "b"}},
             "spec": {"containers": [{"name": "c", "image": "x", "resources": {"limits": {"google.com/tpu": "4"}}}]}}""";

    private static final Map<String, String> VALID = Map.of(
            "StormService", """
                    {"apiVersion": "orchestration.aibrix.ai/v1alpha1", "kind": "StormService",
                     "metadata": {"name": "bad", "namespace": "ns", "annotations": {"x": "y"}},
                     "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "bad"}},
                              "updateStrategy": {"maxSurge": 1},
                              "template": {"metadata": {"labels": {"app": "bad"}},
                                           "spec": {"schedulingStrategy": {"volcanoSchedulingStrategy": {"minMember": 1}},
                                                    "roles": [{"name": "p", "replicas": 2, "podGroupSize": 2, "template": %1$s},
                                                              {"name": "d", "replicas": 1, "stateful": true, "template": %1$s},
                                                              {"name": "g", "replicas": 1, "template": %1$s}]}}}}""",
            "RoleSet", """
                    {"apiVersion": "orchestration.aibrix.ai/v1alpha1", "kind": "RoleSet",
                     "metadata": {"name": "bad", "namespace": "ns", "labels": {"storm-service-name": "s"}},
                     "spec": {"roles": [{"name": "p", "replicas": 2, "podGroupSize": 2, "template": %1$s,
                                         "schedulingStrategy": {"godelSchedulingStrategy": {}}},
                                        {"name": "d", "replicas": 2, "updateStrategy": {"maxSurge": "50%%"}, "template": %1$s}]}}""",
            "PodSet", """
                    {"apiVersion": "orchestration.aibrix.ai/v1alpha1", "kind": "PodSet",
                     "metadata": {"name": "bad", "namespace": "ns"},
                     "spec": {"podGroupSize": 3, "recoveryPolicy": "Recreate", "template": %1$s}}""",
            "LeaderWorkerSet", """
                    {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
                     "metadata": {"name": "bad", "namespace": "ns", "annotations": {"leaderworkerset.sigs.k8s.io/exclusive-topology": "z"}},
                     "spec": {"replicas": 2, "networkConfig": {"subdomainPolicy": "UniquePerReplica"},
                              "rolloutStrategy": {"rollingUpdateConfiguration": {"maxSurge": 1, "maxUnavailable": "50%%"}},
                              "leaderWorkerTemplate": {"size": 3, "subGroupPolicy": {"subGroupSize": 2},
                                                       "leaderTemplate": %1$s, "workerTemplate": %1$s}}}""",
            "DisaggregatedSet", """
                    {"apiVersion": "disaggregatedset.x-k8s.io/v1", "kind": "DisaggregatedSet",
                     "metadata": {"name": "bad", "namespace": "ns"},
                     "spec": {"roles": [{"name": "prefill", "metadata": {"labels": {"l": "v"}, "annotations": {"a": "b"}},
                                         "spec": {"replicas": 2, "leaderWorkerTemplate": {"size": 2, "workerTemplate": %1$s}}},
                                        {"name": "decode", "spec": {"leaderWorkerTemplate": {"workerTemplate": %1$s}}}]}}""",
            "Deployment", """
                    {"apiVersion": "apps/v1", "kind": "Deployment",
                     "metadata": {"name": "bad", "namespace": "ns", "annotations": {"k": "v"}},
                     "spec": {"replicas": 2, "strategy": {"rollingUpdate": {"maxSurge": "30%%", "maxUnavailable": 1}},
                              "selector": {"matchLabels": {"app": "x"}}, "template": %1$s}}""",
            "StatefulSet", """
                    {"apiVersion": "apps/v1", "kind": "StatefulSet",
                     "metadata": {"name": "bad", "namespace": "ns"},
                     "spec": {"replicas": 2, "serviceName": "s", "ordinals": {"start": 2},
                              "selector": {"matchLabels": {"app": "x"}}, "template": %1$s}}""",
            "ReplicaSet", """
                    {"apiVersion": "apps/v1", "kind": "ReplicaSet",
                     "metadata": {"name": "bad", "namespace": "ns"},
                     "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "x"}, "matchExpressions": [{"key": "app", "operator": "In", "values": ["x"]}]},
                              "template": %1$s}}""");

    /** Valid neighbours in another namespace: their expansion must not change. */
    private static final List<HasMetadata> NEIGHBOURS = Expanded.objects("""
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: good, namespace: other}
            spec: {replicas: 2, selector: {matchLabels: {app: good}}, template: {metadata: {labels: {app: good}}, spec: {containers: [{name: c, image: x}]}}}
            ---
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata: {name: good, namespace: other}
            spec: {replicas: 1, leaderWorkerTemplate: {size: 2, workerTemplate: {spec: {containers: [{name: c, image: x}]}}}}
            ---
            apiVersion: orchestration.aibrix.ai/v1alpha1
            kind: StormService
            metadata: {name: good, namespace: other}
            spec:
              replicas: 1
              selector: {matchLabels: {app: good-storm}}
              template: {metadata: {labels: {app: good-storm}}, spec: {roles: [{name: r, replicas: 1, podGroupSize: 2, template: {spec: {containers: [{name: c, image: x}]}}}]}}
            """);

    private static String neighboursAlone;

    @AfterAll
    static void report() {
        System.out.printf("ExpansionHostileInputTest: %d hostile-input cases%n", CASES.get());
    }

    static Stream<Arguments> kinds() {
        return VALID.keySet().stream().sorted().map(Arguments::of);
    }

    private static ObjectNode valid(String kind) throws Exception {
        return (ObjectNode) JSON.readTree(VALID.get(kind).formatted(TEMPLATE));
    }

    /** Every path to a field below {@code spec} and in metadata's labels and annotations. */
    private static boolean walked(List<Object> at, String name) {
        boolean identity = at.isEmpty() && !name.equals("spec")
                || (at.size() == 1
                        && at.get(0).equals("metadata")
                        && !name.equals("annotations")
                        && !name.equals("labels"));
        return !identity;
    }

    private static HasMetadata object(ObjectNode node) throws Exception {
        Class<? extends HasMetadata> type = switch (node.get("kind").asText()) {
            case "Deployment" -> Deployment.class;
            case "StatefulSet" -> StatefulSet.class;
            case "ReplicaSet" -> ReplicaSet.class;
            default -> GenericKubernetesResource.class;
        };
        return Expanded.SERIALIZATION.convertValue(node, type);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyFieldGivenEveryBadValueYieldsANoteNeverAnExceptionAndNeverHurtsTheNeighbours(String kind)
            throws Exception {
        if (neighboursAlone == null) {
            neighboursAlone = JSON.writeValueAsString(Kinds.expansion()
                    .expand(NEIGHBOURS, Expansion.Limits.DEFAULT)
                    .created());
        }
        ObjectNode base = valid(kind);
        assertThat(Kinds.expansion()
                        .expand(List.of(object(base)), Expansion.Limits.DEFAULT)
                        .created())
                .as("the valid " + kind + " expands")
                .isNotEmpty();
        for (List<Object> path : JsonFields.paths(base, List.of(), ExpansionHostileInputTest::walked)) {
            for (Object bad : BAD) {
                HasMetadata hostile;
                try {
                    hostile = object(JsonFields.with(base, path, bad));
                } catch (RuntimeException e) {
                    // not even a Kubernetes object of this kind (a typed field of the wrong type): never an input
                    continue;
                }
                CASES.incrementAndGet();
                List<HasMetadata> inputs = new ArrayList<>(NEIGHBOURS);
                inputs.add(1, hostile);
                Expansion.Result[] result = new Expansion.Result[1];
                assertThatCode(() -> result[0] = Kinds.expansion().expand(inputs, Expansion.Limits.DEFAULT))
                        .as(kind + " " + path + " = " + shown(bad))
                        .doesNotThrowAnyException();
                List<HasMetadata> neighbours = result[0].created().stream()
                        .filter(o -> "other".equals(o.getMetadata().getNamespace()))
                        .toList();
                assertThat(JSON.writeValueAsString(neighbours))
                        .as("the neighbours of " + kind + " " + path + " = " + shown(bad))
                        .isEqualTo(neighboursAlone);
                for (Finding note : result[0].notes()) {
                    assertThat(note.message().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                            .isLessThanOrEqualTo(UserText.MAX_MESSAGE_BYTES);
                }
                assertThat(result[0].created()).hasSizeLessThanOrEqualTo((int) Expansion.Limits.DEFAULT.objectsTotal());
                for (HasMetadata made : result[0].created()) {
                    ObjectMeta meta = made.getMetadata();
                    if (!"ns".equals(meta.getNamespace())) {
                        continue;
                    }
                    assertThat(meta.getName()).as("a name for everything made").isNotBlank();
                    // each object made reads back as its kind (typed pods, StatefulSets, ReplicaSets)
                    try {
                        Expanded.SERIALIZATION.unmarshal(Expanded.SERIALIZATION.asJson(made));
                    } catch (RuntimeException e) {
                        Throwable cause = e;
                        while (cause.getCause() != null) {
                            cause = cause.getCause();
                        }
                        throw new AssertionError(
                                kind + " " + path + " = " + shown(bad) + ": " + made.getKind() + " " + meta.getName()
                                        + " does not read back: " + cause,
                                e);
                    }
                }
            }
        }
    }

    @Test
    void nullsAndNamelessObjectsAreSkipped() {
        List<HasMetadata> inputs = new ArrayList<>();
        inputs.add(null);
        inputs.add(new GenericKubernetesResource());
        GenericKubernetesResource nameless = new GenericKubernetesResource();
        nameless.setApiVersion("leaderworkerset.x-k8s.io/v1");
        nameless.setKind("LeaderWorkerSet");
        nameless.setMetadata(new ObjectMeta());
        inputs.add(nameless);
        assertThat(Kinds.expansion().expand(inputs, Expansion.Limits.DEFAULT).created())
                .isEmpty();
        assertThat(Kinds.expansion().expand(null, Expansion.Limits.DEFAULT).created())
                .isEmpty();
    }

    @Test
    void aWorkloadTheWebhooksOrTheApiServerWouldRefuseIsANote() {
        Expanded e = Expanded.of("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: odd, namespace: ns}
                spec: {leaderWorkerTemplate: {size: 5, subGroupPolicy: {subGroupSize: 3}, workerTemplate: {spec: {containers: [{name: c, image: x}]}}}}
                ---
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: PodSet
                metadata: {name: one, namespace: ns}
                spec: {podGroupSize: 1, template: {spec: {containers: [{name: c, image: x}]}}}
                ---
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: RoleSet
                metadata: {name: wide, namespace: ns}
                spec: {roles: [{name: r, replicas: 1, podGroupSize: 101, template: {spec: {containers: [{name: c, image: x}]}}}]}
                """);
        assertThat(e.result().created()).isEmpty();
        assertThat(e.notes())
                .anySatisfy(l -> assertThat(l).contains("LeaderWorkerSet/ns/odd NotExpanded", "size or size - 1"))
                .anySatisfy(l -> assertThat(l).contains("PodSet/ns/one NotExpanded", "fewer than 2"))
                .anySatisfy(l -> assertThat(l).contains("RoleSet/ns/wide NotExpanded", "more than 100 pods"));
    }

    private static String shown(Object value) {
        String s = String.valueOf(value);
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }
}

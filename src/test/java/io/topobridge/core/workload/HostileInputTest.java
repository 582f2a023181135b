package io.topobridge.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.testing.JsonFields;
import io.topobridge.testing.Renderers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One bad object never costs its neighbours: every field of every kind is given a wrong type, a null, an
 * out-of-range number and garbage; the translation never throws, the valid neighbours get exactly the PodGroups
 * and findings they get alone, whatever is said about the bad object is about it and bounded, and admission of
 * its pods and {@code render} of the whole set do not throw either.
 */
class HostileInputTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger CASES = new AtomicInteger();
    private static final String HUGE = "g".repeat(200_000);

    /** Values no field expects: of the wrong type, null, out of range, garbage. */
    private static final List<Object> BAD = List.of(
            Map.of("not", "this"),
            List.of(1, 2),
            "garbage",
            true,
            "null",
            -1,
            4_294_967_296L,
            1.5,
            -0.5,
            "-3",
            "1e999999999",
            "12Zi",
            HUGE);

    private static final String TEMPLATE = """
            {"metadata": {"labels": {"app": "x"}, "annotations": {"volcano.sh/network-topology-mode": "soft"}},
             "spec": {"containers": [{"name": "c", "image": "x",
                      "resources": {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"nvidia.com/gpu": "1"}}}],
                      "initContainers": [{"name": "i", "image": "x", "resources": {"requests": {"cpu": "2"}}}],
                      "overhead": {"cpu": "100m"}}}""";

    /** One valid object of each kind (annotated, so it is managed), as JSON. */
    private static final Map<String, String> VALID = Map.of(
            "Deployment", """
                    {"apiVersion": "apps/v1", "kind": "Deployment",
                     "metadata": {"name": "bad", "namespace": "ns", "uid": "u-bad",
                                  "annotations": {"topobridge.io/highest-tier": "rack", "topobridge.io/min-member": "1"}},
                     "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "x"}}, "template": %s}}""",
            "StatefulSet", """
                    {"apiVersion": "apps/v1", "kind": "StatefulSet",
                     "metadata": {"name": "bad", "namespace": "ns", "uid": "u-bad",
                                  "annotations": {"topobridge.io/highest-tier": "rack"}},
                     "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "x"}}, "template": %s}}""",
            "LeaderWorkerSet", """
                    {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
                     "metadata": {"name": "bad", "namespace": "ns", "uid": "u-bad",
                                  "annotations": {"topobridge.io/highest-tier": "2", "topobridge.io/subgroup-highest-tier": "1"}},
                     "spec": {"replicas": 2, "startupPolicy": "LeaderCreated",
                              "leaderWorkerTemplate": {"size": 3, "subGroupPolicy": {"subGroupSize": 2, "subGroupPolicyType": "LeaderWorker"},
                                                       "leaderTemplate": %1$s, "workerTemplate": %1$s}}}""",
            "DisaggregatedSet", """
                    {"apiVersion": "disaggregatedset.x-k8s.io/v1", "kind": "DisaggregatedSet",
                     "metadata": {"name": "bad", "namespace": "ns", "uid": "u-bad", "annotations": {"topobridge.io/highest-tier": "3"}},
                     "spec": {"slices": 2, "roles": [{"name": "prefill", "metadata": {"annotations": {"topobridge.io/mode": "soft"}},
                               "scaling": {"mode": "Static"},
                               "spec": {"replicas": 2, "leaderWorkerTemplate": {"size": 2, "workerTemplate": %1$s}}}]}}""",
            "StormService", """
                    {"apiVersion": "orchestration.aibrix.ai/v1alpha1", "kind": "StormService",
                     "metadata": {"name": "bad", "namespace": "ns", "uid": "u-bad", "annotations": {"topobridge.io/highest-tier": "rack"}},
                     "spec": {"replicas": 1, "template": {"metadata": {"annotations": {"topobridge.io/mode": "soft"}},
                              "spec": {"roles": [{"name": "prefill", "replicas": 2, "podGroupSize": 2, "template": %1$s},
                                                 {"name": "decode", "replicas": 1, "template": %1$s}]}}}}""",
            "RoleSet", """
                    {"apiVersion": "orchestration.aibrix.ai/v1alpha1", "kind": "RoleSet",
                     "metadata": {"name": "bad", "namespace": "ns", "uid": "u-bad", "annotations": {"topobridge.io/highest-tier": "rack"}},
                     "spec": {"roles": [{"name": "prefill", "replicas": 2, "podGroupSize": 2, "template": %1$s,
                                         "schedulingStrategy": {"volcanoSchedulingStrategy": {"minMember": 2}}},
                                        {"name": "decode", "replicas": 1, "template": %1$s}]}}""",
            "PodSet", """
                    {"apiVersion": "orchestration.aibrix.ai/v1alpha1", "kind": "PodSet",
                     "metadata": {"name": "bad", "namespace": "ns", "uid": "u-bad", "annotations": {"topobridge.io/highest-tier": "1"}},
                     "spec": {"podGroupSize": 3, "template": %1$s}}""");

    /** Valid neighbours in the same namespace: a Deployment, an LWS and a group of two. */
    private static final List<HasMetadata> NEIGHBOURS = Fixtures.objects("""
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: good, namespace: ns, uid: u-good, annotations: {topobridge.io/highest-tier: rack}}
            spec:
              replicas: 2
              selector: {matchLabels: {app: good}}
              template: {metadata: {labels: {app: good}}, spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}
            ---
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata: {name: lws-good, namespace: ns, uid: u-lws, annotations: {topobridge.io/highest-tier: "1"}}
            spec:
              replicas: 1
              leaderWorkerTemplate: {size: 2, workerTemplate: {spec: {containers: [{name: c, image: x}]}}}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: prefill, namespace: ns, uid: u-p, annotations: {topobridge.io/group: pd, topobridge.io/highest-tier: "2"}}
            spec:
              replicas: 1
              selector: {matchLabels: {app: p}}
              template: {metadata: {labels: {app: p}}, spec: {containers: [{name: c, image: x}]}}
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: decode, namespace: ns, uid: u-d, annotations: {topobridge.io/group: pd}}
            spec:
              replicas: 1
              selector: {matchLabels: {app: d}}
              template: {metadata: {labels: {app: d}}, spec: {containers: [{name: c, image: x}]}}
            """);

    /** Nodes that give {@code render} the tiers nvlink, rack and spine. */
    private static final TopologySettings RENDER_TIERS = TopologySettings.parse(
            "auto", List.of("example.com/nvlink=nvlink", "example.com/rack=rack", "example.com/spine=spine"));

    private static final List<HasMetadata> NODES = Fixtures.objects("""
            apiVersion: v1
            kind: Node
            metadata: {name: n1, labels: {example.com/nvlink: a, example.com/rack: r1, example.com/spine: s1}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: n2, labels: {example.com/nvlink: b, example.com/rack: r2, example.com/spine: s1}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: n3, labels: {example.com/nvlink: c, example.com/rack: r3, example.com/spine: s2}}
            """);

    @AfterAll
    static void report() {
        System.out.printf("HostileInputTest: %d generated hostile-input cases%n", CASES.get());
    }

    static Stream<Arguments> kinds() {
        return VALID.keySet().stream().sorted().map(Arguments::of);
    }

    private static ObjectNode valid(String kind) {
        try {
            return (ObjectNode) JSON.readTree(VALID.get(kind).formatted(TEMPLATE));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every path to a field (objects and arrays walked into), metadata annotations included. */
    private static boolean walked(List<Object> at, String name) {
        boolean identity = at.size() == 1 && at.get(0).equals("metadata") && !name.equals("annotations");
        return !identity && !(at.isEmpty() && (name.equals("apiVersion") || name.equals("kind")));
    }

    /** The object as the cluster (or {@code render}) would hand it over; empty when it cannot even be that type. */
    private static java.util.Optional<HasMetadata> object(String kind, ObjectNode json) {
        Class<? extends HasMetadata> type = switch (kind) {
            case "Deployment" -> Deployment.class;
            case "StatefulSet" -> StatefulSet.class;
            default -> GenericKubernetesResource.class;
        };
        try {
            return java.util.Optional.of(Fixtures.SERIALIZATION.convertValue(json, type));
        } catch (IllegalArgumentException e) {
            return java.util.Optional.empty(); // refused by the API server's own schema (and by render's reader)
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyBadFieldCostsOnlyItsObject(String kind) {
        WorkloadLookup alone = Fixtures.lookup(NEIGHBOURS);
        TranslationResult baseline = TranslationResult.of(Fixtures.translator(), NEIGHBOURS, Fixtures.TIERS, alone);
        assertThat(baseline.podGroups())
                .extracting(DesiredPodGroup::name)
                .containsExactlyInAnyOrder("tb-deploy-good", "tb-lws-lws-good-0", "tb-group-pd");
        ObjectNode valid = valid(kind);
        List<Object> values = new ArrayList<>(BAD);
        values.add(null);
        for (List<Object> path : JsonFields.paths(valid, List.of(), HostileInputTest::walked)) {
            for (Object value : values) {
                var bad = object(kind, JsonFields.with(valid, path, value));
                if (bad.isEmpty()) {
                    continue;
                }
                CASES.incrementAndGet();
                check(
                        kind + " " + path + "="
                                + String.valueOf(value)
                                        .substring(
                                                0,
                                                Math.min(
                                                        40,
                                                        String.valueOf(value).length())),
                        bad.get(),
                        baseline);
            }
        }
    }

    private static void check(String name, HasMetadata bad, TranslationResult baseline) {
        List<HasMetadata> objects = new ArrayList<>(NEIGHBOURS);
        objects.add(bad);
        List<HasMetadata> all = new ArrayList<>(objects);
        all.addAll(ControllersSimulationSafe.roleSets(bad));
        WorkloadLookup lookup = Fixtures.lookup(all);
        TranslationResult result = TranslationResult.of(Fixtures.translator(), all, Fixtures.TIERS, lookup);
        assertThat(result.podGroups()).as(name + ": the neighbours' PodGroups").containsAll(baseline.podGroups());
        assertThat(result.podGroups())
                .as(name + ": no other PodGroup of a neighbour")
                .allSatisfy(pg -> assertThat(baseline.podGroups().stream()
                                        .anyMatch(b -> b.name().equals(pg.name()))
                                || bad(pg))
                        .isTrue());
        String badRef = bad.getKind() + "/ns/bad";
        assertThat(result.findings().stream()
                        .filter(f -> !f.object().toString().startsWith(bad.getKind() + "/ns/bad"))
                        .toList())
                .as(name + ": the neighbours' findings")
                .containsExactlyInAnyOrderElementsOf(baseline.findings());
        // (annotation values are quoted by the parser, whose bounds are another change's: here, what reading says)
        assertThat(result.findings())
                .filteredOn(f -> f.reason() == WorkloadReason.UNREADABLE_WORKLOAD)
                .as(name + ": bounded messages")
                .allSatisfy(f -> assertThat(f.message().length())
                        .as(f.message().substring(0, Math.min(200, f.message().length())))
                        .isLessThan(2_000));
        assertThat(result.findings())
                .filteredOn(f -> f.reason() == WorkloadReason.UNREADABLE_WORKLOAD)
                .allSatisfy(f -> assertThat(f.object().toString()).isEqualTo(badRef));
        Pod pod = Fixtures.pod("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: bad-0
                  namespace: ns
                  labels: {leaderworkerset.sigs.k8s.io/name: bad, leaderworkerset.sigs.k8s.io/group-index: "0",
                           roleset-name: bad, role-name: prefill, stormservice.orchestration.aibrix.ai/podset-name: bad,
                           disaggregatedset.x-k8s.io/name: bad, disaggregatedset.x-k8s.io/slice: "0",
                           disaggregatedset.x-k8s.io/role: prefill}
                  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: bad, uid: s, controller: true}]
                """);
        assertThatCode(() ->
                        Fixtures.translator().tie(pod, Fixtures.TIERS, lookup).assigned())
                .as(name)
                .doesNotThrowAnyException();
        assertThatCode(() -> Fixtures.translator().validate(bad, Fixtures.TIERS, lookup))
                .as(name)
                .doesNotThrowAnyException();
        List<HasMetadata> withNodes = new ArrayList<>(NODES);
        withNodes.addAll(objects);
        RenderOutput rendered = Renderers.of(RENDER_TIERS, Fixtures.defaultSettings(), new AdmissionSettings("volcano"))
                .render(withNodes);
        assertThat(rendered.podGroups())
                .as(name + ": render keeps the neighbours' PodGroups")
                .extracting(DesiredPodGroup::name)
                .contains("tb-deploy-good", "tb-lws-lws-good-0", "tb-group-pd");
        assertThat(rendered.findings()).as(name).noneMatch(f -> f.message().contains("Exception"));
    }

    private static boolean bad(DesiredPodGroup pg) {
        String gang = pg.annotations().getOrDefault("topobridge.io/gang", "");
        return gang.endsWith("/bad") || pg.name().contains("bad");
    }

    /** AIBrix's RoleSets for a StormService, when its spec can still be read as one. */
    private static final class ControllersSimulationSafe {
        static List<HasMetadata> roleSets(HasMetadata object) {
            if (!"StormService".equals(object.getKind())
                    || object.getMetadata() == null
                    || object.getMetadata().getName() == null) {
                return List.of();
            }
            try {
                return ControllersSimulation.roleSets(object);
            } catch (RuntimeException e) {
                return List.of(); // AIBrix would refuse such a spec as well
            }
        }
    }
}

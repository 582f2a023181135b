package io.topobridge.core.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.expand.Expansion;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.testing.Renderers;
import io.topobridge.testing.Upstream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Renderer#render(List, Expansion.Limits)}: upstream samples alone render with what their controllers would
 * make (a StormService's RoleSets and their PodGroups, an LWS's groups with their pods tied), objects given are never
 * made again, and a hostile replica count stays bounded with a note; {@link Renderer#render(List)} renders the input
 * as it is.
 */
class RenderExpansionTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final String NAMESPACE = """
            apiVersion: v1
            kind: Namespace
            metadata: {name: ns, labels: {topobridge.io/enabled: "true"}}
            """;

    @TempDir
    Path dir;

    private static Renderer renderer() {
        return Renderers.of(
                TopologySettings.parse(TopologySettings.AUTO, null),
                Fixtures.defaultSettings(),
                new AdmissionSettings("volcano"));
    }

    /**
     * The example GPU cluster, an opted-in namespace {@code ns} and the manifest's objects placed in it, each annotated
     * {@code topobridge.io/highest-tier: leaf} unless it has a {@code topobridge.io/} annotation (as a user opts an
     * upstream sample in).
     */
    private List<HasMetadata> inputs(Path manifest) throws Exception {
        Path ns = dir.resolve("ns.yaml");
        Files.writeString(ns, NAMESPACE);
        var read = new ManifestReader(SERIALIZATION).read(List.of(Path.of("examples/gpu-cluster/nodes.yaml"), ns));
        assertThat(read.findings()).isEmpty();
        List<HasMetadata> out = new ArrayList<>(read.objects());
        var manifest2 = new ManifestReader(SERIALIZATION).read(List.of(manifest));
        assertThat(manifest2.findings()).isEmpty();
        for (HasMetadata object : manifest2.objects()) {
            object.getMetadata().setNamespace("ns");
            var annotations = new TreeMap<String, String>();
            if (object.getMetadata().getAnnotations() != null) {
                annotations.putAll(object.getMetadata().getAnnotations());
            }
            if (annotations.keySet().stream().noneMatch(k -> k.startsWith("topobridge.io/"))) {
                annotations.put("topobridge.io/highest-tier", "leaf");
            }
            object.getMetadata().setAnnotations(annotations);
            out.add(object);
        }
        return out;
    }

    private static Map<String, String> groupOfPods(RenderOutput out) {
        Map<String, String> groups = new TreeMap<>();
        for (Pod pod : out.pods()) {
            var annotations = pod.getMetadata().getAnnotations();
            groups.put(
                    pod.getMetadata().getName(),
                    annotations == null ? null : annotations.get("scheduling.k8s.io/group-name"));
        }
        return groups;
    }

    private static List<String> names(List<? extends HasMetadata> objects, String kind) {
        return objects.stream()
                .filter(o -> kind.equals(o.getKind()))
                .map(o -> o.getMetadata().getName())
                .toList();
    }

    @Test
    void anUpstreamStormServiceAloneRendersItsRoleSetsPodGroupsOnlyWhenExpanded() throws Exception {
        // AIBrix v0.7.0's own quickstart sample: one replica, a prefill and a decode role of one GPU each, stateful
        List<HasMetadata> inputs = inputs(Upstream.file("aibrix", "samples/quickstart/pd-model.yaml"));

        RenderOutput asGiven = renderer().render(inputs);
        assertThat(asGiven.podGroups()).isEmpty();
        assertThat(asGiven.pods()).isEmpty();
        assertThat(asGiven.expanded()).isEmpty();
        assertThat(asGiven.findings()).anyMatch(f -> f.reason().reason().equals("WaitingForRoleSets"));

        RenderOutput expanded = renderer().render(inputs, Expansion.Limits.DEFAULT);
        assertThat(expanded.rejected()).as(expanded.findings().toString()).isFalse();
        assertThat(expanded.findings()).noneMatch(f -> f.reason().reason().equals("WaitingForRoleSets"));
        List<String> roleSets = names(expanded.expanded(), "RoleSet");
        assertThat(roleSets).hasSize(1).allMatch(n -> n.startsWith("vllm-1p1d-roleset-"));
        assertThat(expanded.podGroups()).extracting(DesiredPodGroup::name).containsExactly("tb-rs-" + roleSets.get(0));
        assertThat(expanded.podGroups().get(0).spec().getMinMember())
                .as("a prefill and a decode pod")
                .isEqualTo(2);
        assertThat(groupOfPods(expanded))
                .as("every pod AIBrix would make, tied to its RoleSet's gang")
                .hasSize(2)
                .allSatisfy((pod, group) -> assertThat(group).isEqualTo("tb-rs-" + roleSets.get(0)));
        assertThat(expanded.notes()).anyMatch(n -> n.startsWith("INFO StormService/ns/vllm-1p1d GeneratedNames: "));
    }

    @Test
    void aStormServiceOfTwoReplicasRendersAPodGroupPerRoleSet() throws Exception {
        List<HasMetadata> inputs = inputs(Path.of("src/test/resources/expansion/aibrix-stormservices.yaml"));
        RenderOutput out = renderer().render(inputs, Expansion.Limits.DEFAULT);
        List<String> pdTwo = names(out.expanded(), "RoleSet").stream()
                .filter(n -> n.startsWith("pd-two-"))
                .toList();
        assertThat(pdTwo).hasSize(2);
        assertThat(out.podGroups())
                .extracting(DesiredPodGroup::name)
                .containsAll(pdTwo.stream().map(n -> "tb-rs-" + n).toList());
        // per RoleSet: 2 PodSets of 2 prefill pods, each pod in the PodGroup its PodSet's Volcano strategy names
        // (AIBrix makes that one), and 1 gateway pod in the RoleSet's gang
        for (String roleSet : pdTwo) {
            List<Pod> pods = out.pods().stream()
                    .filter(p -> p.getMetadata().getName().startsWith(roleSet + "-"))
                    .toList();
            assertThat(pods).hasSize(5);
            for (Pod pod : pods) {
                String group = pod.getMetadata().getAnnotations().get("scheduling.k8s.io/group-name");
                String podSet = pod.getMetadata().getLabels().get("stormservice.orchestration.aibrix.ai/podset-name");
                assertThat(group)
                        .as(pod.getMetadata().getName())
                        .isEqualTo(podSet == null ? "tb-rs-" + roleSet : podSet);
            }
        }
    }

    @Test
    void anUpstreamLeaderWorkerSetRendersItsGroupsPodsTiedToTheirPodGroups() throws Exception {
        // LWS v0.9.0's own sample: 3 groups of 4
        List<HasMetadata> inputs =
                inputs(Upstream.file("lws", "config/samples/leaderworkerset_v1_leaderworkerset.yaml"));

        RenderOutput asGiven = renderer().render(inputs);
        assertThat(asGiven.pods()).isEmpty();

        RenderOutput out = renderer().render(inputs, Expansion.Limits.DEFAULT);
        assertThat(out.rejected()).as(out.findings().toString()).isFalse();
        assertThat(out.podGroups())
                .extracting(DesiredPodGroup::name)
                .containsExactly(
                        "tb-lws-leaderworkerset-sample-0",
                        "tb-lws-leaderworkerset-sample-1",
                        "tb-lws-leaderworkerset-sample-2");
        Map<String, String> groups = groupOfPods(out);
        assertThat(groups).hasSize(12);
        for (int g = 0; g < 3; g++) {
            String group = "tb-lws-leaderworkerset-sample-" + g;
            assertThat(groups)
                    .containsEntry("leaderworkerset-sample-" + g, group)
                    .containsEntry("leaderworkerset-sample-" + g + "-1", group)
                    .containsEntry("leaderworkerset-sample-" + g + "-2", group)
                    .containsEntry("leaderworkerset-sample-" + g + "-3", group);
        }
        assertThat(names(out.expanded(), "StatefulSet"))
                .as("the leader StatefulSet, then a worker StatefulSet per group")
                .containsExactly(
                        "leaderworkerset-sample",
                        "leaderworkerset-sample-0",
                        "leaderworkerset-sample-1",
                        "leaderworkerset-sample-2");
    }

    @Test
    void aDeploymentsPodsAreTiedToItsGang() throws Exception {
        Path file = dir.resolve("d.yaml");
        Files.writeString(file, """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, annotations: {topobridge.io/highest-tier: leaf}}
                spec:
                  replicas: 3
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}}]}
                """);
        RenderOutput out = renderer().render(inputs(file), Expansion.Limits.DEFAULT);
        assertThat(out.podGroups()).extracting(DesiredPodGroup::name).containsExactly("tb-deploy-web");
        assertThat(names(out.expanded(), "ReplicaSet")).hasSize(1).allMatch(n -> n.startsWith("web-"));
        assertThat(groupOfPods(out)).hasSize(3).containsValues("tb-deploy-web", "tb-deploy-web", "tb-deploy-web");
    }

    @Test
    void objectsGivenAreNeverMadeAgain() throws Exception {
        List<HasMetadata> inputs = inputs(Upstream.file("aibrix", "samples/quickstart/pd-model.yaml"));
        inputs.addAll(inputs(Upstream.file("lws", "config/samples/leaderworkerset_v1_leaderworkerset.yaml")).stream()
                .filter(o -> o.getKind().equals("LeaderWorkerSet"))
                .toList());
        RenderOutput first = renderer().render(inputs, Expansion.Limits.DEFAULT);
        assertThat(first.expanded()).isNotEmpty();

        // what the controllers made, given back as the cluster would show it: nothing more is made
        List<HasMetadata> cluster = new ArrayList<>(inputs);
        cluster.addAll(first.expanded());
        cluster.addAll(first.pods());
        RenderOutput again = renderer().render(cluster, Expansion.Limits.DEFAULT);
        assertThat(again.expanded()).isEmpty();
        assertThat(again.notes()).noneMatch(n -> n.contains("GeneratedNames"));
        assertThat(groupOfPods(again)).isEqualTo(groupOfPods(first));
        assertThat(again.podGroups()).isEqualTo(first.podGroups());

        // only the RoleSet given: its pods are made, the RoleSet is not made twice
        List<HasMetadata> roleSetOnly = new ArrayList<>(inputs);
        roleSetOnly.addAll(first.expanded().stream()
                .filter(o -> o.getKind().equals("RoleSet"))
                .toList());
        RenderOutput partial = renderer().render(roleSetOnly, Expansion.Limits.DEFAULT);
        assertThat(names(partial.expanded(), "RoleSet")).isEmpty();
        assertThat(groupOfPods(partial).keySet())
                .containsAll(groupOfPods(first).keySet().stream()
                        .filter(n -> n.startsWith("vllm-1p1d"))
                        .toList());
    }

    @Test
    void aHostileReplicaCountStaysBoundedAndIsNoted() throws Exception {
        Path file = dir.resolve("hostile.yaml");
        Files.writeString(file, """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: huge, annotations: {topobridge.io/highest-tier: leaf}}
                spec:
                  replicas: 2000000
                  leaderWorkerTemplate:
                    size: 8
                    workerTemplate: {spec: {containers: [{name: c, image: x}]}}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: small}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: small}}
                  template: {metadata: {labels: {app: small}}, spec: {containers: [{name: c, image: x}]}}
                """, StandardCharsets.UTF_8);
        RenderOutput out = renderer().render(inputs(file), new Expansion.Limits(100, 1000));
        long hugePods = out.pods().stream()
                .filter(p -> p.getMetadata().getName().startsWith("huge-"))
                .count();
        long hugeOther = out.expanded().stream()
                .filter(o -> o.getMetadata().getName().startsWith("huge"))
                .count();
        assertThat(hugePods + hugeOther).as("objects made for the LWS").isBetween(1L, 100L);
        assertThat(hugePods % 8).as("whole groups only").isZero();
        assertThat(out.notes())
                .anyMatch(n -> n.startsWith("WARNING LeaderWorkerSet/ns/huge ExpansionCapped: render shows "));
        assertThat(names(out.pods(), "Pod").stream().filter(n -> n.startsWith("small-")))
                .as("the workload next to it is expanded whole")
                .hasSize(2);
        assertThat(new TreeSet<>(out.notes())).as("each note once").hasSameSizeAs(out.notes());
        System.out.printf(
                "hostile LWS of 2,000,000 groups of 8 at a cap of 100: %d pods and %d other objects made; notes %s%n",
                hugePods,
                hugeOther,
                out.notes().stream().filter(n -> n.contains("huge")).collect(Collectors.joining(" | ")));
    }
}

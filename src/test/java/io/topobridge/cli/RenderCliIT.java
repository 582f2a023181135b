package io.topobridge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.topobridge.testing.PackagedApp;
import io.topobridge.testing.Upstream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code render} command of the packaged jar: help, exit codes, findings on stderr, clean stdout, workloads
 * expanded into what their controllers make (and not with {@code --no-expand}), bounded on hostile input.
 */
class RenderCliIT {

    private static final YAMLMapper YAML = new YAMLMapper();

    /** The example GPU cluster: its Nodes give the tiers ({@code leaf} among them) and the capacity. */
    private static final String CLUSTER = "examples/gpu-cluster";

    @TempDir
    Path dir;

    /** An opted-in namespace {@code ns}. */
    private static final String NAMESPACE = """
            apiVersion: v1
            kind: Namespace
            metadata: {name: ns, labels: {topobridge.io/enabled: "true"}}
            """;

    /**
     * An upstream sample as a user opts it in: placed in namespace {@code ns}, annotated
     * {@code topobridge.io/highest-tier: leaf}; otherwise as the module ships it.
     */
    private Path optedIn(Path sample) throws Exception {
        StringBuilder out = new StringBuilder(NAMESPACE);
        try (var parser = YAML.getFactory().createParser(sample.toFile())) {
            for (var docs = YAML.readValues(parser, JsonNode.class); docs.hasNext(); ) {
                JsonNode doc = docs.next();
                if (doc == null || !doc.isObject()) {
                    continue;
                }
                var metadata = (com.fasterxml.jackson.databind.node.ObjectNode) doc.path("metadata");
                metadata.put("namespace", "ns");
                metadata.withObject("/annotations").put("topobridge.io/highest-tier", "leaf");
                out.append("---\n").append(YAML.writeValueAsString(doc).replaceFirst("^---\n", ""));
            }
        }
        Path file = dir.resolve(sample.getFileName());
        Files.writeString(file, out.toString());
        return file;
    }

    /** The printed documents of one kind. */
    private static List<JsonNode> documents(String stdout, String kind) throws Exception {
        return RenderRefusalsTest.documents(stdout, kind);
    }

    /** The printed pods and the PodGroup each is tied to (empty when none). */
    private static Map<String, String> podGroupOfPods(String stdout) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode pod : documents(stdout, "Pod")) {
            out.put(
                    pod.path("metadata").path("name").asText(),
                    pod.path("metadata")
                            .path("annotations")
                            .path("scheduling.k8s.io/group-name")
                            .asText());
        }
        return out;
    }

    private static List<String> names(List<JsonNode> documents) {
        return documents.stream()
                .map(d -> d.path("metadata").path("name").asText())
                .toList();
    }

    @Test
    void anUpstreamStormServiceAloneRendersItsRoleSetsPodGroupsUnlessNoExpand() throws Exception {
        // AIBrix v0.7.0's quickstart sample: one RoleSet of a prefill and a decode pod
        Path input = optedIn(Upstream.file("aibrix", "samples/quickstart/pd-model.yaml"));

        var expanded = PackagedApp.run("render", CLUSTER, input.toString());
        assertThat(expanded.exitCode()).as(expanded.stderr()).isZero();
        List<String> roleSets = names(documents(expanded.stdout(), "RoleSet"));
        assertThat(roleSets).hasSize(1).allMatch(n -> n.matches("vllm-1p1d-roleset-[bcdfghjklmnpqrstvwxz2456789]{5}"));
        String gang = "tb-rs-" + roleSets.get(0);
        assertThat(names(documents(expanded.stdout(), "PodGroup"))).containsExactly(gang);
        assertThat(podGroupOfPods(expanded.stdout()))
                .as("the prefill and decode pods, as admission lets them in")
                .hasSize(2)
                .allSatisfy((pod, group) -> assertThat(group).isEqualTo(gang));
        assertThat(expanded.stderr())
                .doesNotContain("WaitingForRoleSets")
                .contains("NOTE INFO StormService/ns/vllm-1p1d GeneratedNames: ");
        assertThat(expanded.stderr().lines().filter(l -> l.contains("GeneratedNames")))
                .as("each note once")
                .hasSize(1);

        var asGiven = PackagedApp.run("render", "--no-expand", CLUSTER, input.toString());
        assertThat(asGiven.exitCode()).as(asGiven.stderr()).isZero();
        assertThat(documents(asGiven.stdout(), "PodGroup")).isEmpty();
        assertThat(documents(asGiven.stdout(), "RoleSet")).isEmpty();
        assertThat(documents(asGiven.stdout(), "Pod")).isEmpty();
        assertThat(asGiven.stderr())
                .contains("StormService/ns/vllm-1p1d WaitingForRoleSets")
                .doesNotContain("GeneratedNames");
    }

    @Test
    void anUpstreamLeaderWorkerSetRendersItsPodsTiedToTheirGroupsPodGroups() throws Exception {
        // LWS v0.9.0's own sample: 3 groups of 4
        Path input = optedIn(Upstream.file("lws", "config/samples/leaderworkerset_v1_leaderworkerset.yaml"));
        var run = PackagedApp.run("render", CLUSTER, input.toString());
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(names(documents(run.stdout(), "PodGroup")))
                .containsExactly(
                        "tb-lws-leaderworkerset-sample-0",
                        "tb-lws-leaderworkerset-sample-1",
                        "tb-lws-leaderworkerset-sample-2");
        Map<String, String> expected = new TreeMap<>();
        for (int g = 0; g < 3; g++) {
            expected.put("leaderworkerset-sample-" + g, "tb-lws-leaderworkerset-sample-" + g);
            for (int w = 1; w < 4; w++) {
                expected.put("leaderworkerset-sample-" + g + "-" + w, "tb-lws-leaderworkerset-sample-" + g);
            }
        }
        assertThat(podGroupOfPods(run.stdout())).isEqualTo(expected);
        assertThat(names(documents(run.stdout(), "StatefulSet")))
                .containsExactly(
                        "leaderworkerset-sample",
                        "leaderworkerset-sample-0",
                        "leaderworkerset-sample-1",
                        "leaderworkerset-sample-2");
    }

    @Test
    void aHostileReplicaCountStaysBoundedInASmallHeapAndSaysWhatItLeftOut() throws Exception {
        Files.writeString(dir.resolve("huge.yaml"), NAMESPACE + """
                ---
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: huge, namespace: ns, annotations: {topobridge.io/highest-tier: leaf}}
                spec:
                  replicas: 2000000
                  leaderWorkerTemplate:
                    size: 8
                    workerTemplate: {spec: {containers: [{name: c, image: x}]}}
                """);
        long start = System.nanoTime();
        // 2,000,000 groups of 8 would be 18,000,001 objects: a 96 MiB heap holds the default cap of 1000
        var run = PackagedApp.run(List.of("-Xmx96m"), "render", CLUSTER, dir.toString());
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(run.stderr()).doesNotContain("OutOfMemoryError").doesNotContain("Exception");
        // a cap is a NOTE, never a rejection; the controller itself refuses 2,000,000 PodGroups for one workload
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(1);
        assertThat(run.stderr().lines().filter(l -> l.startsWith("REJECTED")))
                .as(run.stderr())
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("REJECTED LeaderWorkerSet/ns/huge TooManyGangs: ");
        assertThat(run.stderr())
                .contains("NOTE WARNING LeaderWorkerSet/ns/huge ExpansionCapped: render shows 1000 of the 18000001"
                        + " objects its controllers would make");
        int pods = documents(run.stdout(), "Pod").size();
        int statefulSets = documents(run.stdout(), "StatefulSet").size();
        assertThat(pods + statefulSets).isEqualTo(1000);
        assertThat(pods % 8).as("whole groups").isZero();
        System.out.printf(
                "render of a 2,000,000-group LWS in -Xmx96m: %d pods and %d StatefulSets in %d ms%n",
                pods, statefulSets, millis);

        var zero = PackagedApp.run("render", "--expand-cap", "0", CLUSTER, dir.toString());
        assertThat(zero.exitCode()).as(zero.stderr()).isEqualTo(1);
        assertThat(documents(zero.stdout(), "Pod")).isEmpty();
        assertThat(zero.stderr()).contains("NOTE WARNING LeaderWorkerSet/ns/huge ExpansionCapped: render shows 0 of");

        var tooHigh = PackagedApp.run("render", "--expand-total-cap", "100001", dir.toString());
        assertThat(tooHigh.exitCode()).isEqualTo(2);
        assertThat(tooHigh.stderr()).contains("--expand-total-cap must be between 0 and 100000, got 100001");
    }

    @Test
    void helpDocumentsTheCommand() throws Exception {
        var run = PackagedApp.run("render", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout())
                .contains(
                        "Usage: topobridge render",
                        "--preset",
                        "--tiers",
                        "--no-expand",
                        "--expand-cap",
                        "--expand-total-cap",
                        "Exit codes:");
    }

    @Test
    void usageErrorsExitWithTwo() throws Exception {
        assertThat(PackagedApp.run("render").exitCode()).isEqualTo(2);
        var missing = PackagedApp.run("render", dir.resolve("nope.yaml").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.stderr()).contains("no such file or folder");
        var duplicate = PackagedApp.run("render", "--tiers", "rack,rack", dir.toString());
        assertThat(duplicate.exitCode()).isEqualTo(2);
        assertThat(duplicate.stderr()).contains("label key 'rack' is listed twice");
    }

    @Test
    void rejectedDocumentsExitWithOneAndNameTheDocument() throws Exception {
        Files.writeString(dir.resolve("mixed.yaml"), """
                apiVersion: v1
                kind: Node
                metadata:
                  name: n1
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: n2}
                metadata: {name: n3}
                ---
                just: a map
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: p1
                  namespace: ns
                spec:
                  containers: [{name: c, image: busybox}]
                """);
        var run = PackagedApp.run("render", dir.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stderr())
                .contains("REJECTED File/" + dir.resolve("mixed.yaml") + "#2 UnreadableDocument: key \"metadata\" is"
                        + " given twice in one mapping, at lines 8 and 9")
                .contains("NOTE " + dir.resolve("mixed.yaml") + "#3 (line 11) is skipped: not a Kubernetes object");
        // the valid pod is still printed, and stdout is nothing but YAML documents
        assertThat(run.stdout()).contains("kind: Pod").contains("name: p1");
        assertThat(run.stdout().strip()).startsWith("---");
    }

    @Test
    void hostileWorkloadsCostOnlyThemselvesAndPrintNoStackTrace() throws Exception {
        Files.writeString(dir.resolve("hostile.yaml"), io.topobridge.core.topology.RenderCliTest.HOSTILE);
        var run = PackagedApp.run("render", dir.toString());
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(1);
        assertThat(run.stdout()).contains("name: tb-deploy-good").doesNotContain("tb-deploy-quantity");
        assertThat(run.stderr().lines())
                .as(run.stderr())
                .isNotEmpty()
                .allMatch(l -> l.matches("(INFO|WARNING|REJECTED) \\S+ \\S+: .*|NOTE .*"))
                .noneMatch(l -> l.contains("Exception") || l.startsWith("\tat "));
        assertThat(run.stderr()).contains("REJECTED Deployment/ns/quantity UnreadableWorkload");
    }

    @Test
    void cleanInputExitsWithZeroAndNoLogNoise() throws Exception {
        Files.writeString(dir.resolve("pod.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata: {name: p1, namespace: ns}
                spec: {containers: [{name: c, image: busybox}]}
                """);
        var run = PackagedApp.run("render", dir.toString());
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stderr()).isEmpty();
    }
}

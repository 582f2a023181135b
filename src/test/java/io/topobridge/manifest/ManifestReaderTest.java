package io.topobridge.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.finding.Finding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Manifests read strictly: duplicate keys refused naming file and lines, anchors, aliases and merge keys resolved, an
 * alias bomb refused quickly, documents that are no Kubernetes objects skipped with a note, and every valid document
 * next to a refused one still read.
 */
class ManifestReaderTest {

    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: ok, namespace: ns}
            spec: {containers: [{name: c, image: x}]}
            """;

    @TempDir
    Path dir;

    private ManifestReader.Result read(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return new ManifestReader(new KubernetesSerialization()).read(List.of(file));
    }

    private static List<String> names(ManifestReader.Result result) {
        return result.objects().stream().map(o -> o.getMetadata().getName()).toList();
    }

    @Test
    void aKeyGivenTwiceRefusesItsDocumentNamingFileAndLines() throws Exception {
        // a missing '---': the Queue's keys would silently replace the Node's
        var result = read("nodes.yaml", """
                apiVersion: v1
                kind: Node
                metadata:
                  name: n1
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata:
                  name: q1
                ---
                """ + POD);
        assertThat(names(result)).containsExactly("ok");
        assertThat(result.findings())
                .singleElement()
                .extracting(Finding::line)
                .asString()
                .startsWith("REJECTED File/" + dir.resolve("nodes.yaml") + "#1 UnreadableDocument: ")
                .contains("key \"apiVersion\" is given twice in one mapping, at lines 1 and 5");
    }

    @Test
    void aDuplicateKeyDeepInsideIsFoundToo() throws Exception {
        var result = read("deep.yaml", """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: p
                  labels: {a: "1", a: "2"}
                """);
        assertThat(result.objects()).isEmpty();
        assertThat(result.findings())
                .singleElement()
                .extracting(Finding::line)
                .asString()
                .contains("at lines 5 and 5");
    }

    @Test
    void anchorsAliasesAndMergeKeysAreResolved() throws Exception {
        // anchors hold within one document: a List carries both pods
        var result = read("anchors.yaml", """
                apiVersion: v1
                kind: List
                items:
                - apiVersion: v1
                  kind: Pod
                  metadata:
                    name: p1
                    namespace: ns
                    labels: &labels {app: vllm, tier: decode}
                  spec:
                    containers:
                    - &container
                      name: c
                      image: vllm
                      resources: {limits: {nvidia.com/gpu: "4"}}
                - apiVersion: v1
                  kind: Pod
                  metadata:
                    name: p2
                    namespace: ns
                    labels:
                      <<: *labels
                      tier: prefill
                  spec:
                    containers: [*container]
                """);
        assertThat(result.findings()).isEmpty();
        assertThat(names(result)).containsExactly("p1", "p2");
        Pod p2 = (Pod) result.objects().get(1);
        assertThat(p2.getMetadata().getLabels())
                .containsExactly(java.util.Map.entry("tier", "prefill"), java.util.Map.entry("app", "vllm"));
        assertThat(p2.getSpec()
                        .getContainers()
                        .get(0)
                        .getResources()
                        .getLimits()
                        .get("nvidia.com/gpu")
                        .toString())
                .isEqualTo("4");
    }

    @Test
    void anAliasBombIsRefusedQuicklyAndTheNextDocumentIsStillRead() throws Exception {
        StringBuilder bomb = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n");
        bomb.append("  a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        String previous = "a";
        for (char c = 'b'; c <= 'i'; c++) {
            bomb.append("  ").append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 9; i++) {
                bomb.append(i == 0 ? "" : ",").append('*').append(previous);
            }
            bomb.append("]\n");
            previous = String.valueOf(c);
        }
        long start = System.nanoTime();
        var result = read("bomb.yaml", bomb + "---\n" + POD);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(millis).as("refused before expanding ~10^9 nodes").isLessThan(5_000);
        assertThat(names(result)).containsExactly("ok");
        assertThat(result.findings())
                .singleElement()
                .extracting(Finding::line)
                .asString()
                .contains("#1 UnreadableDocument: aliases expand to more than 100000 nodes");
    }

    @Test
    void anAliasWithoutAnchorIsRefused() throws Exception {
        var result = read("alias.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: *nope}\n");
        assertThat(result.objects()).isEmpty();
        assertThat(result.findings())
                .singleElement()
                .extracting(Finding::line)
                .asString()
                .contains("*nope");
    }

    @Test
    void documentsThatAreNoKubernetesObjectsAreSkippedWithANote() throws Exception {
        Files.writeString(dir.resolve("values.yaml"), "replicaCount: 2\nimage: {repository: x}\n");
        Files.writeString(dir.resolve("kustomization.yaml"), "resources: [pod.yaml]\n");
        Files.writeString(dir.resolve("pod.yaml"), "# a comment only document\n---\n" + POD + "---\n- a\n- list\n");
        var result = new ManifestReader(new KubernetesSerialization()).read(List.of(dir));
        assertThat(result.findings()).isEmpty();
        assertThat(result.objects()).extracting(HasMetadata::getKind).containsExactly("Pod");
        assertThat(result.notes())
                .containsExactly(
                        dir.resolve("kustomization.yaml") + "#1 (line 1) is skipped: not a Kubernetes object (no"
                                + " apiVersion and kind)",
                        dir.resolve("pod.yaml") + "#2 (line 8) is skipped: not a Kubernetes object (no apiVersion"
                                + " and kind)",
                        dir.resolve("values.yaml") + "#1 (line 1) is skipped: not a Kubernetes object (no apiVersion"
                                + " and kind)");
    }

    @Test
    void invalidYamlIsRefusedNamingTheDocument() throws Exception {
        var result = read("broken.yaml", POD + "---\nkey: [unclosed\n");
        assertThat(names(result)).isEmpty();
        assertThat(result.findings())
                .singleElement()
                .extracting(Finding::line)
                .asString()
                .contains("broken.yaml#2 UnreadableDocument: not valid YAML");
    }
}

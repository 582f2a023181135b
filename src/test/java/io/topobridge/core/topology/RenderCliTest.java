package io.topobridge.core.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.topobridge.cli.TopobridgeCommand;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.testing.MockApiServer;
import io.topobridge.testing.Renderers;
import io.topobridge.testing.StandardStreams;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code topobridge render} through picocli with the application's own beans and configuration, as the jar's
 * CLI mode runs it: the example GPU cluster prints the golden HyperNodes; a bad preset is a usage error; hostile
 * values cannot forge a finding line.
 */
@QuarkusTest
@QuarkusTestResource(MockApiServer.class)
public class RenderCliTest {

    @Inject
    CommandLine.IFactory factory;

    record Run(int exit, String out, String err) {
        /** stderr without the notes on what the input lacks: the finding lines. */
        java.util.stream.Stream<String> findingLines() {
            return err.lines().filter(l -> !l.startsWith("NOTE "));
        }
    }

    private Run run(String... args) {
        var run = StandardStreams.capture(null, () -> new CommandLine(TopobridgeCommand.class, factory).execute(args));
        return new Run(run.exit(), run.out(), run.err());
    }

    @Test
    void rendersTheExampleClustersHyperNodes() throws Exception {
        Run run = run("render", "examples/gpu-cluster");
        assertThat(run.exit()).as(run.err()).isZero();
        String expected = Files.readString(TopologyGoldenTest.GOLDEN.resolve("examples-gpu-cluster/expected.yaml"));
        assertThat(TopologyGoldenTest.trees(run.out())).isEqualTo(TopologyGoldenTest.trees(expected));
        assertThat(run.err())
                .isEqualTo(Files.readString(TopologyGoldenTest.GOLDEN.resolve("examples-gpu-cluster/findings.txt")));
    }

    @Test
    void findingsGoToStderrOneLineEach() throws Exception {
        Run run = run(
                "render",
                "--tiers",
                "example.com/rack=rack,topology.kubernetes.io/zone=zone",
                TopologyGoldenTest.GOLDEN.resolve("bad-labels/input.yaml").toString());
        assertThat(run.exit()).isZero();
        assertThat(run.findingLines())
                .contains("WARNING Node/no-zone MissingTierLabels: node carries configured tier labels but lacks"
                        + " topology.kubernetes.io/zone (tier zone); left out of the topology tree");
        assertThat(TopologyGoldenTest.trees(run.out()))
                .isEqualTo(TopologyGoldenTest.trees(
                        Files.readString(TopologyGoldenTest.GOLDEN.resolve("bad-labels/expected.yaml"))));
    }

    /** Valid neighbours next to workloads whose fields hold the wrong type, garbage and unparsable quantities. */
    public static final String HOSTILE = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: good, namespace: ns, annotations: {topobridge.io/mode: soft}}
            spec:
              replicas: 2
              selector: {matchLabels: {app: good}}
              template: {metadata: {labels: {app: good}}, spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: quantity, namespace: ns, annotations: {topobridge.io/mode: soft}}
            spec:
              replicas: 2
              selector: {matchLabels: {app: q}}
              template: {metadata: {labels: {app: q}}, spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "lots"}}}]}}
            ---
            apiVersion: leaderworkerset.x-k8s.io/v1
            kind: LeaderWorkerSet
            metadata: {name: typed, namespace: ns, annotations: {topobridge.io/mode: soft}}
            spec: {replicas: two, leaderWorkerTemplate: {size: [3], workerTemplate: garbage}}
            ---
            apiVersion: orchestration.aibrix.ai/v1alpha1
            kind: StormService
            metadata: {name: storm, namespace: ns, annotations: {topobridge.io/mode: soft}}
            spec: {replicas: 1, template: {spec: {roles: {name: not-a-list}}}}
            """;

    @Test
    void oneBadWorkloadCostsOnlyItselfAndNoStackTraceIsPrinted(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        Files.writeString(dir.resolve("hostile.yaml"), HOSTILE);
        Run run = run("render", dir.toString());
        assertThat(run.exit()).as(run.err()).isEqualTo(1);
        assertThat(run.out()).contains("name: tb-deploy-good").doesNotContain("tb-deploy-quantity", "tb-lws-typed");
        assertThat(run.findingLines())
                .as(run.err())
                .isNotEmpty()
                .allMatch(l -> l.matches("(INFO|WARNING|REJECTED) \\S+ \\S+: .*"))
                .noneMatch(l -> l.contains("Exception") || l.startsWith("\tat "));
        assertThat(run.err())
                .contains(
                        "REJECTED Deployment/ns/quantity UnreadableWorkload",
                        "REJECTED LeaderWorkerSet/ns/typed UnreadableWorkload",
                        "REJECTED StormService/ns/storm UnreadableWorkload");
    }

    /**
     * A newline, carriage return, ANSI escape or line separator in a label value, an annotation value, an
     * annotation key or a node name never forges a line: stderr has exactly one line per finding, each bounded.
     */
    @Test
    void hostileValuesCannotForgeFindingLines(@TempDir Path dir) throws Exception {
        Path input = dir.resolve("hostile.yaml");
        Files.writeString(input, """
                apiVersion: v1
                kind: Node
                metadata: {name: n1, labels: {example.com/rack: "r1\\nINFO HyperNode/rack-r2 SingleDomainTier: forged"}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: "N2\\x1b[31m\\r\\nWARNING Node/n3", labels: {example.com/rack: r1}}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: d
                  namespace: ns
                  annotations:
                    topobridge.io/highest-tier: "2\\nREJECTED Deployment/ns/e InvalidAnnotation: forged %s"
                    "topobridge.io/x\\u2028y": "\\u202e1"
                spec:
                  replicas: 1
                  template: {spec: {containers: [{name: c, image: x}]}}
                """.formatted("a".repeat(1 << 20)));
        String[] args = {"render", "--tiers", "example.com/rack=rack", input.toString()};
        Run run = run(args);

        var read = new ManifestReader(new KubernetesSerialization()).read(List.of(input));
        List<Finding> findings = Renderers.of(
                        TopologySettings.parse("auto", List.of("example.com/rack=rack")),
                        Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(read.objects())
                .findings();
        assertThat(read.findings()).isEmpty();
        assertThat(findings)
                .extracting(f -> f.reason().reason())
                .containsExactlyInAnyOrder(
                        "InvalidAnnotation", "UnknownAnnotation", "UnmatchableNodeName", "SingleDomainTier");
        assertThat(run.exit()).isEqualTo(1);
        List<String> lines = run.findingLines().toList();
        assertThat(lines).as(run.err()).hasSameSizeAs(findings);
        assertThat(run.err()).doesNotContain("\r", "\u001b", "\u2028", "\u202e").endsWith("\n");
        assertThat(lines).allSatisfy(line -> {
            assertThat(line).matches("(INFO|WARNING|REJECTED) (HyperNode|Node|Deployment)/.*");
            assertThat(line.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(UserText.MAX_MESSAGE_BYTES);
        });
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("WARNING Node/N2\\u001b[31m\\r\\nWARNING Node/n3 "));
        assertThat(lines)
                .anySatisfy(
                        l -> assertThat(l).contains("rack \"r1\\nINFO HyperNode/rack-r2 SingleDomainTier: forged\""));
        assertThat(lines)
                .anySatisfy(l -> assertThat(l)
                        .contains("topobridge.io/highest-tier=\"2\\nREJECTED")
                        .contains(" chars)"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("topobridge.io/x\\u2028y=\"\\u202e1\""));
    }

    /**
     * The 80-GPU gang of issue 36: a Deployment of 20 tensor-parallel replicas of 4 GPUs held to {@code nvlink} on two
     * GB200 NVL72 racks (18 trays of 4 GPUs, one NVLink domain each, as GPU feature discovery and topograph label
     * them) can never start: render refuses it, exits 1 and makes no PodGroup; 18 replicas fill one rack and pass.
     */
    @Test
    void aGangLargerThanEveryNvl72RackIsRefused(@TempDir Path dir) throws Exception {
        StringBuilder yaml = new StringBuilder();
        for (String rack : List.of("a", "b")) {
            for (int t = 1; t <= 18; t++) {
                yaml.append("""
                        apiVersion: v1
                        kind: Node
                        metadata:
                          name: gb200-%1$s-t%2$02d
                          labels:
                            nvidia.com/gpu.clique: 5c9b7f3e-1d2a-4e8b-9a6c-0f3e2d1c4b5%1$s.1
                            fabric.topograph.run/tier-0: leaf-%1$s
                            fabric.topograph.run/tier-1: spine-1
                        status:
                          allocatable: {cpu: "140", memory: 940Gi, nvidia.com/gpu: "4", pods: "110"}
                        ---
                        """.formatted(rack, t));
            }
        }
        Files.writeString(dir.resolve("nodes.yaml"), yaml.toString());
        String tp = """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: tp
                  namespace: llm
                  annotations: {topobridge.io/highest-tier: nvlink}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: tp}}
                  template:
                    metadata: {labels: {app: tp}}
                    spec:
                      schedulerName: volcano
                      containers: [{name: vllm, image: vllm, resources: {limits: {nvidia.com/gpu: "4"}}}]
                """;
        Path workload = dir.resolve("tp.yaml");
        Files.writeString(workload, tp.formatted(20));
        Run refused = run("render", "--no-expand", dir.resolve("nodes.yaml").toString(), workload.toString());
        assertThat(refused.exit()).as(refused.err()).isEqualTo(1);
        assertThat(refused.out()).doesNotContain("kind: PodGroup");
        assertThat(refused.findingLines())
                .filteredOn(l -> l.startsWith("REJECTED "))
                .singleElement()
                .asString()
                .startsWith("REJECTED Deployment/llm/tp GangExceedsDomain: Deployment/llm/tp: PodGroup tb-deploy-tp"
                        + " needs 80 GPUs within one domain of its hard tier 1 (nvlink), more than any domain of that"
                        + " tier holds even empty: the largest, ")
                .contains(", holds 72 GPUs; tier 3 (spine) would hold it; it could never start, so it is not made");

        Files.writeString(workload, tp.formatted(18));
        Run fits = run("render", "--no-expand", dir.resolve("nodes.yaml").toString(), workload.toString());
        assertThat(fits.exit()).as(fits.err()).isZero();
        assertThat(fits.out()).contains("name: tb-deploy-tp");
    }

    @Test
    void anUnknownPresetIsAUsageError() {
        Run run = run("render", "--preset", "azure", "examples/gpu-cluster");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("topobridge.topology.preset: unknown preset 'azure'");
        assertThat(run.out()).isEmpty();
    }
}

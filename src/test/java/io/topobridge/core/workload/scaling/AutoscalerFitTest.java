package io.topobridge.core.workload.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Cluster;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.render.RenderOutput;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.Autoscaler;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.translate.ScopeResult;
import io.topobridge.testing.Renderers;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An autoscaled part of a gang held to a hard tier, judged against the largest domain of that tier: a
 * DisaggregatedSet role with {@code scaling.mode: External} whose HorizontalPodAutoscaler targets the role's
 * {@code DisaggregatedSetRoleScaler} ({@code <set>-<role>}, LWS v0.10), a Deployment, an AIBrix StormService role under
 * a PodAutoscaler (fields as the AIBrix v0.7.0 CRD {@code autoscaling.aibrix.ai_podautoscalers} has them).
 */
class AutoscalerFitTest {

    private static final String GPU_POD =
            "{spec: {containers: [{name: c, image: x, resources: {requests: {cpu: \"4\", nvidia.com/gpu: \"4\"}}}]}}";

    /** Tier 1 (nvlink): two domains of 32 GPUs; tier 2 (rack): one of 64. */
    private static final TierDomains DOMAINS = Cluster.domains(
            Map.of(1, List.of(domain("nvl-a", 32), domain("nvl-b", 32)), 2, List.of(domain("rack-1", 64))),
            Map.of(1, "nvlink", 2, "rack"));

    private static TierDomains.Domain domain(String name, int gpus) {
        Amounts size =
                new Amounts(Map.of(Amounts.GPU, BigDecimal.valueOf(gpus), "cpu", BigDecimal.valueOf(gpus * 10L)));
        return Cluster.domain(name, size, size, Map.of());
    }

    /** A P/D set: prefill 2 groups of 1 pod, decode (scaled from outside) 1 group of 2 pods; 4 GPUs a pod. */
    private static String set(String tier, String moreAnnotations, String workerTemplate) {
        return Fixtures.pdSet(
                "u-ds", null, "topobridge.io/highest-tier: \"" + tier + "\"" + moreAnnotations, workerTemplate);
    }

    private static String hpa(String name, String apiVersion, String kind, String target, int max) {
        return """
                apiVersion: autoscaling/v2
                kind: HorizontalPodAutoscaler
                metadata: {name: %s, namespace: llm, uid: u-%s}
                spec:
                  scaleTargetRef: {apiVersion: %s, kind: %s, name: %s}
                  minReplicas: 1
                  maxReplicas: %d
                  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]
                """.formatted(name, name, apiVersion, kind, target, max);
    }

    private static List<Finding> judge(String yaml, GangScope scope) {
        List<HasMetadata> objects = Fixtures.objects(yaml);
        var lookup = Fixtures.lookup(objects).withDomains(() -> DOMAINS);
        ScopeResult result = Fixtures.translator()
                .translateScopes(List.of(scope), Fixtures.TIERS, lookup)
                .get(0);
        return AutoscalerFit.findings(result, lookup, Kinds.adapters());
    }

    private static final GangScope SET_SCOPE = new GangScope.Single(WorkloadKind.DISAGGREGATED_SET, "llm", "pd");
    private static final GangScope DEPLOY_SCOPE = new GangScope.Single(WorkloadKind.DEPLOYMENT, "llm", "decode");

    @Test
    void anExternallyScaledRoleWhoseMaximumOutgrowsTheLargestDomainIsSaidOnTheSet() {
        // at 6 decode groups the slice needs 2*4 + 6*8 = 56 GPUs; an nvlink domain holds 32: room for 3 decode groups
        List<Finding> found = judge(
                set("1", "", GPU_POD) + "---\n"
                        + hpa(
                                "decode-hpa",
                                "disaggregatedset.x-k8s.io/v1",
                                "DisaggregatedSetRoleScaler",
                                "pd-decode",
                                6),
                SET_SCOPE);
        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.AUTOSCALER_EXCEEDS_DOMAIN);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.object().kind()).isEqualTo("DisaggregatedSet");
            assertThat(f.key()).isEqualTo("HorizontalPodAutoscaler decode-hpa");
            assertThat(f.message())
                    .isEqualTo("DisaggregatedSet/llm/pd: HorizontalPodAutoscaler decode-hpa may scale role decode to 6"
                            + " replicas (maxReplicas; 1 now), and PodGroup tb-ds-pd-0 would then need 56 GPUs, more than"
                            + " any domain of its hard tier 1 (nvlink) holds: the largest, nvl-a, has 32 GPUs, room for 3"
                            + " replicas; the replicas past that stay pending (hard places the whole gang in one domain):"
                            + " lower maxReplicas, raise the tier or make it soft");
        });
    }

    static Stream<Arguments> quiet() {
        String roleScaler = "DisaggregatedSetRoleScaler";
        String ds = "disaggregatedset.x-k8s.io/v1";
        return Stream.of(
                Arguments.of(
                        "a maximum that fits (3 decode groups: 32 GPUs)",
                        set("1", "", GPU_POD) + "---\n" + hpa("h", ds, roleScaler, "pd-decode", 3)),
                Arguments.of(
                        "a higher tier that holds it (rack: 64 GPUs)",
                        set("2", "", GPU_POD) + "---\n" + hpa("h", ds, roleScaler, "pd-decode", 6)),
                Arguments.of(
                        "a soft tier (Volcano places what does not fit across domains)",
                        set("1", ", topobridge.io/mode: soft", GPU_POD) + "---\n"
                                + hpa("h", ds, roleScaler, "pd-decode", 6)),
                Arguments.of(
                        "the scaler of another set's role",
                        set("1", "", GPU_POD) + "---\n" + hpa("h", ds, roleScaler, "other-decode", 6)),
                Arguments.of(
                        "a role that is not scaled from outside",
                        set("1", "", GPU_POD) + "---\n" + hpa("h", ds, roleScaler, "pd-prefill", 60)),
                Arguments.of(
                        "an autoscaler whose maximum is no more than the replicas",
                        set("1", "", GPU_POD).replace("replicas: 1,", "replicas: 3,") + "---\n"
                                + hpa("h", ds, roleScaler, "pd-decode", 3)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("quiet")
    void nothingIsSaidWhenTheGangFitsOrIsNotHeldHard(String name, String yaml) {
        assertThat(judge(yaml, SET_SCOPE)).isEmpty();
    }

    @Test
    void aDeploymentUnderAnHpaIsJudgedAndNoDomainKnownMeansNothingToSay() {
        String deployment = Fixtures.deployment("llm", "decode", 2, Map.of("topobridge.io/highest-tier", "1"));
        // 1 GPU a pod: 40 replicas need 40 GPUs, more than an nvlink domain's 32
        List<Finding> found =
                judge(deployment + "---\n" + hpa("web", "apps/v1", "Deployment", "decode", 40), DEPLOY_SCOPE);
        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.object().kind()).isEqualTo("Deployment");
            assertThat(f.message())
                    .contains("may scale Deployment decode to 40 replicas (maxReplicas; 2 now)")
                    .contains("would then need 40 GPUs")
                    .contains("room for 32 replicas");
        });
        assertThat(judge(deployment + "---\n" + hpa("web", "apps/v1", "Deployment", "decode", 32), DEPLOY_SCOPE))
                .isEmpty();
        List<HasMetadata> objects =
                Fixtures.objects(deployment + "---\n" + hpa("web", "apps/v1", "Deployment", "decode", 40));
        var unknown = Fixtures.lookup(objects);
        assertThat(AutoscalerFit.findings(
                        Fixtures.translator()
                                .translateScopes(List.of(DEPLOY_SCOPE), Fixtures.TIERS, unknown)
                                .get(0),
                        unknown,
                        Kinds.adapters()))
                .as("no HyperNode known: no domain to judge against")
                .isEmpty();
    }

    @Test
    void aConfiguredAcceleratorOutsideTheDefaultListIsWhatIsCompared() {
        // one NPU and one CPU a pod; an nvlink domain has 32 NPUs and 320 CPUs: 40 replicas fit by CPU, not by NPU
        String npu = "example.com/npu";
        Amounts size = new Amounts(Map.of(npu, BigDecimal.valueOf(32), "cpu", BigDecimal.valueOf(320)));
        TierDomains npus = Cluster.domains(
                Map.of(1, List.of(Cluster.domain("nvl-a", size, size, Map.of()))),
                Map.of(1, "nvlink"),
                new Accelerators(List.of(npu)));
        String deployment = DeploymentWrapper.make("decode", "llm")
                .uid("u-decode")
                .replicas(2)
                .highestTier("1")
                .cpu("1")
                .request(npu, "1")
                .yaml();
        var lookup = Fixtures.lookup(
                        Fixtures.objects(deployment + "---\n" + hpa("web", "apps/v1", "Deployment", "decode", 40)))
                .withDomains(() -> npus);
        ScopeResult result = Fixtures.translator()
                .translateScopes(List.of(DEPLOY_SCOPE), Fixtures.TIERS, lookup)
                .get(0);
        assertThat(AutoscalerFit.findings(result, lookup, Kinds.adapters()))
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .contains("would then need 40 example.com/npu")
                        .contains("has 32 example.com/npu, room for 32 replicas"));
    }

    @Test
    void anAibrixPodAutoscalerOfAStormServiceRoleGrowsEachRoleSet() {
        String storm = Fixtures.stormWithRoleSet(
                        "u-ss",
                        "u-rs",
                        "\"1\"",
                        List.of(
                                "{name: prefill, replicas: 1, template: %1$s}",
                                "{name: decode, replicas: 1, podGroupSize: 2, template: %1$s}"))
                + """
                ---
                apiVersion: autoscaling.aibrix.ai/v1alpha1
                kind: PodAutoscaler
                metadata: {name: decode-pa, namespace: llm, uid: u-pa%2$s}
                spec:
                  scaleTargetRef: {apiVersion: orchestration.aibrix.ai/v1alpha1, kind: StormService, name: ss}
                  subTargetSelector: {roleName: decode}
                  minReplicas: 1
                  maxReplicas: 5
                  scalingStrategy: KPA
                """;
        GangScope scope = new GangScope.Single(WorkloadKind.STORM_SERVICE, "llm", "ss");
        // at 5 decode PodSets of 2 pods: 4 + 5*8 = 44 GPUs in each RoleSet's gang
        assertThat(judge(storm.formatted(GPU_POD, ""), scope)).singleElement().satisfies(f -> {
            assertThat(f.object().kind()).isEqualTo("StormService");
            assertThat(f.key()).isEqualTo("PodAutoscaler decode-pa");
            assertThat(f.message())
                    .contains("may scale role decode to 5 replicas")
                    .contains("PodGroup tb-rs-ss-roleset-abcde would then need 44 GPUs")
                    .contains("room for 3 replicas");
        });
        // in replica mode it scales the StormService's RoleSets, each a gang of its own: no gang grows
        String replicaAnnotated =
                storm.formatted(GPU_POD, ", annotations: {autoscaling.aibrix.ai/storm-service-mode: replica}");
        assertThat(judge(replicaAnnotated, scope)).isEmpty();
        // the StormService's spec.mode decides when it has one (AIBrix follows the annotation only without it)
        assertThat(judge(
                        storm.formatted(GPU_POD, "").replace("  replicas: 1\n", "  replicas: 1\n  mode: Replica\n"),
                        scope))
                .isEmpty();
        assertThat(judge(replicaAnnotated.replace("  replicas: 1\n", "  replicas: 1\n  mode: Pooled\n"), scope))
                .singleElement()
                .satisfies(f -> assertThat(f.message()).contains("may scale role decode to 5 replicas"));
    }

    @Test
    void anHpaOfALeaderWorkerSetOfItsOwnAddsGangsAndGrowsNone() {
        String lws = """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: big, namespace: llm, uid: u-l, annotations: {topobridge.io/highest-tier: "1"}}
                spec: {replicas: 1, leaderWorkerTemplate: {size: 8, workerTemplate: %s}}
                """.formatted(GPU_POD);
        assertThat(judge(
                        lws + "---\n" + hpa("h", "leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "big", 50),
                        new GangScope.Single(WorkloadKind.LEADER_WORKER_SET, "llm", "big")))
                .isEmpty();
    }

    @Test
    void autoscalersWrittenWrongArePassedOver() {
        for (String bad : List.of(
                hpa("h", "apps/v1", "Deployment", "decode", 0),
                hpa("h", "apps/v1", "", "decode", 5),
                "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h, namespace: llm}\n")) {
            assertThat(Autoscaler.of(Fixtures.object(bad))).as(bad).isEmpty();
        }
        assertThat(Autoscaler.of(Fixtures.object(hpa("h", "apps/v1", "Deployment", "decode", 5))))
                .hasValueSatisfying(a -> {
                    assertThat(a.targets("apps", "Deployment", "decode")).isTrue();
                    assertThat(a.maxReplicas()).isEqualTo(5);
                });
    }

    /** {@code render} reads the autoscalers among its input, and the domains from the example cluster's nodes. */
    @Test
    void renderSaysItForTheExampleCluster() throws IOException {
        List<HasMetadata> inputs =
                new ArrayList<>(Fixtures.objects(Files.readString(Path.of("examples", "gpu-cluster", "nodes.yaml"))));
        inputs.removeIf(Objects::isNull);
        // nvlink partitions hold at most 36 GPUs (rack r05's halves); at 8 decode groups the slice needs 8 + 64
        inputs.addAll(Fixtures.objects(set("nvlink", "", GPU_POD).replace("namespace: llm", "namespace: llm")
                + "---\n"
                + hpa("decode-hpa", "disaggregatedset.x-k8s.io/v1", "DisaggregatedSetRoleScaler", "pd-decode", 8)));
        RenderOutput out = Renderers.of(
                        TopologySettings.parse(TopologySettings.AUTO, null),
                        Fixtures.defaultSettings(),
                        new AdmissionSettings("volcano"))
                .render(inputs);
        assertThat(out.podGroups()).extracting(p -> p.name()).contains("tb-ds-pd-0");
        assertThat(out.findings())
                .filteredOn(f -> f.reason() == WorkloadReason.AUTOSCALER_EXCEEDS_DOMAIN)
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .contains("would then need 72 GPUs")
                        .contains("hard tier 1 (nvlink)")
                        .contains("has 36 GPUs, room for 3 replicas"));
    }
}

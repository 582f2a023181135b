package io.topobridge.core.workload.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.node.DeviceClasses;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.GangScope;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.PodRole;
import io.topobridge.core.workload.translate.ScopeResult;
import io.topobridge.testing.DraClaims;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GB200 ComputeDomain (IMEX) channel claims, in the shape NVIDIA's DRA driver makes them: the ComputeDomain names a
 * ResourceClaimTemplate whose one request is for {@code compute-domain-default-channel.nvidia.com}, and every pod of
 * the workload claims a channel through it, besides its GPUs.
 */
class ComputeDomainsTest {

    private static final String CLAIMS = String.join(
            "---\n",
            DraClaims.template("imex-channel", "llm", "channel", "compute-domain-default-channel.nvidia.com", null),
            DraClaims.claim("imex-daemon", "llm", "daemon", "compute-domain-daemon.nvidia.com"),
            DraClaims.template("four-gpus", "llm", "gpus", "gpu.nvidia.com", 4));

    private static final List<HasMetadata> OBJECTS = Fixtures.objects(CLAIMS);

    /** A Deployment of {@code replicas} pods, each claiming 4 GPUs and an IMEX channel of one ComputeDomain. */
    private static String deployment(int replicas, String annotations) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: wide-ep, namespace: llm, uid: uid-wide-ep, annotations: {%s}}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: wide-ep}}
                  template:
                    metadata: {labels: {app: wide-ep}}
                    spec:
                      containers:
                      - name: vllm
                        image: vllm
                        resources:
                          requests: {cpu: "8"}
                          claims: [{name: gpus}, {name: channel}]
                      resourceClaims:
                      - {name: gpus, resourceClaimTemplateName: four-gpus}
                      - {name: channel, resourceClaimTemplateName: imex-channel}
                """.formatted(annotations, replicas);
    }

    @Test
    void aChannelClaimIsNoAcceleratorAndGetsNoAdviceToListIt() {
        var spec = DraDevicesTest.pod("gpus=four-gpus", "channel=imex-channel", "daemon:imex-daemon");
        var roles = List.of(PodRole.of("worker", 18, spec, PodIdentity.NONE));
        var gang = DraDevices.of(roles, "llm", new InMemoryLookup(OBJECTS), DeviceClasses.DEFAULT);
        assertThat(gang.total(roles)).isEqualTo(Amounts.parse(Map.of("nvidia.com/gpu", "72")));
        assertThat(gang.uncounted()).isEmpty();
        assertThat(DraDevices.findings(gang, "tb-deploy-wide-ep", List.of())).isEmpty();
        assertThat(gang.channels())
                .containsExactly(
                        Map.entry("ResourceClaimTemplate \"imex-channel\"", 18L),
                        Map.entry("ResourceClaim \"imex-daemon\"", 18L));
    }

    private static List<Finding> judged(String annotations, int replicas, TierCatalog tiers) {
        List<HasMetadata> objects = new java.util.ArrayList<>(OBJECTS);
        objects.addAll(Fixtures.objects(deployment(replicas, annotations)));
        ScopeResult result = Fixtures.translator()
                .translateScopes(
                        List.of(new GangScope.Single(WorkloadKind.DEPLOYMENT, "llm", "wide-ep")),
                        tiers,
                        Fixtures.lookup(objects))
                .get(0);
        assertThat(result.podGroups()).as("the PodGroup is made all the same").hasSize(1);
        return result.findings();
    }

    static Stream<Arguments> tiers() {
        return Stream.of(
                Arguments.of("held to the nvlink tier: one NVLink domain", "topobridge.io/highest-tier: nvlink", 0),
                Arguments.of("held to tier 1 by number", "topobridge.io/highest-tier: \"1\"", 0),
                Arguments.of("a rack may hold several NVLink domains", "topobridge.io/highest-tier: rack", 1),
                Arguments.of(
                        "soft above the NVLink tier", "topobridge.io/highest-tier: spine, topobridge.io/mode: soft", 1),
                Arguments.of("no tier at all", "topobridge.io/queue: default", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tiers")
    void aGangSharingAComputeDomainIsToldWhenItsTierAllowsMoreThanOneNvlinkDomain(
            String name, String annotations, int warnings) {
        List<Finding> found = judged(annotations, 18, Fixtures.TIERS).stream()
                .filter(f -> f.reason() == WorkloadReason.COMPUTE_DOMAIN_SPANS_NVLINK)
                .toList();
        assertThat(found).hasSize(warnings);
        found.forEach(f -> {
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.reason().reason()).isEqualTo("ComputeDomainSpansNvlink");
            assertThat(f.message())
                    .startsWith(
                            "Deployment/llm/wide-ep: the pods of gang tb-deploy-wide-ep share a ComputeDomain (IMEX)"
                                    + " channel through ResourceClaimTemplate \"imex-channel\" (18 pods), which works only"
                                    + " among the nodes of one NVLink domain; ")
                    .endsWith("; topobridge.io/highest-tier: nvlink (tier 1) keeps them in one");
        });
    }

    @Test
    void theMessageSaysWhatTheTierAllows() {
        assertThat(judged("topobridge.io/highest-tier: rack", 18, Fixtures.TIERS))
                .extracting(Finding::message)
                .anySatisfy(m -> assertThat(m)
                        .contains("; its hard tier 2 (rack) lets Volcano place them across NVLink domains; "));
        assertThat(judged("topobridge.io/queue: default", 18, Fixtures.TIERS))
                .extracting(Finding::message)
                .anySatisfy(m -> assertThat(m)
                        .contains("; PodGroup tb-deploy-wide-ep has no tier, so Volcano may place them on any nodes;"));
    }

    @Test
    void nothingIsJudgedForOnePodOrWithoutATierNamedNvlink() {
        assertThat(judged("topobridge.io/highest-tier: rack", 1, Fixtures.TIERS))
                .noneMatch(f -> f.reason() == WorkloadReason.COMPUTE_DOMAIN_SPANS_NVLINK);
        TierCatalog racks =
                TierCatalog.of(List.of(new TierCatalog.Tier(1, "rack"), new TierCatalog.Tier(2, "spine")), List.of());
        assertThat(judged("topobridge.io/highest-tier: spine", 18, racks))
                .noneMatch(f -> f.reason() == WorkloadReason.COMPUTE_DOMAIN_SPANS_NVLINK);
    }
}

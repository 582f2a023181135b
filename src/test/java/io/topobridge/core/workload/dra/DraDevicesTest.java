package io.topobridge.core.workload.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.node.DeviceClasses;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.gang.PodIdentity;
import io.topobridge.core.workload.gang.PodRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Counting the devices a pod template claims through DRA, claim shape by claim shape. */
class DraDevicesTest {

    static final List<HasMetadata> CLAIMS = Fixtures.objects(DraTranslationTest.resource("claims.yaml"));
    static final WorkloadLookup LOOKUP = new InMemoryLookup(CLAIMS);

    /** {@code name=template} claims by template, {@code name:claim} by a shared ResourceClaim. */
    static PodSpec pod(String... claims) {
        List<PodResourceClaim> out = new ArrayList<>();
        for (String c : claims) {
            if (c.contains("=")) {
                out.add(new PodResourceClaim(c.substring(0, c.indexOf('=')), null, c.substring(c.indexOf('=') + 1)));
            } else if (c.contains(":")) {
                out.add(new PodResourceClaim(c.substring(0, c.indexOf(':')), c.substring(c.indexOf(':') + 1), null));
            } else {
                out.add(new PodResourceClaim(c, null, null));
            }
        }
        var spec = new PodSpec();
        spec.setResourceClaims(out);
        return spec;
    }

    static Arguments row(
            String name, PodSpec spec, Map<String, String> perPod, Map<String, String> shared, String... whys) {
        return Arguments.of(name, spec, perPod, shared, List.of(whys));
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                row("no claims: nothing", new PodSpec(), Map.of(), Map.of()),
                row("one GPU by default count", pod("gpu=one-gpu"), Map.of("nvidia.com/gpu", "1"), Map.of()),
                row(
                        "llm-d-modelservice's Gaudi3 x2 with a CEL selector",
                        pod("intel-gaudi3-x2=gaudi3-x2"),
                        Map.of("habana.ai/gaudi", "2"),
                        Map.of()),
                row(
                        "two claims of one pod add up",
                        pod("a=one-gpu", "b=one-gpu"),
                        Map.of("nvidia.com/gpu", "2"),
                        Map.of()),
                row(
                        "GPUs counted, the NIC's class not mapped, admin access skipped",
                        pod("devices=two-requests"),
                        Map.of("nvidia.com/gpu", "4"),
                        Map.of(),
                        "device class \"rdma.example.com\"): the device class is not mapped to a resource (its CEL"
                                + " selectors pick devices; they are not evaluated)"),
                row(
                        "MIG slices are not whole GPUs",
                        pod("mig=mig-slice"),
                        Map.of(),
                        Map.of(),
                        "device class \"mig.nvidia.com\"): the device class is not mapped"),
                row(
                        "allocationMode All",
                        pod("all=all-gpus"),
                        Map.of(),
                        Map.of(),
                        "request \"all\" has allocationMode All: every matching device of a node"),
                row(
                        "a prioritized list",
                        pod("gpu=prioritized"),
                        Map.of(),
                        Map.of(),
                        "request \"gpu\" is a prioritized list (firstAvailable) of 2 alternatives"),
                row(
                        "a count no claim can be allocated",
                        pod("gpu=huge-count"),
                        Map.of(),
                        Map.of(),
                        "asks for count 9000000000000000000, outside the 1..32 devices"),
                row(
                        "requests that together exceed what one claim can be allocated",
                        pod("gpu=over-32-total"),
                        Map.of(),
                        Map.of(),
                        "its requests ask for 40 devices, more than the 32 Kubernetes allocates to one claim"),
                row(
                        "a missing template costs only itself",
                        pod("gone=no-such-template", "gpu=one-gpu"),
                        Map.of("nvidia.com/gpu", "1"),
                        Map.of(),
                        "claim \"gone\" (ResourceClaimTemplate \"no-such-template\"): no such ResourceClaimTemplate in"
                                + " namespace llm"),
                row(
                        "a shared ResourceClaim",
                        pod("gpus:shared-gpus"),
                        Map.of(),
                        Map.of("shared-gpus", "nvidia.com/gpu=8")),
                row(
                        "a missing ResourceClaim",
                        pod("gpus:nowhere"),
                        Map.of(),
                        Map.of(),
                        "no such ResourceClaim in namespace llm"),
                row(
                        "a claim naming neither",
                        pod("odd"),
                        Map.of(),
                        Map.of(),
                        "names neither a ResourceClaimTemplate nor a ResourceClaim"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void counts(String name, PodSpec spec, Map<String, String> perPod, Map<String, String> shared, List<String> whys) {
        var devices = DraDevices.of(spec, "llm", LOOKUP, DeviceClasses.DEFAULT);
        assertThat(devices.perPod()).isEqualTo(Amounts.parse(perPod));
        Map<String, String> sharedShown = new java.util.TreeMap<>();
        devices.shared().forEach((claim, amounts) -> sharedShown.put(claim, DraDevices.annotation(amounts)));
        assertThat(sharedShown).isEqualTo(shared);
        assertThat(devices.uncounted()).hasSize(whys.size());
        for (int i = 0; i < whys.size(); i++) {
            assertThat(devices.uncounted().get(i).describe()).contains(whys.get(i));
        }
    }

    @Test
    void aLookupThatCannotReadClaimsSaysSoForEachClaim() {
        WorkloadLookup blind = new WorkloadLookup() {
            @Override
            public java.util.Optional<HasMetadata> get(
                    io.topobridge.core.workload.WorkloadKind kind, String namespace, String name) {
                return java.util.Optional.empty();
            }

            @Override
            public List<HasMetadata> list(io.topobridge.core.workload.WorkloadKind kind, String namespace) {
                return List.of();
            }

            @Override
            public String resourceClaimsUnknown() {
                return "resource.k8s.io/v1 ResourceClaimTemplates cannot be listed (forbidden)";
            }
        };
        var devices = DraDevices.of(pod("gpu=one-gpu", "s:shared-gpus"), "llm", blind, DeviceClasses.DEFAULT);
        assertThat(devices.perPod()).isEqualTo(Amounts.NONE);
        assertThat(devices.uncounted())
                .extracting(DraDevices.Uncounted::why)
                .containsExactly(
                        "resource.k8s.io/v1 ResourceClaimTemplates cannot be listed (forbidden)",
                        "resource.k8s.io/v1 ResourceClaimTemplates cannot be listed (forbidden)");
    }

    @Test
    void aTemplateOfThousandsOfRequestsIsRefusedWholeAndQuickly() {
        List<DeviceRequest> requests = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            requests.add(new DeviceRequestBuilder()
                    .withName("r" + i)
                    .withNewExactly()
                    .withDeviceClassName("gpu.nvidia.com")
                    .withCount(1L)
                    .endExactly()
                    .build());
        }
        ResourceClaimTemplate hostile = new ResourceClaimTemplateBuilder()
                .withNewMetadata()
                .withName("hostile")
                .withNamespace("llm")
                .endMetadata()
                .withNewSpec()
                .withNewSpec()
                .withNewDevices()
                .withRequests(requests)
                .endDevices()
                .endSpec()
                .endSpec()
                .build();
        var devices =
                DraDevices.of(pod("gpu=hostile"), "llm", new InMemoryLookup(List.of(hostile)), DeviceClasses.DEFAULT);
        assertThat(devices.perPod()).isEqualTo(Amounts.NONE);
        assertThat(devices.uncounted())
                .singleElement()
                .extracting(DraDevices.Uncounted::why)
                .isEqualTo("5000 requests, more than the 32 Kubernetes accepts in one claim: none is counted");
    }

    @Test
    void aPodOfThousandsOfClaimsIsReadUpToTheBound() {
        String[] claims = new String[2000];
        for (int i = 0; i < claims.length; i++) {
            claims[i] = "c" + i + "=one-gpu";
        }
        var devices = DraDevices.of(pod(claims), "llm", LOOKUP, DeviceClasses.DEFAULT);
        assertThat(devices.perPod()).isEqualTo(Amounts.parse(Map.of("nvidia.com/gpu", "32")));
        assertThat(devices.uncounted())
                .singleElement()
                .extracting(DraDevices.Uncounted::why)
                .isEqualTo("the template has 2000 claims; the bridge reads the first 32");
    }

    @Test
    void aGangCountsEachPodsOwnClaimsPerPodAndASharedClaimOnce() {
        PodSpec prefill = pod("gpu=one-gpu", "kv:shared-gpus");
        PodSpec decode = pod("gpus=two-requests", "kv:shared-gpus");
        var roles = List.of(
                PodRole.of("prefill", 3, prefill, PodIdentity.NONE),
                PodRole.of("decode", 2, decode, PodIdentity.NONE),
                PodRole.of("scaled-to-zero", 0, pod("gone=no-such-template"), PodIdentity.NONE));
        var gang = DraDevices.of(roles, "llm", LOOKUP, DeviceClasses.DEFAULT);
        // 3 x 1 + 2 x 4 per pod, and the shared claim's 8 once
        assertThat(gang.total(roles)).isEqualTo(Amounts.parse(Map.of("nvidia.com/gpu", "19")));
        assertThat(gang.uncounted())
                .as("the NIC request, said once for the role")
                .hasSize(1);
        var subject = new ObjectRef("apps/v1", "Deployment", "llm", "decode", null);
        var findings = DraDevices.findings(gang, "ms", List.of(subject));
        assertThat(findings).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.DRA_DEVICES_NOT_COUNTED);
            assertThat(f.message())
                    .contains("gang ms")
                    .contains(
                            "claim \"gpus\" (ResourceClaimTemplate \"two-requests\", device class \"rdma.example.com\")")
                    .contains("topobridge.workloads.dra-device-classes as deviceClassName=resource");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badMappings")
    void aBadMappingNamesTheKeyAndTheEntry(String entry, String message) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DeviceClasses.parse(List.of(entry)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("topobridge.workloads.dra-device-classes: ")
                .hasMessageContaining(message);
    }

    static Stream<Arguments> badMappings() {
        return Stream.of(
                Arguments.of("gpu.nvidia.com", "is not deviceClassName=resource"),
                Arguments.of("GPU=nvidia.com/gpu", "is not a DeviceClass name"),
                Arguments.of("gpu.nvidia.com=gpu", "is not an extended resource name"),
                Arguments.of("gpu.nvidia.com=kubernetes.io/gpu", "kubernetes.io names"));
    }

    @Test
    void theAnnotationReadsBack() {
        Amounts counted = Amounts.parse(Map.of("nvidia.com/gpu", "16", "habana.ai/gaudi", "2"));
        assertThat(DraDevices.annotation(counted)).isEqualTo("habana.ai/gaudi=2,nvidia.com/gpu=16");
        assertThat(DraDevices.parseAnnotation(DraDevices.annotation(counted))).isEqualTo(counted);
        assertThat(DraDevices.parseAnnotation("nvidia.com/gpu=lots,x")).isEqualTo(Amounts.NONE);
    }
}

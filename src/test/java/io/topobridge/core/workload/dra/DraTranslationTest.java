package io.topobridge.core.workload.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.autotier.AutoTierTranslationTest;
import io.topobridge.core.workload.translate.TranslationResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GPUs a gang claims through DRA through the whole translator: what {@code auto} sizes by, what is said. */
class DraTranslationTest {

    static String resource(String name) {
        try (InputStream in = DraTranslationTest.class.getResourceAsStream("/dra/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static TranslationResult translate(WorkloadSettings settings, List<HasMetadata> objects) {
        return TranslationResult.of(
                Fixtures.translator(settings),
                objects,
                Fixtures.TIERS,
                Fixtures.lookup(objects).withDomains(() -> AutoTierTranslationTest.domains(4)));
    }

    @Test
    void theClaimedGpusOfAPrefillDecodeGangSizeItsAutoTier() {
        var result = translate(Fixtures.defaultSettings(), Fixtures.objects(resource("llm-d-pd.yaml")));
        assertThat(result.podGroups()).hasSize(1);
        var pg = result.podGroups().get(0);
        // 2 prefill pods of 2 GPUs and 1 decode pod of 4: 8 GPUs, more than one NVLink domain (4) holds
        assertThat(pg.annotations().get("topobridge.io/chosen-tier"))
                .isEqualTo("2 (rack): 8 GPUs fit in 2 of 2 rack domains; 1 (nvlink) holds at most 4 GPUs");
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(2);
        // llm-d's Deployments keep Kubernetes' default rollout, which takes none of 1 or 2 replicas down first
        assertThat(result.findings()).extracting(f -> f.reason().reason()).containsOnly("RolloutNeedsRoom");
        // said on the PodGroup for explain, kept out of minResources (Volcano's overcommit plugin would hold the gang
        // in Pending on nodes that advertise no nvidia.com/gpu)
        assertThat(pg.annotations()).containsEntry("topobridge.io/dra-devices", "nvidia.com/gpu=8");
        assertThat(pg.spec().getMinResources()).containsOnlyKeys("cpu", "memory");
    }

    @Test
    void aClassThatIsNotMappedIsSaidOncePerGangAndThePodGroupIsStillMade() {
        String yaml = resource("llm-d-pd.yaml")
                .replace(
                        "deviceClassName: gpu.nvidia.com\n          count: 4",
                        "deviceClassName: mig.nvidia.com\n          count: 4");
        assertThat(yaml).contains("mig.nvidia.com");
        var result = translate(Fixtures.defaultSettings(), Fixtures.objects(yaml));
        assertThat(result.podGroups()).hasSize(1);
        var pg = result.podGroups().get(0);
        // the prefill GPUs still count: 2 x 2 fit in one NVLink domain
        assertThat(pg.annotations()).containsEntry("topobridge.io/dra-devices", "nvidia.com/gpu=4");
        assertThat(pg.annotations().get("topobridge.io/chosen-tier")).startsWith("1 (nvlink): 4 GPUs fit in 4 of 4");
        assertThat(result.findings())
                .filteredOn(f -> !f.reason().reason().equals("RolloutNeedsRoom"))
                .as("one finding for the gang on each of its two workloads")
                .hasSize(2)
                .allSatisfy(f -> {
                    assertThat(f.reason().reason()).isEqualTo("DraDevicesNotCounted");
                    assertThat(f.message())
                            .contains("gang tb-group-ms")
                            .contains(
                                    "claim \"gpus\" (ResourceClaimTemplate \"ms-decode-gpus\", device class"
                                            + " \"mig.nvidia.com\"): the device class is not mapped to a resource; a DeviceClass of whole"
                                            + " accelerators is counted once listed in topobridge.workloads.dra-device-classes");
                });
    }

    @Test
    void theMappingIsConfigured() {
        var settings = Fixtures.settings()
                .deviceClasses(io.topobridge.core.node.DeviceClasses.parse(List.of("gpu.nvidia.com=amd.com/gpu")))
                .build();
        var pg = translate(settings, Fixtures.objects(resource("llm-d-pd.yaml")))
                .podGroups()
                .get(0);
        assertThat(pg.annotations()).containsEntry("topobridge.io/dra-devices", "amd.com/gpu=8");
    }
}

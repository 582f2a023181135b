package io.topobridge.core.workload.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.autotier.AutoTierTranslationTest;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.core.workload.translate.WorkloadTranslator;
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
        return new WorkloadTranslator(settings)
                .translate(
                        objects,
                        Fixtures.TIERS,
                        Fixtures.lookup(objects).withDomains(() -> AutoTierTranslationTest.domains(4)));
    }

    @Test
    void theClaimedGpusOfAPrefillDecodeGangSizeItsAutoTier() {
        var result = translate(new WorkloadSettings("default", 1), Fixtures.objects(resource("llm-d-pd.yaml")));
        assertThat(result.podGroups()).hasSize(1);
        var pg = result.podGroups().get(0);
        // 2 prefill pods of 2 GPUs and 1 decode pod of 4: 8 GPUs, more than one NVLink domain (4) holds
        assertThat(pg.annotations().get("topobridge.io/chosen-tier"))
                .isEqualTo("2 (rack): 8 GPUs fit in 2 of 2 rack domains; 1 (nvlink) holds at most 4 GPUs");
        assertThat(pg.spec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(2);
        assertThat(result.findings()).isEmpty();
    }
}

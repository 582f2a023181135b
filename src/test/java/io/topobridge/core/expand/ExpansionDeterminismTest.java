package io.topobridge.core.expand;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.manifest.ManifestReader;
import io.topobridge.testing.Upstream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The same input expands to the same output, run after run (generated names are derived, never random), and a
 * workload's expansion does not depend on the unrelated workloads next to it.
 */
class ExpansionDeterminismTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every workload manifest the tests know: the examples, the expansion cases and the upstream samples. */
    static List<List<HasMetadata>> manifests() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path dir : List.of(
                Path.of("examples/workloads"),
                Path.of("src/test/resources/expansion"),
                Upstream.module("lws").resolve("config/samples"),
                Upstream.module("lws").resolve("docs/examples"),
                Upstream.module("aibrix").resolve("samples"),
                Upstream.module("aibrix").resolve("config/samples"))) {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.filter(f -> f.toString().endsWith(".yaml")).sorted().forEach(files::add);
            }
        }
        ManifestReader reader = new ManifestReader(new KubernetesSerialization());
        List<List<HasMetadata>> out = new ArrayList<>();
        for (Path file : files) {
            List<HasMetadata> objects = reader.read(List.of(file)).objects();
            String ns = "ns-" + out.size();
            objects.forEach(o -> o.getMetadata().setNamespace(ns));
            out.add(objects);
        }
        return out;
    }

    @Test
    void twoRunsOverTheSameInputGiveTheSameObjectsNotesAndGeneratedValues() throws IOException {
        List<HasMetadata> all = manifests().stream().flatMap(List::stream).toList();
        Expansion.Result first = Kinds.expansion().expand(all, Expansion.Limits.DEFAULT);
        Expansion.Result second = Kinds.expansion().expand(all, Expansion.Limits.DEFAULT);
        assertThat(first.created()).hasSizeGreaterThan(500);
        assertThat(JSON.writeValueAsString(second.created())).isEqualTo(JSON.writeValueAsString(first.created()));
        assertThat(second.notes()).isEqualTo(first.notes());
        assertThat(second.generated()).isEqualTo(first.generated());
    }

    /**
     * StormServices left out: AIBrix v0.7.0 counts the RoleSets its selector matches in every namespace, so two samples
     * with one selector do change each other (see {@code ExpansionGivenObjectsTest}).
     */
    @Test
    void aManifestExpandsTheSameAloneAndNextToAllTheOthers() throws IOException {
        List<List<HasMetadata>> manifests = manifests().stream()
                .filter(m -> m.stream().noneMatch(o -> "StormService".equals(o.getKind())))
                .toList();
        List<HasMetadata> all = manifests.stream().flatMap(List::stream).toList();
        String together = JSON.writeValueAsString(Kinds.expansion()
                .expand(all, new Expansion.Limits(100_000, 1_000_000))
                .created());
        StringBuilder alone = new StringBuilder("[");
        for (List<HasMetadata> manifest : manifests) {
            for (HasMetadata o : Kinds.expansion()
                    .expand(manifest, new Expansion.Limits(100_000, 1_000_000))
                    .created()) {
                alone.append(alone.length() > 1 ? "," : "").append(JSON.writeValueAsString(o));
            }
        }
        assertThat(together).isEqualTo(alone.append(']').toString());
    }
}

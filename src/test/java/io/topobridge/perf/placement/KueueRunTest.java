package io.topobridge.perf.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.e2e.KueueTas;
import io.topobridge.perf.placement.Gangs.Arrival;
import io.topobridge.perf.placement.Gangs.Shape;
import io.topobridge.perf.placement.KueueRun.Request;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What the Kueue run writes for each of the benchmark's shapes, and the hard tiers it then claims. */
class KueueRunTest {

    private static Shape shape(String name) {
        return Stream.concat(Gangs.SHAPES.stream(), Stream.of(WideEp.SHAPE))
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    static Stream<Arguments> shapes() {
        Request clique = new Request("nvlink", true);
        return Stream.of(
                // one PodSet: the gang's own tier
                Arguments.of("tp", Map.of("engine", clique), Map.of("", 1)),
                Arguments.of("tp9", Map.of("engine", clique), Map.of("", 1)),
                Arguments.of("ep", Map.of("engine", new Request("leaf", true)), Map.of("", 3)),
                // prefill and decode pods of one shape (1 GPU each): one PodSet, the gang's hard leaf
                Arguments.of(
                        "storm",
                        Map.of("prefill", new Request("leaf", true), "decode", new Request("leaf", true)),
                        Map.of("", 3)),
                // two PodSets: each role's hard NVLink partition, the gang's leaf (hard or soft) not written
                Arguments.of("llmd", Map.of("prefill", clique, "decode", clique), Map.of("prefill", 1, "decode", 1)),
                Arguments.of("ds", Map.of("prefill", clique, "decode", clique), Map.of("prefill", 1, "decode", 1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void eachPodSetRequiresTheTierThatBindsItAndTheGangClaimsWhatWasRequired(
            String name, Map<String, Request> written, Map<String, Integer> claimed) {
        Shape shape = shape(name);

        assertThat(KueueRun.requests(shape)).isEqualTo(written);
        assertThat(new KueueRun().hardTiers(null, "ns", new Arrival(0, shape, 1)))
                .isEqualTo(claimed);
        assertThat(written.values())
                .allSatisfy(r -> assertThat(r.annotation()).isEqualTo("kueue.x-k8s.io/podset-required-topology"));
    }

    /** The slices variant asks for one pod per slice at the NVLink partition, only where the gang is held above it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void slicesOnlyForOnePodSetGangsHeldAboveThePartition(
            String name, Map<String, Request> written, Map<String, Integer> claimed) {
        Shape shape = shape(name);
        boolean above = claimed.containsKey("") && claimed.get("") > 1;
        written.values().forEach(request -> {
            Map<String, String> plain = new KueueRun().annotations(shape, request);
            Map<String, String> sliced = new KueueRun(true).annotations(shape, request);
            assertThat(plain).doesNotContainKeys(KueueTas.SLICE_REQUIRED, KueueTas.SLICE_SIZE);
            assertThat(plain).containsEntry(KueueTas.GROUP_COUNT, String.valueOf(shape.pods()));
            if (above) {
                assertThat(sliced)
                        .containsEntry(KueueTas.SLICE_REQUIRED, KueueTas.NVLINK)
                        .containsEntry(KueueTas.SLICE_SIZE, "1")
                        .containsEntry(request.annotation(), KueueTas.level(request.tier()));
            } else {
                assertThat(sliced).isEqualTo(plain);
            }
        });
        assertThat(new KueueRun(true).label()).isEqualTo("kueue-slices");
    }
}

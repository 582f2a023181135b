package io.topobridge.core.kinds.disaggregatedset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.topobridge.core.expand.Expanded;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the expansion makes of a DisaggregatedSet, as LWS v0.9.0 writes it: the objects (kind, name, owner) in the order
 * the controllers make them, and the labels and annotations the bridge reads on them ({@code ExpansionE2E} proves the
 * same against the real controllers). Generated tokens show as {@code *}.
 */
class DisaggregatedSetExpansionTest {

    static Stream<Arguments> cases() {
        return Stream.of(Arguments.of(
                "DisaggregatedSet: a LeaderWorkerSet per role, <set>-<revision>-<role>, then as any LWS",
                """
                        apiVersion: disaggregatedset.x-k8s.io/v1
                        kind: DisaggregatedSet
                        metadata: {name: ds, namespace: ns}
                        spec:
                          roles:
                          - name: prefill
                            metadata: {labels: {tier: p}, annotations: {example.com/r: p}}
                            spec: {leaderWorkerTemplate: {size: 1, workerTemplate: {metadata: {labels: {k: v}}, spec: %1$s}}}
                          - name: decode
                            spec: {replicas: 2, leaderWorkerTemplate: {size: 1, workerTemplate: {spec: %1$s}}}
                        """,
                List.of(
                        "LeaderWorkerSet ds-*-prefill <- DisaggregatedSet/ds",
                        "StatefulSet ds-*-prefill <- LeaderWorkerSet/ds-*-prefill",
                        "Pod ds-*-prefill-0 <- StatefulSet/ds-*-prefill",
                        "LeaderWorkerSet ds-*-decode <- DisaggregatedSet/ds",
                        "StatefulSet ds-*-decode <- LeaderWorkerSet/ds-*-decode",
                        "Pod ds-*-decode-0 <- StatefulSet/ds-*-decode",
                        "Pod ds-*-decode-1 <- StatefulSet/ds-*-decode"),
                (Consumer<Expanded>) e -> {
                    assertThat(e.labels("LeaderWorkerSet", "ds-*-prefill"))
                            .containsExactly(
                                    entry("app", "ds-prefill"),
                                    entry("disaggregatedset.x-k8s.io/name", "ds"),
                                    entry("disaggregatedset.x-k8s.io/revision", "*"),
                                    entry("disaggregatedset.x-k8s.io/role", "prefill"),
                                    entry("tier", "p"));
                    assertThat(e.annotations("LeaderWorkerSet", "ds-*-prefill"))
                            .containsExactly(entry("example.com/r", "p"));
                    assertThat(e.object("LeaderWorkerSet", "ds-*-prefill")
                                    .getMetadata()
                                    .getOwnerReferences()
                                    .get(0)
                                    .getBlockOwnerDeletion())
                            .as("the DisaggregatedSet controller sets no blockOwnerDeletion")
                            .isNull();
                    assertThat(e.labels("Pod", "ds-*-prefill-0"))
                            .containsEntry("k", "v")
                            .containsEntry("app", "ds-prefill")
                            .containsEntry("disaggregatedset.x-k8s.io/role", "prefill")
                            .containsEntry("leaderworkerset.sigs.k8s.io/group-key", "*");
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void expandsAsTheControllersDo(String name, String yaml, List<String> outline, Consumer<Expanded> checks) {
        Expanded.check(yaml, outline, checks);
    }
}

package io.topobridge.core.kinds.statefulset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.expand.Expanded;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the expansion makes of a StatefulSet, as Kubernetes v1.35 writes it: the objects (kind, name, owner) in the order
 * the controllers make them, and the labels and annotations the bridge reads on them ({@code ExpansionE2E} proves the
 * same against the real controllers). Generated tokens show as {@code *}.
 */
class StatefulSetExpansionTest {

    static Stream<Arguments> cases() {
        return Stream.of(Arguments.of(
                "StatefulSet: pods <sts>-<ordinal> from spec.ordinals.start with the StatefulSet's labels",
                """
                        apiVersion: apps/v1
                        kind: StatefulSet
                        metadata: {name: db, namespace: ns}
                        spec:
                          replicas: 2
                          serviceName: db-svc
                          ordinals: {start: 3}
                          selector: {matchLabels: {app: db}}
                          template: {metadata: {labels: {app: db}, annotations: {k: v}}, spec: %1$s}
                        """,
                List.of("Pod db-3 <- StatefulSet/db", "Pod db-4 <- StatefulSet/db"),
                (Consumer<Expanded>) e -> {
                    assertThat(e.labels("Pod", "db-4"))
                            .containsExactly(
                                    entry("app", "db"),
                                    entry("apps.kubernetes.io/pod-index", "4"),
                                    entry("controller-revision-hash", "db-*"),
                                    entry("statefulset.kubernetes.io/pod-name", "db-4"));
                    assertThat(e.annotations("Pod", "db-4")).containsExactly(entry("k", "v"));
                    Pod pod = (Pod) e.object("Pod", "db-4");
                    assertThat(pod.getSpec().getHostname()).isEqualTo("db-4");
                    assertThat(pod.getSpec().getSubdomain()).isEqualTo("db-svc");
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void expandsAsTheControllersDo(String name, String yaml, List<String> outline, Consumer<Expanded> checks) {
        Expanded.check(yaml, outline, checks);
    }
}

package io.topobridge.core.kinds.deployment;

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
 * What the expansion makes of a Deployment, as Kubernetes v1.35 (Deployment, ReplicaSet) writes it: the objects (kind, name, owner) in the order
 * the controllers make them, and the labels and annotations the bridge reads on them ({@code ExpansionE2E} proves the
 * same against the real controllers). Generated tokens show as {@code *}.
 */
class DeploymentExpansionTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "Deployment: ReplicaSet <deployment>-<pod-template-hash> with the Deployment's annotations",
                        """
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: web, namespace: ns, annotations: {team: a, kubectl.kubernetes.io/last-applied-configuration: "{}"}}
                        spec:
                          replicas: 3
                          selector: {matchLabels: {app: web}}
                          template: {metadata: {labels: {app: web}, annotations: {s: "1"}}, spec: %1$s}
                        """,
                        List.of(
                                "ReplicaSet web-* <- Deployment/web",
                                "Pod web-*-* <- ReplicaSet/web-*",
                                "Pod web-*-* <- ReplicaSet/web-*",
                                "Pod web-*-* <- ReplicaSet/web-*"),
                        (Consumer<Expanded>) e -> {
                            assertThat(e.labels("ReplicaSet", "web-*"))
                                    .containsExactly(entry("app", "web"), entry("pod-template-hash", "*"));
                            assertThat(e.annotations("ReplicaSet", "web-*"))
                                    .containsExactly(
                                            entry("deployment.kubernetes.io/desired-replicas", "3"),
                                            entry("deployment.kubernetes.io/max-replicas", "4"),
                                            entry("deployment.kubernetes.io/revision", "1"),
                                            entry("team", "a"));
                            assertThat(e.labels("Pod", "web-*-*"))
                                    .containsExactly(entry("app", "web"), entry("pod-template-hash", "*"));
                            assertThat(e.annotations("Pod", "web-*-*")).containsExactly(entry("s", "1"));
                            String rs = e.object("ReplicaSet", "web-*")
                                    .getMetadata()
                                    .getName();
                            assertThat(e.object("ReplicaSet", "web-*")
                                            .getMetadata()
                                            .getLabels()
                                            .get("pod-template-hash"))
                                    .isEqualTo(rs.substring("web-".length()));
                        }),
                Arguments.of(
                        "Deployment: max-replicas from maxSurge (a count, a percentage, Recreate)",
                        """
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: a, namespace: ns}
                        spec: {replicas: 3, strategy: {rollingUpdate: {maxSurge: 2}}, selector: {matchLabels: {app: a}}, template: {metadata: {labels: {app: a}}, spec: %1$s}}
                        ---
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: b, namespace: ns}
                        spec: {replicas: 10, strategy: {rollingUpdate: {maxSurge: "31%%"}}, selector: {matchLabels: {app: b}}, template: {metadata: {labels: {app: b}}, spec: %1$s}}
                        ---
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: c, namespace: ns}
                        spec: {replicas: 0, strategy: {type: Recreate}, selector: {matchLabels: {app: c}}, template: {metadata: {labels: {app: c}}, spec: %1$s}}
                        ---
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: d, namespace: ns}
                        spec: {paused: true, selector: {matchLabels: {app: d}}, template: {metadata: {labels: {app: d}}, spec: %1$s}}
                        """,
                        null,
                        (Consumer<Expanded>) e -> {
                            assertThat(e.annotations("ReplicaSet", "a-*"))
                                    .containsEntry("deployment.kubernetes.io/max-replicas", "5");
                            assertThat(e.annotations("ReplicaSet", "b-*"))
                                    .containsEntry("deployment.kubernetes.io/max-replicas", "14");
                            assertThat(e.annotations("ReplicaSet", "c-*"))
                                    .containsEntry("deployment.kubernetes.io/desired-replicas", "0")
                                    .containsEntry("deployment.kubernetes.io/max-replicas", "0");
                            assertThat(e.outline()).noneMatch(l -> l.contains("Deployment/d"));
                            assertThat(e.notes()).anyMatch(l -> l.contains("Deployment/ns/d NothingToMake"));
                        }),
                Arguments.of(
                        "ReplicaSet by hand: pods by generateName <replicaset>-",
                        """
                        apiVersion: apps/v1
                        kind: ReplicaSet
                        metadata: {name: rs, namespace: ns}
                        spec: {replicas: 2, selector: {matchLabels: {app: rs}}, template: {metadata: {labels: {app: rs}}, spec: %1$s}}
                        """,
                        List.of("Pod rs-* <- ReplicaSet/rs", "Pod rs-* <- ReplicaSet/rs"),
                        (Consumer<Expanded>) e -> assertThat(
                                        e.object("Pod", "rs-*").getMetadata().getName())
                                .matches("rs-[bcdfghjklmnpqrstvwxz2456789]{5}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void expandsAsTheControllersDo(String name, String yaml, List<String> outline, Consumer<Expanded> checks) {
        Expanded.check(yaml, outline, checks);
    }
}

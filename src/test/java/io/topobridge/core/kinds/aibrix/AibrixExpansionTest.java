package io.topobridge.core.kinds.aibrix;

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
 * What the expansion makes of a Aibrix, as AIBrix v0.7.0 (StormService, RoleSet, PodSet) writes it: the objects (kind, name, owner) in the order
 * the controllers make them, and the labels and annotations the bridge reads on them ({@code ExpansionE2E} proves the
 * same against the real controllers). Generated tokens show as {@code *}.
 */
class AibrixExpansionTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "StormService: a RoleSet per replica; PodSets for a role of podGroupSize 2; stateless pods",
                        """
                        apiVersion: orchestration.aibrix.ai/v1alpha1
                        kind: StormService
                        metadata: {name: pd, namespace: ns}
                        spec:
                          replicas: 2
                          selector: {matchLabels: {app: pd}}
                          template:
                            metadata: {labels: {app: pd}, annotations: {example.com/t: x}}
                            spec:
                              roles:
                              - {name: prefill, replicas: 1, podGroupSize: 2, stateful: true, template: {spec: %1$s}}
                              - {name: decode, replicas: 1, template: {metadata: {labels: {tier: d}}, spec: %1$s}}
                        """,
                        List.of(
                                "RoleSet pd-roleset-* <- StormService/pd",
                                "PodSet pd-roleset-*-prefill-*-0 <- RoleSet/pd-roleset-*",
                                "Pod pd-roleset-*-prefill-*-0-0 <- PodSet/pd-roleset-*-prefill-*-0",
                                "Pod pd-roleset-*-prefill-*-0-1 <- PodSet/pd-roleset-*-prefill-*-0",
                                "Pod pd-roleset-*-decode-* <- RoleSet/pd-roleset-*",
                                "RoleSet pd-roleset-* <- StormService/pd",
                                "PodSet pd-roleset-*-prefill-*-0 <- RoleSet/pd-roleset-*",
                                "Pod pd-roleset-*-prefill-*-0-0 <- PodSet/pd-roleset-*-prefill-*-0",
                                "Pod pd-roleset-*-prefill-*-0-1 <- PodSet/pd-roleset-*-prefill-*-0",
                                "Pod pd-roleset-*-decode-* <- RoleSet/pd-roleset-*"),
                        (Consumer<Expanded>) e -> {
                            assertThat(e.labels("RoleSet", "pd-roleset-*"))
                                    .containsExactly(
                                            entry("app", "pd"),
                                            entry("storm-service-name", "pd"),
                                            entry("storm-service-revision", "pd-*"));
                            assertThat(e.annotations("RoleSet", "pd-roleset-*"))
                                    .containsExactly(
                                            entry("example.com/t", "x"),
                                            entry("stormservice.orchestration.aibrix.ai/revision", "pd-*"),
                                            entry(
                                                    "stormservice.orchestration.aibrix.ai/role-revision-name.decode",
                                                    "pd-*"),
                                            entry(
                                                    "stormservice.orchestration.aibrix.ai/role-revision-name.prefill",
                                                    "pd-*"),
                                            entry("stormservice.orchestration.aibrix.ai/role-revision.decode", "1"),
                                            entry("stormservice.orchestration.aibrix.ai/role-revision.prefill", "1"),
                                            entry("stormservice.orchestration.aibrix.ai/roleset-index", "0"));
                            assertThat(e.result().created().stream()
                                            .filter(o -> o.getKind().equals("RoleSet"))
                                            .map(o -> o.getMetadata()
                                                    .getAnnotations()
                                                    .get("stormservice.orchestration.aibrix.ai/roleset-index")))
                                    .as("AIBrix indexes the RoleSets of one pass from 0")
                                    .containsExactly("0", "1");
                            assertThat(e.labels("Pod", "pd-roleset-*-prefill-*-0-1"))
                                    .containsExactly(
                                            entry("role-name", "prefill"),
                                            entry("role-template-hash", "*"),
                                            entry("roleset-name", "pd-roleset-*"),
                                            entry("storm-service-name", "pd"),
                                            entry("stormservice.orchestration.aibrix.ai/pod-group-index", "1"),
                                            entry(
                                                    "stormservice.orchestration.aibrix.ai/podset-name",
                                                    "pd-roleset-*-prefill-*-0"),
                                            entry("stormservice.orchestration.aibrix.ai/role-replica-index", "0"));
                            assertThat(e.annotations("Pod", "pd-roleset-*-prefill-*-0-1"))
                                    .containsExactly(
                                            entry("stormservice.orchestration.aibrix.ai/role-replica-index", "0"),
                                            entry("stormservice.orchestration.aibrix.ai/roleset-index", "0"));
                            assertThat(e.labels("Pod", "pd-roleset-*-decode-*"))
                                    .containsExactly(
                                            entry("role-name", "decode"),
                                            entry("role-template-hash", "*"),
                                            entry("roleset-name", "pd-roleset-*"),
                                            entry("storm-service-name", "pd"),
                                            entry("stormservice.orchestration.aibrix.ai/role-revision", "1"),
                                            entry("stormservice.orchestration.aibrix.ai/role-revision-name", "pd-*"),
                                            entry("tier", "d"));
                            Pod stateless = (Pod) e.object("Pod", "pd-roleset-*-decode-*");
                            assertThat(stateless.getMetadata().getGenerateName())
                                    .endsWith("-decode-");
                            assertThat(stateless.getSpec().getSubdomain()).isEqualTo("pd");
                            assertThat(stateless.getSpec().getHostname()).isNull();
                            assertThat(e.notes())
                                    .singleElement()
                                    .asString()
                                    .contains("GeneratedNames", "RoleSet name suffixes", "StormService revision");
                        }),
                Arguments.of(
                        "StormService without replicas: AIBrix v0.7.0 reads it as 0 and makes nothing",
                        """
                        apiVersion: orchestration.aibrix.ai/v1alpha1
                        kind: StormService
                        metadata: {name: none, namespace: ns}
                        spec:
                          selector: {matchLabels: {app: none}}
                          template: {metadata: {labels: {app: none}}, spec: {roles: [{name: r, replicas: 1, template: {spec: %1$s}}]}}
                        """,
                        List.of(),
                        (Consumer<Expanded>) e -> assertThat(e.notes())
                                .singleElement()
                                .asString()
                                .contains("NothingToMake", "spec.replicas is not set")),
                Arguments.of(
                        "StormService whose template labels miss its selector: AIBrix refuses to make RoleSets",
                        """
                        apiVersion: orchestration.aibrix.ai/v1alpha1
                        kind: StormService
                        metadata: {name: odd, namespace: ns}
                        spec:
                          replicas: 1
                          selector: {matchLabels: {app: odd}}
                          template: {metadata: {labels: {app: other}}, spec: {roles: [{name: r, replicas: 1, template: {spec: %1$s}}]}}
                        """,
                        List.of(),
                        (Consumer<Expanded>) e -> assertThat(e.notes())
                                .singleElement()
                                .asString()
                                .contains("NotExpanded", "do not match spec.selector")),
                Arguments.of(
                        "RoleSet by hand: stateful pods by index, the RoleSet's Volcano PodGroup name, inherited labels",
                        """
                        apiVersion: orchestration.aibrix.ai/v1alpha1
                        kind: RoleSet
                        metadata: {name: hand, namespace: ns, labels: {name: app-name, team: t}}
                        spec:
                          schedulingStrategy: {volcanoSchedulingStrategy: {minMember: 2}}
                          roles:
                          - {name: prefill, replicas: 2, stateful: true, template: {metadata: {annotations: {a: b}}, spec: %1$s}}
                          - {name: idle, template: {spec: %1$s}}
                        """,
                        List.of("Pod hand-prefill-*-0 <- RoleSet/hand", "Pod hand-prefill-*-1 <- RoleSet/hand"),
                        (Consumer<Expanded>) e -> {
                            assertThat(e.labels("Pod", "hand-prefill-*-1"))
                                    .containsExactly(
                                            entry("name", "app-name"),
                                            entry("role-name", "prefill"),
                                            entry("role-template-hash", "*"),
                                            entry("roleset-name", "hand"),
                                            entry("scheduling.k8s.io/group-name", "hand"),
                                            entry("storm-service-name", ""),
                                            entry("stormservice.orchestration.aibrix.ai/role-replica-index", "1"));
                            assertThat(e.annotations("Pod", "hand-prefill-*-1"))
                                    .containsExactly(
                                            entry("a", "b"),
                                            entry("scheduling.k8s.io/group-name", "hand"),
                                            entry("stormservice.orchestration.aibrix.ai/role-replica-index", "1"),
                                            entry("stormservice.orchestration.aibrix.ai/roleset-index", ""));
                            Pod pod = (Pod) e.object("Pod", "hand-prefill-*-1");
                            assertThat(pod.getSpec().getHostname())
                                    .isEqualTo(pod.getMetadata().getName());
                        }),
                Arguments.of(
                        "RoleSet with a role-level Volcano strategy: each PodSet names its own PodGroup",
                        """
                        apiVersion: orchestration.aibrix.ai/v1alpha1
                        kind: RoleSet
                        metadata: {name: rs, namespace: ns, labels: {storm-service-name: s}, annotations: {stormservice.orchestration.aibrix.ai/roleset-index: "3"}}
                        spec:
                          roles:
                          - {name: tp, replicas: 2, podGroupSize: 2, schedulingStrategy: {volcanoSchedulingStrategy: {minMember: 2}}, template: {spec: %1$s}}
                        """,
                        List.of(
                                "PodSet rs-tp-*-0 <- RoleSet/rs",
                                "Pod rs-tp-*-0-0 <- PodSet/rs-tp-*-0",
                                "Pod rs-tp-*-0-1 <- PodSet/rs-tp-*-0",
                                "PodSet rs-tp-*-1 <- RoleSet/rs",
                                "Pod rs-tp-*-1-0 <- PodSet/rs-tp-*-1",
                                "Pod rs-tp-*-1-1 <- PodSet/rs-tp-*-1"),
                        (Consumer<Expanded>) e -> {
                            assertThat(e.labels("PodSet", "rs-tp-*-1"))
                                    .containsEntry("scheduling.k8s.io/group-name", "rs-tp-*-1")
                                    .containsEntry("storm-service-name", "s")
                                    .containsEntry("stormservice.orchestration.aibrix.ai/role-replica-index", "1");
                            assertThat(e.annotations("PodSet", "rs-tp-*-1"))
                                    .containsExactly(
                                            entry("scheduling.k8s.io/group-name", "rs-tp-*-1"),
                                            entry("stormservice.orchestration.aibrix.ai/role-replica-index", "1"),
                                            entry("stormservice.orchestration.aibrix.ai/roleset-index", "3"));
                            assertThat(e.annotations("Pod", "rs-tp-*-1-0"))
                                    .containsEntry("scheduling.k8s.io/group-name", "rs-tp-*-1");
                            assertThat(((Pod) e.object("Pod", "rs-tp-*-1-0"))
                                            .getSpec()
                                            .getSubdomain())
                                    .isEqualTo("s");
                        }),
                Arguments.of(
                        "PodSet by hand: its labels and annotations go to pods where the template sets none",
                        """
                        apiVersion: orchestration.aibrix.ai/v1alpha1
                        kind: PodSet
                        metadata: {name: ps, namespace: ns, labels: {team: set, x: y}, annotations: {n: "1"}}
                        spec: {podGroupSize: 3, template: {metadata: {labels: {team: template}}, spec: %1$s}}
                        """,
                        List.of("Pod ps-0 <- PodSet/ps", "Pod ps-1 <- PodSet/ps", "Pod ps-2 <- PodSet/ps"),
                        (Consumer<Expanded>) e -> {
                            assertThat(e.labels("Pod", "ps-2"))
                                    .containsExactly(
                                            entry("stormservice.orchestration.aibrix.ai/pod-group-index", "2"),
                                            entry("stormservice.orchestration.aibrix.ai/podset-name", "ps"),
                                            entry("team", "template"),
                                            entry("x", "y"));
                            assertThat(e.annotations("Pod", "ps-2")).containsExactly(entry("n", "1"));
                        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void expandsAsTheControllersDo(String name, String yaml, List<String> outline, Consumer<Expanded> checks) {
        Expanded.check(yaml, outline, checks);
    }
}

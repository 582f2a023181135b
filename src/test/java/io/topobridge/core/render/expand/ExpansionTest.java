package io.topobridge.core.render.expand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the expansion makes of each workload kind: the objects (kind, name, owner) in the order the controllers make
 * them, and the labels and annotations the bridge reads on them, as AIBrix v0.7.0, LWS v0.9.0 and Kubernetes v1.35
 * write them ({@code ExpansionE2E} proves the same against the real controllers). Generated tokens show as {@code *}.
 */
class ExpansionTest {

    private static final String CONTAINER = "{containers: [{name: c, image: x}]}";

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
                        }),
                Arguments.of(
                        "LeaderWorkerSet: leader StatefulSet, leader pods, a worker StatefulSet per leader, workers",
                        """
                        apiVersion: leaderworkerset.x-k8s.io/v1
                        kind: LeaderWorkerSet
                        metadata: {name: lws, namespace: ns}
                        spec: {replicas: 2, leaderWorkerTemplate: {size: 3, workerTemplate: {metadata: {labels: {app: w}}, spec: %1$s}}}
                        """,
                        List.of(
                                "StatefulSet lws <- LeaderWorkerSet/lws",
                                "Pod lws-0 <- StatefulSet/lws",
                                "StatefulSet lws-0 <- Pod/lws-0",
                                "Pod lws-0-1 <- StatefulSet/lws-0",
                                "Pod lws-0-2 <- StatefulSet/lws-0",
                                "Pod lws-1 <- StatefulSet/lws",
                                "StatefulSet lws-1 <- Pod/lws-1",
                                "Pod lws-1-1 <- StatefulSet/lws-1",
                                "Pod lws-1-2 <- StatefulSet/lws-1"),
                        (Consumer<Expanded>) e -> {
                            assertThat(e.labels("StatefulSet", "lws"))
                                    .containsExactly(
                                            entry("leaderworkerset.sigs.k8s.io/name", "lws"),
                                            entry("leaderworkerset.sigs.k8s.io/template-revision-hash", "*"));
                            assertThat(e.annotations("StatefulSet", "lws"))
                                    .containsExactly(entry("leaderworkerset.sigs.k8s.io/replicas", "2"));
                            assertThat(e.labels("Pod", "lws-1"))
                                    .containsExactly(
                                            entry("app", "w"),
                                            entry("apps.kubernetes.io/pod-index", "1"),
                                            entry("controller-revision-hash", "lws-*"),
                                            entry("leaderworkerset.sigs.k8s.io/group-index", "1"),
                                            entry("leaderworkerset.sigs.k8s.io/group-key", sha1("ns/lws-1")),
                                            entry("leaderworkerset.sigs.k8s.io/name", "lws"),
                                            entry("leaderworkerset.sigs.k8s.io/template-revision-hash", "*"),
                                            entry("leaderworkerset.sigs.k8s.io/worker-index", "0"),
                                            entry("statefulset.kubernetes.io/pod-name", "lws-1"));
                            assertThat(e.labels("StatefulSet", "lws-1"))
                                    .containsExactly(
                                            entry("leaderworkerset.sigs.k8s.io/group-index", "1"),
                                            entry("leaderworkerset.sigs.k8s.io/group-key", sha1("ns/lws-1")),
                                            entry("leaderworkerset.sigs.k8s.io/name", "lws"),
                                            entry("leaderworkerset.sigs.k8s.io/template-revision-hash", "*"));
                            assertThat(e.labels("Pod", "lws-1-2"))
                                    .containsEntry("leaderworkerset.sigs.k8s.io/worker-index", "2")
                                    .containsEntry("leaderworkerset.sigs.k8s.io/group-key", sha1("ns/lws-1"))
                                    .containsEntry("controller-revision-hash", "lws-1-*")
                                    .containsEntry("apps.kubernetes.io/pod-index", "2");
                            assertThat(e.annotations("Pod", "lws-1-2"))
                                    .containsExactly(
                                            entry("leaderworkerset.sigs.k8s.io/leader-name", "lws-1"),
                                            entry("leaderworkerset.sigs.k8s.io/size", "3"));
                            StatefulSet workers = (StatefulSet) e.object("StatefulSet", "lws-1");
                            assertThat(workers.getSpec().getReplicas()).isEqualTo(2);
                            assertThat(workers.getSpec().getOrdinals().getStart())
                                    .isEqualTo(1);
                            assertThat(workers.getMetadata()
                                            .getOwnerReferences()
                                            .get(0)
                                            .getApiVersion())
                                    .isEqualTo("v1");
                        }),
                Arguments.of(
                        "LeaderWorkerSet subgroups of 2 in groups of 5: the leader is subgroup 0's extra pod",
                        """
                        apiVersion: leaderworkerset.x-k8s.io/v1
                        kind: LeaderWorkerSet
                        metadata: {name: sg, namespace: ns, annotations: {leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology: zone}}
                        spec: {leaderWorkerTemplate: {size: 5, subGroupPolicy: {subGroupSize: 2}, workerTemplate: {spec: %1$s}}}
                        """,
                        List.of(
                                "StatefulSet sg <- LeaderWorkerSet/sg",
                                "Pod sg-0 <- StatefulSet/sg",
                                "StatefulSet sg-0 <- Pod/sg-0",
                                "Pod sg-0-1 <- StatefulSet/sg-0",
                                "Pod sg-0-2 <- StatefulSet/sg-0",
                                "Pod sg-0-3 <- StatefulSet/sg-0",
                                "Pod sg-0-4 <- StatefulSet/sg-0"),
                        (Consumer<Expanded>) e -> {
                            assertThat(e.labels("Pod", "sg-0"))
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-index", "0")
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-key", sha1("sg-0/0"));
                            assertThat(e.annotations("Pod", "sg-0"))
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-policy-type", "LeaderWorker")
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-size", "2")
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology", "zone");
                            assertThat(List.of("sg-0-1", "sg-0-2", "sg-0-3", "sg-0-4").stream()
                                            .map(p -> e.labels("Pod", p)
                                                    .get("leaderworkerset.sigs.k8s.io/subgroup-index")))
                                    .containsExactly("0", "0", "1", "1");
                            assertThat(e.labels("Pod", "sg-0-3"))
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-key", sha1("sg-0/1"));
                            assertThat(e.annotations("Pod", "sg-0-3"))
                                    .doesNotContainKey("leaderworkerset.sigs.k8s.io/subgroup-policy-type")
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-size", "2");
                        }),
                Arguments.of(
                        "LeaderWorkerSet LeaderExcluded subgroups: the leader carries no subgroup",
                        """
                        apiVersion: leaderworkerset.x-k8s.io/v1
                        kind: LeaderWorkerSet
                        metadata: {name: ex, namespace: ns}
                        spec: {leaderWorkerTemplate: {size: 3, subGroupPolicy: {subGroupSize: 2, subGroupPolicyType: LeaderExcluded}, workerTemplate: {spec: %1$s}}}
                        """,
                        List.of(
                                "StatefulSet ex <- LeaderWorkerSet/ex",
                                "Pod ex-0 <- StatefulSet/ex",
                                "StatefulSet ex-0 <- Pod/ex-0",
                                "Pod ex-0-1 <- StatefulSet/ex-0",
                                "Pod ex-0-2 <- StatefulSet/ex-0"),
                        (Consumer<Expanded>) e -> {
                            assertThat(e.labels("Pod", "ex-0"))
                                    .doesNotContainKey("leaderworkerset.sigs.k8s.io/subgroup-index");
                            assertThat(e.labels("Pod", "ex-0-2"))
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-index", "0");
                        }),
                Arguments.of(
                        "LeaderWorkerSet with a leader template, a subdomain per group, exclusive placement and TPUs",
                        """
                        apiVersion: leaderworkerset.x-k8s.io/v1
                        kind: LeaderWorkerSet
                        metadata: {name: u, namespace: ns, annotations: {leaderworkerset.sigs.k8s.io/exclusive-topology: pool}}
                        spec:
                          networkConfig: {subdomainPolicy: UniquePerReplica}
                          leaderWorkerTemplate:
                            size: 2
                            leaderTemplate: {metadata: {labels: {role: leader}}, spec: {containers: [{name: c, image: x, resources: {limits: {google.com/tpu: 4}}}]}}
                            workerTemplate: {metadata: {labels: {role: worker}}, spec: %1$s}
                        """,
                        List.of(
                                "StatefulSet u <- LeaderWorkerSet/u",
                                "Pod u-0 <- StatefulSet/u",
                                "StatefulSet u-0 <- Pod/u-0",
                                "Pod u-0-1 <- StatefulSet/u-0"),
                        (Consumer<Expanded>) e -> {
                            assertThat(e.labels("Pod", "u-0")).containsEntry("role", "leader");
                            assertThat(e.annotations("Pod", "u-0"))
                                    .containsExactly(
                                            entry("leaderworkerset.sigs.k8s.io/exclusive-topology", "pool"),
                                            entry("leaderworkerset.sigs.k8s.io/size", "2"),
                                            entry("leaderworkerset.sigs.k8s.io/subdomainPolicy", "UniquePerReplica"));
                            assertThat(e.labels("Pod", "u-0-1")).containsEntry("role", "worker");
                            assertThat(e.annotations("Pod", "u-0-1"))
                                    .containsExactly(
                                            entry("leaderworkerset.sigs.k8s.io/exclusive-topology", "pool"),
                                            entry("leaderworkerset.sigs.k8s.io/leader-name", "u-0"),
                                            entry("leaderworkerset.sigs.k8s.io/leader-requests-tpus", "true"),
                                            entry("leaderworkerset.sigs.k8s.io/size", "2"));
                            assertThat(((StatefulSet) e.object("StatefulSet", "u-0"))
                                            .getSpec()
                                            .getServiceName())
                                    .isEqualTo("u-0");
                        }),
                Arguments.of(
                        "LeaderWorkerSet of no replicas: the leader StatefulSet alone",
                        """
                        apiVersion: leaderworkerset.x-k8s.io/v1
                        kind: LeaderWorkerSet
                        metadata: {name: z, namespace: ns}
                        spec: {replicas: 0, leaderWorkerTemplate: {size: 4, workerTemplate: {spec: %1$s}}}
                        """,
                        List.of("StatefulSet z <- LeaderWorkerSet/z"),
                        (Consumer<Expanded>) e -> {}),
                Arguments.of(
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
                        }),
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
        Expanded e = Expanded.of(yaml.formatted(CONTAINER));
        if (outline != null) {
            assertThat(e.outline()).containsExactlyElementsOf(outline);
        }
        checks.accept(e);
        assertThat(e.result().created())
                .as("every created object is in the input's namespace")
                .allMatch(o -> "ns".equals(o.getMetadata().getNamespace()));
    }

    static String sha1(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

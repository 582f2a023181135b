package io.topobridge.core.kinds.lws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.topobridge.core.expand.Expanded;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the expansion makes of a LeaderWorkerSet, as LWS v0.9.0 with its pod webhook's labels writes it: the objects (kind, name, owner) in the order
 * the controllers make them, and the labels and annotations the bridge reads on them ({@code ExpansionE2E} proves the
 * same against the real controllers). Generated tokens show as {@code *}.
 */
class LeaderWorkerSetExpansionTest {

    static Stream<Arguments> cases() {
        return Stream.of(
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
                                            entry("leaderworkerset.sigs.k8s.io/group-key", Expanded.sha1("ns/lws-1")),
                                            entry("leaderworkerset.sigs.k8s.io/name", "lws"),
                                            entry("leaderworkerset.sigs.k8s.io/template-revision-hash", "*"),
                                            entry("leaderworkerset.sigs.k8s.io/worker-index", "0"),
                                            entry("statefulset.kubernetes.io/pod-name", "lws-1"));
                            assertThat(e.labels("StatefulSet", "lws-1"))
                                    .containsExactly(
                                            entry("leaderworkerset.sigs.k8s.io/group-index", "1"),
                                            entry("leaderworkerset.sigs.k8s.io/group-key", Expanded.sha1("ns/lws-1")),
                                            entry("leaderworkerset.sigs.k8s.io/name", "lws"),
                                            entry("leaderworkerset.sigs.k8s.io/template-revision-hash", "*"));
                            assertThat(e.labels("Pod", "lws-1-2"))
                                    .containsEntry("leaderworkerset.sigs.k8s.io/worker-index", "2")
                                    .containsEntry("leaderworkerset.sigs.k8s.io/group-key", Expanded.sha1("ns/lws-1"))
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
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-key", Expanded.sha1("sg-0/0"));
                            assertThat(e.annotations("Pod", "sg-0"))
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-policy-type", "LeaderWorker")
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-size", "2")
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology", "zone");
                            assertThat(List.of("sg-0-1", "sg-0-2", "sg-0-3", "sg-0-4").stream()
                                            .map(p -> e.labels("Pod", p)
                                                    .get("leaderworkerset.sigs.k8s.io/subgroup-index")))
                                    .containsExactly("0", "0", "1", "1");
                            assertThat(e.labels("Pod", "sg-0-3"))
                                    .containsEntry("leaderworkerset.sigs.k8s.io/subgroup-key", Expanded.sha1("sg-0/1"));
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
                        (Consumer<Expanded>) e -> {}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void expandsAsTheControllersDo(String name, String yaml, List<String> outline, Consumer<Expanded> checks) {
        Expanded.check(yaml, outline, checks);
    }
}

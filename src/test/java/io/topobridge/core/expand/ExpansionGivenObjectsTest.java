package io.topobridge.core.expand;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.manifest.ManifestReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Objects the input already holds are kept and never made twice: a controller makes only what it does not see, and a
 * hand-written pod naming the RoleSet or ReplicaSet it belongs to makes render use that name.
 */
class ExpansionGivenObjectsTest {

    private static final String CONTAINER = "{containers: [{name: c, image: x}]}";

    @Test
    void theExampleStormServiceWithItsSeededRoleSetGetsNoSecondRoleSetButItsPodSetsAndPods() {
        List<HasMetadata> inputs = new ManifestReader(new KubernetesSerialization())
                .read(List.of(
                        Path.of("examples/workloads/stormservice.yaml"),
                        Path.of("examples/demo-only/aibrix-roleset.yaml")))
                .objects();
        Expanded e = Expanded.of(inputs, Expansion.Limits.DEFAULT);
        assertThat(e.outline())
                .containsExactly(
                        "PodSet pd-demo-roleset-7xkq2-prefill-*-0 <- RoleSet/pd-demo-roleset-7xkq2",
                        "Pod pd-demo-roleset-7xkq2-prefill-*-0-0 <- PodSet/pd-demo-roleset-7xkq2-prefill-*-0",
                        "Pod pd-demo-roleset-7xkq2-prefill-*-0-1 <- PodSet/pd-demo-roleset-7xkq2-prefill-*-0",
                        "PodSet pd-demo-roleset-7xkq2-decode-*-0 <- RoleSet/pd-demo-roleset-7xkq2",
                        "Pod pd-demo-roleset-7xkq2-decode-*-0-0 <- PodSet/pd-demo-roleset-7xkq2-decode-*-0",
                        "Pod pd-demo-roleset-7xkq2-decode-*-0-1 <- PodSet/pd-demo-roleset-7xkq2-decode-*-0");
        assertThat(e.annotations("PodSet", "pd-demo-roleset-7xkq2-decode-*-0"))
                .containsEntry("stormservice.orchestration.aibrix.ai/roleset-index", "0");
    }

    @Test
    void aStormServiceShortOfReplicasGetsOnlyTheMissingRoleSetsIndexedFromZeroAsAibrixDoes() {
        Expanded e = Expanded.of(Expanded.objects("""
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: StormService
                metadata: {name: s, namespace: ns}
                spec:
                  replicas: 3
                  selector: {matchLabels: {app: s}}
                  template: {metadata: {labels: {app: s}}, spec: {roles: []}}
                ---
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: RoleSet
                metadata: {name: s-roleset-given, namespace: ns, labels: {app: s}, annotations: {stormservice.orchestration.aibrix.ai/roleset-index: "0"}}
                spec: {roles: []}
                """), Expansion.Limits.DEFAULT);
        assertThat(e.outline())
                .containsExactly("RoleSet s-roleset-* <- StormService/s", "RoleSet s-roleset-* <- StormService/s");
        assertThat(e.result().created())
                .map(o -> o.getMetadata().getAnnotations().get("stormservice.orchestration.aibrix.ai/roleset-index"))
                .containsExactly("0", "1");
    }

    @Test
    void handWrittenPodsOfAStormServiceNameTheRoleSetRenderMakesAndAreNotMadeAgain() {
        Expanded e = Expanded.of(Expanded.objects("""
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: StormService
                metadata: {name: s, namespace: ns}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: s}}
                  template:
                    metadata: {labels: {app: s}}
                    spec: {roles: [{name: r, replicas: 2, stateful: true, template: {spec: %1$s}}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: mine
                  namespace: ns
                  labels: {storm-service-name: s, roleset-name: s-roleset-abcde, role-name: r}
                  annotations: {stormservice.orchestration.aibrix.ai/role-replica-index: "1", stormservice.orchestration.aibrix.ai/roleset-index: "0"}
                spec: %1$s
                """.formatted(CONTAINER)), Expansion.Limits.DEFAULT);
        assertThat(e.outline())
                .containsExactly(
                        "RoleSet s-roleset-abcde <- StormService/s",
                        "Pod s-roleset-abcde-r-*-0 <- RoleSet/s-roleset-abcde");
    }

    @Test
    void aDeploymentWithItsReplicaSetGivenGetsOnlyTheMissingPods() {
        Expanded e = Expanded.of(Expanded.objects("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: ns}
                spec: {replicas: 3, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: %1$s}}
                ---
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata:
                  name: web-5d4f8
                  namespace: ns
                  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: u1, controller: true}]
                spec: {replicas: 3, selector: {matchLabels: {app: web, pod-template-hash: 5d4f8}}, template: {metadata: {labels: {app: web, pod-template-hash: 5d4f8}}, spec: %1$s}}
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web-5d4f8-aaaaa
                  namespace: ns
                  labels: {app: web, pod-template-hash: 5d4f8}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4f8, uid: u2, controller: true}]
                spec: %1$s
                """.formatted(CONTAINER)), Expansion.Limits.DEFAULT);
        assertThat(e.outline())
                .containsExactly("Pod web-5d4f8-* <- ReplicaSet/web-5d4f8", "Pod web-5d4f8-* <- ReplicaSet/web-5d4f8");
    }

    @Test
    void handWrittenPodsOfADeploymentNameTheReplicaSetAndCount() {
        Expanded e = Expanded.of(Expanded.objects("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: ns}
                spec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: %1$s}}
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web-7c9d-x1
                  namespace: ns
                  labels: {app: web, pod-template-hash: 7c9d}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7c9d, uid: u2, controller: true}]
                spec: %1$s
                """.formatted(CONTAINER)), Expansion.Limits.DEFAULT);
        assertThat(e.outline())
                .containsExactly("ReplicaSet web-7c9d <- Deployment/web", "Pod web-7c9d-* <- ReplicaSet/web-7c9d");
        assertThat(e.labels("ReplicaSet", "web-7c9d")).containsEntry("pod-template-hash", "7c9d");
    }

    @Test
    void aLeaderWorkerSetWithItsLeaderStatefulSetAndALeaderPodGivenGetsTheRest() {
        Expanded e = Expanded.of(Expanded.objects("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: l, namespace: ns}
                spec: {replicas: 2, leaderWorkerTemplate: {size: 2, workerTemplate: {spec: %1$s}}}
                ---
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: l, namespace: ns, labels: {leaderworkerset.sigs.k8s.io/name: l}}
                spec:
                  replicas: 2
                  selector: {matchLabels: {leaderworkerset.sigs.k8s.io/name: l, leaderworkerset.sigs.k8s.io/worker-index: "0"}}
                  template:
                    metadata:
                      labels: {leaderworkerset.sigs.k8s.io/name: l, leaderworkerset.sigs.k8s.io/worker-index: "0"}
                      annotations: {leaderworkerset.sigs.k8s.io/size: "2"}
                    spec: %1$s
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: l-0
                  namespace: ns
                  labels: {leaderworkerset.sigs.k8s.io/name: l, leaderworkerset.sigs.k8s.io/worker-index: "0", leaderworkerset.sigs.k8s.io/group-index: "0"}
                  annotations: {leaderworkerset.sigs.k8s.io/size: "2"}
                spec: %1$s
                """.formatted(CONTAINER)), Expansion.Limits.DEFAULT);
        assertThat(e.outline())
                .containsExactlyInAnyOrder(
                        "StatefulSet l-0 <- Pod/l-0",
                        "Pod l-0-1 <- StatefulSet/l-0",
                        "Pod l-1 <- StatefulSet/l",
                        "StatefulSet l-1 <- Pod/l-1",
                        "Pod l-1-1 <- StatefulSet/l-1");
    }

    @Test
    void aStatefulSetWithSomePodsGivenGetsTheOthers() {
        Expanded e = Expanded.of(Expanded.objects("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: ns}
                spec: {replicas: 3, selector: {matchLabels: {app: db}}, template: {metadata: {labels: {app: db}}, spec: %1$s}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: db-1, namespace: ns, labels: {app: db}}
                spec: %1$s
                """.formatted(CONTAINER)), Expansion.Limits.DEFAULT);
        assertThat(e.outline()).containsExactly("Pod db-0 <- StatefulSet/db", "Pod db-2 <- StatefulSet/db");
    }

    @Test
    void aRoleSetKeepsItsGivenPodsAndPodSets() {
        Expanded e = Expanded.of(Expanded.objects("""
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: RoleSet
                metadata: {name: rs, namespace: ns}
                spec:
                  roles:
                  - {name: a, replicas: 2, stateful: true, template: {spec: %1$s}}
                  - {name: b, replicas: 3, template: {spec: %1$s}}
                  - {name: c, replicas: 2, podGroupSize: 2, template: {spec: %1$s}}
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: rs-a-hand-1
                  namespace: ns
                  labels: {roleset-name: rs, role-name: a}
                  annotations: {stormservice.orchestration.aibrix.ai/role-replica-index: "1"}
                spec: %1$s
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: rs-b-hand, namespace: ns, labels: {roleset-name: rs, role-name: b}}
                spec: %1$s
                ---
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: PodSet
                metadata:
                  name: rs-c-given-0
                  namespace: ns
                  labels: {roleset-name: rs, role-name: c, stormservice.orchestration.aibrix.ai/role-replica-index: "0"}
                spec: {podGroupSize: 2, template: {spec: %1$s}}
                """.formatted(CONTAINER)), Expansion.Limits.DEFAULT);
        assertThat(e.outline())
                .containsExactly(
                        "Pod rs-a-*-0 <- RoleSet/rs",
                        "Pod rs-b-* <- RoleSet/rs",
                        "Pod rs-b-* <- RoleSet/rs",
                        "PodSet rs-c-*-1 <- RoleSet/rs",
                        "Pod rs-c-*-1-0 <- PodSet/rs-c-*-1",
                        "Pod rs-c-*-1-1 <- PodSet/rs-c-*-1",
                        "Pod rs-c-given-0-0 <- PodSet/rs-c-given-0",
                        "Pod rs-c-given-0-1 <- PodSet/rs-c-given-0");
    }

    @Test
    void aDisaggregatedSetWithARoleLeaderWorkerSetGivenMakesOnlyTheOtherRole() {
        Expanded e = Expanded.of(Expanded.objects("""
                apiVersion: disaggregatedset.x-k8s.io/v1
                kind: DisaggregatedSet
                metadata: {name: ds, namespace: ns}
                spec:
                  roles:
                  - {name: prefill, spec: {replicas: 0, leaderWorkerTemplate: {workerTemplate: {spec: %1$s}}}}
                  - {name: decode, spec: {replicas: 0, leaderWorkerTemplate: {workerTemplate: {spec: %1$s}}}}
                ---
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: ds-abcdef12-prefill, namespace: ns, labels: {disaggregatedset.x-k8s.io/name: ds, disaggregatedset.x-k8s.io/role: prefill}}
                spec: {replicas: 0, leaderWorkerTemplate: {workerTemplate: {spec: %1$s}}}
                """.formatted(CONTAINER)), Expansion.Limits.DEFAULT);
        assertThat(e.outline())
                .containsExactly(
                        "LeaderWorkerSet ds-*-decode <- DisaggregatedSet/ds",
                        "StatefulSet ds-*-decode <- LeaderWorkerSet/ds-*-decode",
                        "StatefulSet ds-abcdef12-prefill <- LeaderWorkerSet/ds-abcdef12-prefill");
    }

    @Test
    void aStormServiceCountsTheRoleSetsItsSelectorMatchesInEveryNamespaceAsAibrixDoes() {
        String storm = """
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: StormService
                metadata: {name: s, namespace: %s}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: shared}}
                  template: {metadata: {labels: {app: shared}}, spec: {roles: []}}
                """;
        Expanded e = Expanded.of(
                Expanded.objects(storm.formatted("one") + "---\n" + storm.formatted("two")), Expansion.Limits.DEFAULT);
        assertThat(e.outline())
                .as("AIBrix v0.7.0 lists RoleSets by selector without a namespace: the second sees the first's")
                .containsExactly("RoleSet s-roleset-* <- StormService/s");
        assertThat(e.result().created().get(0).getMetadata().getNamespace()).isEqualTo("one");
    }
}

package io.topobridge.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.topobridge.apply.RecentObjects;
import io.topobridge.controller.workload.TestClusters;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.PodTemplates;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.model.PodGroupSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The informer-backed lookup against the mock API server: built-in kinds, slim ReplicaSets, late CRDs. */
class WorkloadCachesTest {

    private MockCluster cluster;
    private KindRegistry registry;
    private WorkloadCaches lookup;

    @BeforeEach
    void start() {
        cluster = RecordingDispatcher.start().installVolcanoCrds();
        registry = TestClusters.registryWithVolcano(cluster);
        lookup = new WorkloadCaches(cluster.client(), registry, new RecentObjects());
        cluster.client()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("llm")
                        .endMetadata()
                        .build())
                .create();
    }

    /** Starts the caches with a listener that records each change, and waits until they are ready. */
    private List<WorkloadCaches.Change> startRecordingChanges() {
        List<WorkloadCaches.Change> changes = new CopyOnWriteArrayList<>();
        lookup.addListener(changes::add);
        lookup.start();
        await().atMost(Duration.ofSeconds(10)).until(lookup::ready);
        return changes;
    }

    /** The informer fills its store before it calls the listeners: wait for the change rather than assert it. */
    private static void heard(List<WorkloadCaches.Change> changes, String kind) {
        await().atMost(Duration.ofSeconds(10)).until(() -> changes.stream().anyMatch(c -> kind.equals(c.kind())));
    }

    @AfterEach
    void stop() {
        lookup.stop();
        cluster.close();
    }

    @Test
    void cachesBuiltInKindsAndReplicaSetsWithoutTheirSpec() {
        lookup.start();
        await().atMost(Duration.ofSeconds(10)).until(lookup::ready);
        cluster.client()
                .resource(new DeploymentBuilder()
                        .withNewMetadata()
                        .withName("d")
                        .withNamespace("llm")
                        .endMetadata()
                        .withSpec(PodTemplates.deploymentSpec(2, "a", "b"))
                        .build())
                .create();
        cluster.client()
                .resource(new ReplicaSetBuilder()
                        .withNewMetadata()
                        .withName("d-abc")
                        .withNamespace("llm")
                        .addNewOwnerReference()
                        .withApiVersion("apps/v1")
                        .withKind("Deployment")
                        .withName("d")
                        .withUid("u")
                        .withController(true)
                        .endOwnerReference()
                        .endMetadata()
                        .withSpec(PodTemplates.replicaSetSpec(2, "a", "b"))
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lookup.get(WorkloadKind.REPLICA_SET, "llm", "d-abc")
                                .isPresent()
                        && lookup.get(WorkloadKind.DEPLOYMENT, "llm", "d").isPresent());
        ReplicaSet rs = (ReplicaSet)
                lookup.get(WorkloadKind.REPLICA_SET, "llm", "d-abc").orElseThrow();
        assertThat(rs.getSpec()).isNull();
        assertThat(rs.getMetadata().getOwnerReferences())
                .extracting(r -> r.getName())
                .containsExactly("d");
        assertThat(lookup.list(WorkloadKind.DEPLOYMENT, "llm")).hasSize(1);
        assertThat(lookup.list(WorkloadKind.DEPLOYMENT, "other")).isEmpty();
    }

    @Test
    void optionalKindIsCachedOnceItsCrdAppearsAndNeverHoldsReadinessBack() {
        List<WorkloadCaches.Change> changes = startRecordingChanges();
        assertThat(lookup.cachedKinds()).doesNotContain(WorkloadKind.LEADER_WORKER_SET);
        assertThat(lookup.list(WorkloadKind.LEADER_WORKER_SET, "llm")).isEmpty();

        TestClusters.installCrd(cluster, registry, "leaderworkersets.leaderworkerset.x-k8s.io");
        assertThat(lookup.cachedKinds()).contains(WorkloadKind.LEADER_WORKER_SET);
        var lws = new GenericKubernetesResource();
        lws.setApiVersion("leaderworkerset.x-k8s.io/v1");
        lws.setKind("LeaderWorkerSet");
        lws.setMetadata(
                new ObjectMetaBuilder().withName("big").withNamespace("llm").build());
        lws.setAdditionalProperty("spec", Map.of("replicas", 2));
        cluster.client().resource(lws).create();
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        lookup.get(WorkloadKind.LEADER_WORKER_SET, "llm", "big").isPresent());
        heard(changes, "LeaderWorkerSet");
        assertThat(lookup.ready()).isTrue();

        registry.update("leaderworkersets.leaderworkerset.x-k8s.io", null);
        assertThat(lookup.cachedKinds()).doesNotContain(WorkloadKind.LEADER_WORKER_SET);
        assertThat(lookup.get(WorkloadKind.LEADER_WORKER_SET, "llm", "big")).isEmpty();
    }

    @Test
    void cachesPodGroupsByNamespace() {
        lookup.start();
        await().atMost(Duration.ofSeconds(10)).until(lookup::ready);
        var pg = new PodGroup();
        pg.setMetadata(
                new ObjectMetaBuilder().withName("g").withNamespace("llm").build());
        pg.setSpec(new PodGroupSpec().minMember(2));
        cluster.client().resource(pg).create();
        await().atMost(Duration.ofSeconds(10)).until(() -> lookup.podGroup("llm", "g") != null);
        assertThat(lookup.podGroups("llm"))
                .extracting(p -> p.getMetadata().getName())
                .containsExactly("g");
        assertThat(lookup.podGroups("default")).isEmpty();
        assertThat(lookup.queuesKnown()).isTrue();
        assertThat(lookup.allQueues())
                .noneMatch(q -> "default".equals(q.getMetadata().getName()));
    }

    @Test
    void cachesHorizontalPodAutoscalersAndAibrixPodAutoscalersOnceTheirCrdAppears() {
        List<WorkloadCaches.Change> changes = startRecordingChanges();
        cluster.client()
                .resource(new io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder()
                        .withNewMetadata()
                        .withName("decode")
                        .withNamespace("llm")
                        .endMetadata()
                        .withNewSpec()
                        .withNewScaleTargetRef()
                        .withApiVersion("disaggregatedset.x-k8s.io/v1")
                        .withKind("DisaggregatedSetRoleScaler")
                        .withName("pd-decode")
                        .endScaleTargetRef()
                        .withMaxReplicas(6)
                        .endSpec()
                        .build())
                .create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !lookup.autoscalers("llm").isEmpty());
        assertThat(lookup.autoscalers("llm"))
                .singleElement()
                .satisfies(a -> assertThat(io.topobridge.core.workload.Autoscaler.of(a))
                        .hasValueSatisfying(x -> {
                            assertThat(x.targets(
                                            "disaggregatedset.x-k8s.io", "DisaggregatedSetRoleScaler", "pd-decode"))
                                    .isTrue();
                            assertThat(x.maxReplicas()).isEqualTo(6);
                        }));
        assertThat(lookup.autoscalers("other")).isEmpty();
        heard(changes, "HorizontalPodAutoscaler");

        // AIBrix's PodAutoscaler: cached once its CRD is installed
        // (a stand-in with an open schema, as the other optional CRDs of these tests)
        var crd = new io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("podautoscalers.autoscaling.aibrix.ai")
                .endMetadata()
                .withNewSpec()
                .withGroup("autoscaling.aibrix.ai")
                .withScope("Namespaced")
                .withNewNames()
                .withKind("PodAutoscaler")
                .withListKind("PodAutoscalerList")
                .withPlural("podautoscalers")
                .withSingular("podautoscaler")
                .endNames()
                .addNewVersion()
                .withName("v1alpha1")
                .withServed(true)
                .withStorage(true)
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema()
                .endSchema()
                .endVersion()
                .endSpec()
                .build();
        registry.update(
                "podautoscalers.autoscaling.aibrix.ai",
                cluster.client().resource(crd).create());
        var pa = new GenericKubernetesResource();
        pa.setApiVersion("autoscaling.aibrix.ai/v1alpha1");
        pa.setKind("PodAutoscaler");
        pa.setMetadata(
                new ObjectMetaBuilder().withName("pa").withNamespace("llm").build());
        pa.setAdditionalProperty(
                "spec",
                Map.of(
                        "scaleTargetRef",
                        Map.of("apiVersion", "orchestration.aibrix.ai/v1alpha1", "kind", "StormService", "name", "ss"),
                        "subTargetSelector",
                        Map.of("roleName", "decode"),
                        "maxReplicas",
                        5));
        cluster.client().resource(pa).create();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lookup.autoscalers("llm").size() == 2);
        assertThat(lookup.autoscalers("llm"))
                .extracting(a -> io.topobridge.core.workload.Autoscaler.of(a)
                        .orElseThrow()
                        .role())
                .containsExactlyInAnyOrder(null, "decode");
        registry.update("podautoscalers.autoscaling.aibrix.ai", null);
        assertThat(lookup.autoscalers("llm")).hasSize(1);
    }
}

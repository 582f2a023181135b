package io.topobridge.controller.workload;

import static io.topobridge.volcano.model.NetworkTopologySpec.ModeEnum.SOFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.topobridge.cache.KindRegistry;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.ClusterObjects;
import io.topobridge.testing.DraClaims;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.testing.VolcanoSchemas;
import io.topobridge.volcano.PodGroup;
import io.topobridge.volcano.Queue;
import io.topobridge.volcano.model.PodGroupSpec;
import io.topobridge.volcano.model.QueueStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ObjectAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The workload controller against the mock API server, counting every write: a create, an update on scale,
 * nothing on resync or on changes that do not touch the PodGroup, a delete of only its own PodGroup when the
 * annotations go, topology fields only on an adopted PodGroup, and findings instead of endless retries. What the
 * reconciler decides from the time (a group's wait for its members, {@code auto}'s wait for room) is tested on a fixed
 * time in {@code ScopeReconcilerTest}; here, only that the controller's own timer wakes a scope when a wait ends.
 */
class WorkloadControllerTest {

    private static final String NS = "llm";
    private static final Duration WAIT = Duration.ofSeconds(15);

    private MockCluster cluster;
    private KindRegistry registry;
    private Wiring wiring;

    @BeforeEach
    void start() {
        cluster = RecordingDispatcher.start().installVolcanoCrds();
        registry = TestClusters.registryWithVolcano(cluster);
        cluster.client()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NS)
                        .endMetadata()
                        .build())
                .create();
        // every Volcano installation has an open default queue
        var queue = ClusterObjects.queue("default");
        queue.setStatus(new QueueStatus().state("Open"));
        cluster.client().resource(queue).create();
    }

    private void startController(WorkloadController.Options options) {
        wiring = new Wiring(cluster.client(), registry, Fixtures.TIERS, options);
        wiring.controller.start();
        await().atMost(WAIT).until(wiring.controller::ready);
        RecordingDispatcher.of(cluster).clearLog();
    }

    /** The controller with the default options over {@code settings}, started and ready. */
    private void startControllerWith(io.topobridge.core.workload.WorkloadSettings settings) {
        wiring = new Wiring(cluster.client(), registry, Fixtures.TIERS, Wiring.DEFAULTS, null, settings);
        wiring.controller.start();
        await().atMost(WAIT).until(wiring.controller::ready);
    }

    @AfterEach
    void stop() {
        if (wiring != null) {
            wiring.controller.stop();
            wiring.lookup.stop();
            wiring.view.stop();
            wiring.nodes.stop();
        }
        cluster.close();
    }

    private List<RecordingDispatcher.Request> podGroupWrites() {
        return RecordingDispatcher.of(cluster).writes("/namespaces/" + NS + "/podgroups");
    }

    /** Waits for the controller's first finding, lets the writes settle, and asserts there is just one. */
    private ObjectAssert<Finding> onlyFindingOnceSettled() {
        await().atMost(WAIT)
                .until(() -> !wiring.findings.of(WorkloadController.SOURCE).isEmpty());
        settle();
        return assertThat(wiring.findings.of(WorkloadController.SOURCE)).singleElement();
    }

    /** From a clear log, two resyncs with nothing changed write no PodGroup. */
    private void twoResyncsWriteNothing() {
        RecordingDispatcher.of(cluster).clearLog();
        resyncAndSettle();
        resyncAndSettle();
        assertThat(podGroupWrites())
                .as("a resync with nothing changed writes nothing")
                .isEmpty();
    }

    /** The PodGroups in the test namespace. */
    private List<PodGroup> podGroups() {
        return cluster.client().resources(PodGroup.class).inNamespace(NS).list().getItems();
    }

    private PodGroup podGroup(String name) {
        return cluster.client()
                .resources(PodGroup.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    private <T extends HasMetadata> T apply(String yaml) {
        @SuppressWarnings("unchecked")
        T object = (T) Fixtures.object(yaml);
        return cluster.client().resource(object).serverSideApply();
    }

    /**
     * Waits until the controller is quiet: nothing pending and no batch for a while (events caused by its own
     * writes come back through the PodGroup cache and must be seen to cause nothing).
     */
    private void settle() {
        long[] last = {-1};
        await().pollInterval(Duration.ofMillis(400)).atMost(WAIT).until(() -> {
            long now = wiring.passes();
            boolean quiet = now == last[0] && wiring.pending() == 0;
            last[0] = now;
            return quiet;
        });
    }

    private void resyncAndSettle() {
        long full = wiring.fullPasses();
        wiring.resync();
        await().atMost(WAIT).until(() -> wiring.fullPasses() > full);
    }

    /** A Deployment in {@code llm} of one-GPU pods: its name, annotations and replicas to fill in. */
    private static final String GROUP_MEMBER = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: %s
              namespace: llm
              annotations: {%s}
            spec:
              replicas: %d
              strategy: {rollingUpdate: {maxUnavailable: 1}}
              selector: {matchLabels: {app: %1$s}}
              template:
                metadata: {labels: {app: %1$s}}
                spec: {containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "1"}}}]}
            """;

    private static String deployment(int replicas, String annotations, String labels) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: vllm
                  namespace: llm
                  annotations: {%s}
                  labels: {%s}
                spec:
                  replicas: %d
                  strategy: {rollingUpdate: {maxUnavailable: 1}}
                  selector: {matchLabels: {app: vllm}}
                  template:
                    metadata: {labels: {app: vllm}}
                    spec:
                      containers:
                      - name: vllm
                        image: vllm/vllm-openai:v0.9.0
                        resources:
                          requests: {cpu: "4", memory: 32Gi}
                          limits: {nvidia.com/gpu: "2"}
                """.formatted(annotations, labels, replicas);
    }

    @Test
    void lifecycleWritesExactlyWhatChanged() {
        startController(Wiring.DEFAULTS);
        Deployment d = apply(deployment(2, "topobridge.io/highest-tier: rack", "team: a"));

        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm") != null);
        settle();
        assertThat(podGroupWrites())
                .hasSize(1)
                .allSatisfy(w -> assertThat(w.isApply()).isTrue());
        PodGroup created = podGroup("tb-deploy-vllm");
        assertThat(created.getSpec().getMinMember()).isEqualTo(2);
        assertThat(created.getSpec().getMinResources())
                .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "8", "memory", "64Gi", "nvidia.com/gpu", "4"));
        assertThat(created.getSpec().getNetworkTopology().getHighestTierAllowed())
                .isEqualTo(2);
        assertThat(created.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo(d.getMetadata().getUid()));
        assertThat(VolcanoSchemas.podGroups().violations(created)).isEmpty();

        RecordingDispatcher.of(cluster).clearLog();
        resyncAndSettle();
        resyncAndSettle();
        assertThat(podGroupWrites()).as("a resync writes nothing").isEmpty();

        apply(deployment(2, "topobridge.io/highest-tier: rack", "team: b"));
        settle();
        assertThat(podGroupWrites())
                .as("a change that does not touch the PodGroup writes nothing")
                .isEmpty();

        apply(deployment(3, "topobridge.io/highest-tier: rack", "team: b"));
        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm").getSpec().getMinMember() == 3);
        settle();
        assertThat(podGroupWrites()).as("scaling updates once").hasSize(1);
        assertThat(podGroup("tb-deploy-vllm").getSpec().getMinResources()).containsEntry("nvidia.com/gpu", "6");

        // a PodGroup someone else made in the same namespace must survive
        var foreign = new PodGroup();
        foreign.setMetadata(new ObjectMetaBuilder()
                .withName("podgroup-1234")
                .withNamespace(NS)
                .build());
        foreign.setSpec(new PodGroupSpec().minMember(1));
        cluster.client().resource(foreign).create();
        RecordingDispatcher.of(cluster).clearLog();

        // removing the annotations (edit the object; a plain update drops them)
        Deployment current = cluster.client()
                .apps()
                .deployments()
                .inNamespace(NS)
                .withName("vllm")
                .get();
        current.getMetadata().setAnnotations(Map.of());
        current.getMetadata().setManagedFields(null);
        cluster.client().resource(current).update();
        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm") == null);
        settle();
        assertThat(podGroupWrites())
                .extracting(RecordingDispatcher.Request::method)
                .containsExactly("DELETE");
        assertThat(podGroup("podgroup-1234")).isNotNull();
    }

    private void node(String name) {
        cluster.client()
                .resource(new io.fabric8.kubernetes.api.model.NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewStatus()
                        .addToAllocatable("nvidia.com/gpu", new io.fabric8.kubernetes.api.model.Quantity("4"))
                        .addToAllocatable("cpu", new io.fabric8.kubernetes.api.model.Quantity("64"))
                        .addToAllocatable("memory", new io.fabric8.kubernetes.api.model.Quantity("512Gi"))
                        .endStatus()
                        .build())
                .create();
    }

    private void hyperNode(String name, int tier, String tierName, boolean nodes, String... members) {
        var spec = new io.topobridge.volcano.model.HyperNodeSpec().tier(tier).tierName(tierName);
        for (String member : members) {
            spec.addMembersItem(new io.topobridge.volcano.model.MemberSpec()
                    .type(
                            nodes
                                    ? io.topobridge.volcano.model.MemberSpec.TypeEnum.NODE
                                    : io.topobridge.volcano.model.MemberSpec.TypeEnum.HYPER_NODE)
                    .selector(new io.topobridge.volcano.model.MemberSelector()
                            .exactMatch(new io.topobridge.volcano.model.ExactMatch().name(member))));
        }
        var hn = new io.topobridge.volcano.HyperNode();
        hn.setMetadata(new ObjectMetaBuilder().withName(name).build());
        hn.setSpec(spec);
        cluster.client().resource(hn).createOr(o -> o.update());
    }

    /** Nodes n1 to n4, two to an NVLink domain (nv-a, nv-b), both in rack-a. */
    private void fourNodesInTwoNvlinkDomainsOfRackA() {
        for (String n : List.of("n1", "n2", "n3", "n4")) {
            node(n);
        }
        hyperNode("nv-a", 1, "nvlink", true, "n1", "n2");
        hyperNode("nv-b", 1, "nvlink", true, "n3", "n4");
        hyperNode("rack-a", 2, "rack", false, "nv-a", "nv-b");
    }

    private String chosenTier() {
        PodGroup pg = podGroup("tb-deploy-vllm");
        return pg == null || pg.getMetadata().getAnnotations() == null
                ? null
                : pg.getMetadata().getAnnotations().get("topobridge.io/chosen-tier");
    }

    @Test
    void anAutoTierFollowsTheTopologyWithOneWriteAndAResyncWritesNothing() {
        fourNodesInTwoNvlinkDomainsOfRackA();
        hyperNode("spine", 3, "spine", false, "rack-a");
        startController(Wiring.DEFAULTS);
        // 6 pods of 2 GPUs: 12 GPUs, more than a partition of 8
        apply(deployment(6, "topobridge.io/highest-tier: auto", "team: a"));
        await().atMost(WAIT).until(() -> chosenTier() != null);
        settle();
        assertThat(chosenTier())
                .isEqualTo("2 (rack): 12 GPUs fit in 1 of 1 rack domains; 1 (nvlink) holds at most 8 GPUs");
        assertThat(podGroup("tb-deploy-vllm").getSpec().getNetworkTopology().getHighestTierAllowed())
                .isEqualTo(2);
        assertThat(podGroup("tb-deploy-vllm")
                        .getSpec()
                        .getNetworkTopology()
                        .getMode()
                        .value())
                .isEqualTo("hard");
        RecordingDispatcher.of(cluster).clearLog();

        // a rack added, part by part as the topology controller would write it
        for (String n : List.of("n5", "n6", "n7", "n8")) {
            node(n);
        }
        hyperNode("nv-c", 1, "nvlink", true, "n5", "n6");
        hyperNode("nv-d", 1, "nvlink", true, "n7", "n8");
        hyperNode("rack-b", 2, "rack", false, "nv-c", "nv-d");
        hyperNode("spine", 3, "spine", false, "rack-a", "rack-b");
        await().atMost(WAIT)
                .until(() -> ("2 (rack): 12 GPUs fit in 2 of 2 rack domains; 1 (nvlink) holds at most 8" + " GPUs")
                        .equals(chosenTier()));
        settle();
        assertThat(podGroupWrites())
                .as("the rack added changes the sentence: one write")
                .hasSize(1);

        twoResyncsWriteNothing();
    }

    private static String hpa(int maxReplicas) {
        return """
                apiVersion: autoscaling/v2
                kind: HorizontalPodAutoscaler
                metadata: {name: vllm-hpa, namespace: llm}
                spec:
                  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: vllm}
                  minReplicas: 1
                  maxReplicas: %d
                  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]
                """.formatted(maxReplicas);
    }

    /** A decode Deployment of llm-d's shape: every GPU claimed through the ResourceClaimTemplate it names. */
    private static final String DRA_DECODE = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: vllm
              namespace: llm
              annotations: {topobridge.io/highest-tier: auto}
            spec:
              replicas: 3
              strategy: {rollingUpdate: {maxUnavailable: 1}}
              selector: {matchLabels: {app: vllm}}
              template:
                metadata: {labels: {app: vllm}}
                spec:
                  resourceClaims:
                  - {name: gpus, resourceClaimTemplateName: decode-gpus}
                  containers:
                  - name: vllm
                    image: vllm/vllm-openai:v0.9.0
                    resources:
                      requests: {cpu: "4", memory: 32Gi}
                      claims: [{name: gpus}]
            """;

    private static String claimTemplate(String deviceClass, int count) {
        return DraClaims.template("decode-gpus", "llm", "gpus", deviceClass, count);
    }

    @Test
    void gpusClaimedThroughDraSizeTheAutoTierOnceTheirTemplateIsCachedAndAnUnmappedClassIsAFinding() {
        fourNodesInTwoNvlinkDomainsOfRackA();
        startController(Wiring.DEFAULTS);
        await().atMost(WAIT).until(() -> wiring.lookup.resourceClaimsUnknown() == null);
        // the template comes after its Deployment: the gang is sized again when it is cached
        apply(DRA_DECODE);
        await().atMost(WAIT).until(() -> chosenTier() != null);
        settle();
        assertThat(wiring.findings.of(WorkloadController.SOURCE))
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.reason()).isEqualTo(WorkloadReason.DRA_DEVICES_NOT_COUNTED);
                    assertThat(f.message())
                            .contains("claim \"gpus\" (ResourceClaimTemplate \"decode-gpus\"): no such"
                                    + " ResourceClaimTemplate in namespace llm");
                });
        assertThat(chosenTier()).startsWith("1 (nvlink): 12 CPUs and 96Gi memory fit");

        apply(claimTemplate("gpu.nvidia.com", 4));
        // 3 pods of 4 claimed GPUs: 12, more than an NVLink domain's 8
        await().atMost(WAIT)
                .until(() -> "2 (rack): 12 GPUs fit in 1 of 1 rack domains; 1 (nvlink) holds at most 8 GPUs"
                        .equals(chosenTier()));
        settle();
        PodGroup pg = podGroup("tb-deploy-vllm");
        assertThat(pg.getSpec().getNetworkTopology().getHighestTierAllowed()).isEqualTo(2);
        assertThat(pg.getMetadata().getAnnotations()).containsEntry("topobridge.io/dra-devices", "nvidia.com/gpu=12");
        assertThat(pg.getSpec().getMinResources())
                .as("the claimed GPUs are not reserved in minResources")
                .containsOnlyKeys("cpu", "memory");
        assertThat(wiring.findings.of(WorkloadController.SOURCE)).isEmpty();
        twoResyncsWriteNothing();

        // MIG slices are no whole GPUs: not counted, said once for the gang, the PodGroup kept
        cluster.client()
                .resources(io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate.class)
                .inNamespace(NS)
                .withName("decode-gpus")
                .delete();
        apply(claimTemplate("mig.nvidia.com", 4));
        onlyFindingOnceSettled().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.DRA_DEVICES_NOT_COUNTED);
            assertThat(f.message())
                    .contains("device class \"mig.nvidia.com\"): the device class is not mapped to a resource")
                    .contains("topobridge.workloads.dra-device-classes");
        });
        assertThat(podGroup("tb-deploy-vllm")).isNotNull();
        assertThat(podGroup("tb-deploy-vllm").getMetadata().getAnnotations())
                .doesNotContainKey("topobridge.io/dra-devices");
    }

    @Test
    void anHpaThatMayGrowAHardGangPastItsLargestDomainIsAWarningThatGoesWhenItsMaximumFits() {
        fourNodesInTwoNvlinkDomainsOfRackA();
        startController(Wiring.DEFAULTS);
        // 2 pods of 2 GPUs held hard to an NVLink partition (8 GPUs): fits now
        apply(deployment(2, "topobridge.io/highest-tier: nvlink", "team: a"));
        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm") != null);
        settle();
        assertThat(wiring.findings.of(WorkloadController.SOURCE)).isEmpty();
        RecordingDispatcher.of(cluster).clearLog();

        // an HPA that may take it to 6 pods: 12 GPUs, more than any partition holds
        apply(hpa(6));
        onlyFindingOnceSettled().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.AUTOSCALER_EXCEEDS_DOMAIN);
            assertThat(f.object().kind()).isEqualTo("Deployment");
            assertThat(f.message())
                    .contains("HorizontalPodAutoscaler vllm-hpa may scale Deployment vllm to 6 replicas"
                            + " (maxReplicas; 2 now)")
                    .contains("would then need 12 GPUs")
                    .contains("hard tier 1 (nvlink)")
                    .contains("has 8 GPUs, room for 4 replicas");
        });
        assertThat(podGroupWrites()).as("a warning, the PodGroup as it was").isEmpty();

        // a maximum that fits: the warning goes, still without a write
        apply(hpa(4));
        await().atMost(WAIT)
                .until(() -> wiring.findings.of(WorkloadController.SOURCE).isEmpty());
        settle();
        assertThat(podGroupWrites()).isEmpty();
    }

    @Test
    void aHardGangNoDomainOfItsTierHoldsGetsNoPodGroupWhileTheClusterIsStillBeingListed() throws InterruptedException {
        fourNodesInTwoNvlinkDomainsOfRackA();
        // 6 pods of 2 GPUs held hard to an NVLink partition (8 GPUs): no partition holds the gang
        apply(deployment(6, "topobridge.io/highest-tier: nvlink", "team: a"));
        wiring = new Wiring(cluster.client(), registry, Fixtures.TIERS, Wiring.DEFAULTS);
        // the tiers are known, the nodes, pods and HyperNodes still being listed (as at start-up in a large cluster)
        wiring.listing = true;
        wiring.controller.start();
        await().atMost(WAIT).until(wiring.lookup::synced);
        Thread.sleep(1000);
        assertThat(podGroup("tb-deploy-vllm"))
                .as("no PodGroup made on half a picture")
                .isNull();
        assertThat(wiring.controller.ready()).isFalse();

        wiring.listing = false;
        await().atMost(WAIT).until(wiring.controller::ready);
        settle();
        assertThat(podGroup("tb-deploy-vllm")).isNull();
        assertThat(wiring.findings.of(WorkloadController.SOURCE))
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.reason()).isEqualTo(WorkloadReason.GANG_EXCEEDS_DOMAIN);
                    assertThat(f.isRejection()).isTrue();
                    assertThat(f.message()).contains("needs 12 GPUs").contains("hard tier 1 (nvlink)");
                });
        assertThat(podGroupWrites()).isEmpty();
    }

    /** Four nodes with 1 of 4 GPUs free each, HyperNodes over them, and the controller waiting {@code wait}. */
    private void startWithoutRoom(Duration wait) {
        for (String n : List.of("n1", "n2", "n3", "n4")) {
            node(n);
            // 3 of the node's 4 GPUs taken: no NVLink partition (two nodes) has room for 4 GPUs
            cluster.client().resource(Fixtures.pod("""
                            apiVersion: v1
                            kind: Pod
                            metadata: {name: busy-%s, namespace: other}
                            spec:
                              nodeName: %s
                              containers:
                              - name: c
                                image: busy
                                resources: {requests: {nvidia.com/gpu: "3"}, limits: {nvidia.com/gpu: "3"}}
                            status: {phase: Running}
                            """.formatted(n, n))).create();
        }
        hyperNode("nv-a", 1, "nvlink", true, "n1", "n2");
        hyperNode("nv-b", 1, "nvlink", true, "n3", "n4");
        hyperNode("rack-a", 2, "rack", false, "nv-a", "nv-b");
        hyperNode("spine", 3, "spine", false, "rack-a");
        startControllerWith(Fixtures.settings().autoWaitForRoom(wait).build());
        RecordingDispatcher.of(cluster).clearLog();
    }

    private io.topobridge.volcano.model.NetworkTopologySpec.ModeEnum mode() {
        return podGroup("tb-deploy-vllm").getSpec().getNetworkTopology().getMode();
    }

    @Test
    void anAutoGangWithoutRoomTurnsSoftWhenTheWaitIsOverWithNoEventToWakeIt() {
        startWithoutRoom(Duration.ofSeconds(3));
        apply(deployment(2, "topobridge.io/highest-tier: auto", "team: a"));
        await().atMost(WAIT).until(() -> chosenTier() != null);
        long fullPasses = wiring.fullPasses();
        // nothing changes in the cluster and no resync is asked for: the controller's own requeue turns it soft
        await().atMost(WAIT).until(() -> mode() == SOFT);
        assertThat(wiring.fullPasses()).as("no full pass woke it").isEqualTo(fullPasses);
        settle();
        assertThat(podGroupWrites())
                .as("the create, then the mode when the wait is over")
                .hasSize(2);
    }

    @Test
    void aRestartBeforeTheHyperNodesAreReadKeepsThePlacedGangsAchievedTierAndWritesNothing() {
        for (String n : List.of("n1", "n2")) {
            node(n);
        }
        hyperNode("nv-a", 1, "nvlink", true, "n1", "n2");
        hyperNode("rack-a", 2, "rack", false, "nv-a");
        hyperNode("spine", 3, "spine", false, "rack-a");
        startController(Wiring.DEFAULTS);
        apply(deployment(2, "topobridge.io/highest-tier: rack", "team: a"));
        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm") != null);
        for (String n : List.of("n1", "n2")) {
            cluster.client().resource(Fixtures.pod("""
                            apiVersion: v1
                            kind: Pod
                            metadata:
                              name: vllm-%s
                              namespace: llm
                              annotations: {scheduling.k8s.io/group-name: tb-deploy-vllm}
                            spec:
                              nodeName: %s
                              schedulerName: volcano
                              containers:
                              - name: c
                                image: vllm
                                resources: {limits: {nvidia.com/gpu: "2"}}
                            status: {phase: Running}
                            """.formatted(n, n))).create();
        }
        await().atMost(WAIT)
                .until(() -> "1"
                        .equals(podGroup("tb-deploy-vllm")
                                .getMetadata()
                                .getAnnotations()
                                .get("topobridge.io/achieved-tier")));
        settle();
        wiring.controller.stop();
        wiring.lookup.stop();
        wiring.view.stop();
        wiring.nodes.stop();

        // restarted, and the HyperNode CRD not seen yet (as while its list is still coming in a large cluster)
        KindRegistry unseen =
                TestClusters.registryWith(cluster, "podgroups.scheduling.volcano.sh", "queues.scheduling.volcano.sh");
        wiring = new Wiring(cluster.client(), unseen, Fixtures.TIERS, Wiring.DEFAULTS);
        RecordingDispatcher.of(cluster).clearLog();
        wiring.controller.start();
        await().atMost(WAIT).until(wiring.controller::ready);
        settle();
        assertThat(podGroupWrites())
                .as("no \"none\" for a gang whose HyperNodes are not read yet")
                .isEmpty();

        TestClusters.seen(cluster, unseen, "hypernodes.topology.volcano.sh");
        await().atMost(WAIT).until(wiring.view::placementKnown);
        settle();
        resyncAndSettle();
        assertThat(podGroupWrites())
                .as("the same tier once they are read: nothing to write")
                .isEmpty();
        assertThat(podGroup("tb-deploy-vllm").getMetadata().getAnnotations())
                .containsEntry("topobridge.io/achieved-tier", "1");
    }

    @Test
    void adoptedPodGroupGetsOnlyTheTopologyFieldsAndGetsThemBackOnRelease() {
        TestClusters.installCrd(cluster, registry, "rolesets.orchestration.aibrix.ai");
        startController(Wiring.DEFAULTS);
        // AIBrix's volcanoSchedulingStrategy: its controller makes PodGroup <roleset> with its own fields
        var aibrix = new PodGroup();
        aibrix.setMetadata(new ObjectMetaBuilder()
                .withName("pd-roleset-x7k2p")
                .withNamespace(NS)
                .withLabels(Map.of("roleset-name", "pd-roleset-x7k2p"))
                .build());
        aibrix.setSpec(new PodGroupSpec().minMember(3).queue("default").putMinResourcesItem("nvidia.com/gpu", "3"));
        cluster.client().resource(aibrix).create();
        RecordingDispatcher.of(cluster).clearLog();
        String roleSet = """
                apiVersion: orchestration.aibrix.ai/v1alpha1
                kind: RoleSet
                metadata:
                  name: pd-roleset-x7k2p
                  namespace: llm
                  annotations: {%s}
                spec:
                  schedulingStrategy: {volcanoSchedulingStrategy: {minMember: 3}}
                  roles:
                  - {name: prefill, replicas: 2, template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}}
                  - {name: decode, replicas: 1, template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}}
                """;
        apply(roleSet.formatted("topobridge.io/highest-tier: \"1\""));
        await().atMost(WAIT).until(() -> podGroup("pd-roleset-x7k2p").getSpec().getNetworkTopology() != null);
        settle();
        assertThat(podGroupWrites())
                .hasSize(1)
                .allSatisfy(w -> assertThat(w.isApply()).isTrue());
        PodGroup merged = podGroup("pd-roleset-x7k2p");
        assertThat(merged.getMetadata().getManagedFields())
                .extracting(ManagedFieldsEntry::getManager)
                .contains("topobridge");
        assertThat(merged.getSpec().getMinMember()).isEqualTo(3);
        assertThat(merged.getSpec().getMinResources()).containsEntry("nvidia.com/gpu", "3");
        assertThat(merged.getSpec().getNetworkTopology().getHighestTierAllowed())
                .isEqualTo(1);
        assertThat(merged.getSpec().getSubGroupPolicy())
                .extracting(p -> p.getName())
                .containsExactly("prefill", "decode");
        assertThat(merged.getMetadata().getLabels()).doesNotContainKey("app.kubernetes.io/managed-by");
        assertThat(VolcanoSchemas.podGroups().violations(merged)).isEmpty();

        RecordingDispatcher.of(cluster).clearLog();
        resyncAndSettle();
        assertThat(podGroupWrites()).isEmpty();

        apply(roleSet.formatted(""));
        await().atMost(WAIT).until(() -> podGroup("pd-roleset-x7k2p").getSpec().getNetworkTopology() == null);
        settle();
        assertThat(podGroupWrites())
                .as("released once, never deleted")
                .hasSize(1)
                .allSatisfy(w -> assertThat(w.isApply()).isTrue());
        PodGroup released = podGroup("pd-roleset-x7k2p");
        assertThat(released.getSpec().getSubGroupPolicy()).isNull();
        assertThat(released.getSpec().getMinMember()).isEqualTo(3);
    }

    @Test
    void aWorkloadInANamespaceThatDidNotOptInGetsAWarningAndNoPodGroup() {
        startController(Wiring.options(true, Duration.ZERO));
        apply(deployment(2, "topobridge.io/highest-tier: nvlink", ""));
        await().atMost(WAIT)
                .until(() -> !wiring.findings.of(WorkloadController.SOURCE).isEmpty());
        settle();
        assertThat(podGroup("tb-deploy-vllm")).isNull();
        assertThat(wiring.findings.of(WorkloadController.SOURCE))
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.reason()).isEqualTo(WorkloadReason.NAMESPACE_NOT_OPTED_IN);
                    assertThat(f.message()).contains("namespace llm does not carry topobridge.io/enabled=true");
                });

        // labelling the namespace opts it in: the PodGroup comes and the warning goes
        cluster.client().namespaces().withName(NS).edit(n -> {
            n.getMetadata().setLabels(Map.of("topobridge.io/enabled", "true"));
            return n;
        });
        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm") != null);
        settle();
        assertThat(wiring.findings.of(WorkloadController.SOURCE)).isEmpty();
    }

    @Test
    void noTiersUnknownEventBeforeTheFirstTopologyPass() {
        // the workload controller comes up before the topology controller's first pass: no tier is known yet
        wiring = new Wiring(cluster.client(), registry, io.topobridge.core.topology.TierCatalog.EMPTY, Wiring.DEFAULTS);
        wiring.settled = false;
        apply(deployment(2, "topobridge.io/highest-tier: nvlink", ""));
        wiring.controller.start();
        await().atMost(WAIT).until(wiring.controller::ready);
        settle();
        resyncAndSettle();
        assertThat(wiring.findings.of(WorkloadController.SOURCE)).isEmpty();
        assertThat(cluster.client().v1().events().inNamespace(NS).list().getItems())
                .isEmpty();
        assertThat(podGroup("tb-deploy-vllm")).isNull();

        // the first pass brings the tiers: the PodGroup comes, and never an Event said the tiers were unknown
        wiring.tiers(Fixtures.TIERS);
        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm") != null);
        settle();
        assertThat(cluster.client().v1().events().inNamespace(NS).list().getItems())
                .isEmpty();
    }

    @Test
    void tiersStillUnknownAfterTheFirstPassAreReported() {
        // the topology has been built and no labelled node gave a tier: naming one is news now
        wiring = new Wiring(cluster.client(), registry, io.topobridge.core.topology.TierCatalog.EMPTY, Wiring.DEFAULTS);
        apply(deployment(2, "topobridge.io/highest-tier: nvlink", ""));
        wiring.controller.start();
        await().atMost(WAIT)
                .until(() -> !wiring.findings.of(WorkloadController.SOURCE).isEmpty());
        assertThat(wiring.findings.of(WorkloadController.SOURCE))
                .singleElement()
                .satisfies(f -> assertThat(f.reason()).isEqualTo(WorkloadReason.TIERS_UNKNOWN));
    }

    @Test
    void invalidAnnotationGivesOneWarningEventAndNoPodGroup() {
        startController(Wiring.DEFAULTS);
        apply(deployment(2, "topobridge.io/highest-tier: leaf", ""));
        await().atMost(WAIT)
                .until(() -> !wiring.findings.of(WorkloadController.SOURCE).isEmpty());
        settle();
        resyncAndSettle();
        resyncAndSettle();
        assertThat(podGroupWrites()).isEmpty();
        List<Finding> current = wiring.findings.of(WorkloadController.SOURCE);
        assertThat(current).singleElement().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.INVALID_ANNOTATION);
            assertThat(f.message()).contains("Deployment/llm/vllm").contains("topobridge.io/highest-tier=\"leaf\"");
        });
        assertThat(RecordingDispatcher.of(cluster).writes("/namespaces/llm/events"))
                .as("one event, not one per pass")
                .hasSize(1);
        var events = cluster.client().v1().events().inNamespace(NS).list().getItems();
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("InvalidAnnotation");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("vllm");
        });

        // fixing it resolves the finding and creates the PodGroup
        apply(deployment(2, "topobridge.io/highest-tier: nvlink", ""));
        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm") != null);
        settle();
        assertThat(wiring.findings.of(WorkloadController.SOURCE)).isEmpty();
    }

    @Test
    void aBurstOfWorkloadsGetsNoMorePodGroupsThanTheNamespacesLimit() {
        startControllerWith(Fixtures.settings(
                "default", io.topobridge.core.workload.WorkloadSettings.UnlistedQueues.DEFAULT_ONLY, 3, 1));
        RecordingDispatcher.of(cluster).clearLog();
        cluster.client()
                .namespaces()
                .withName(NS)
                .edit(n -> new NamespaceBuilder(n)
                        .editMetadata()
                        .addToLabels("topobridge.io/enabled", "true")
                        .endMetadata()
                        .build());

        // six gangs within one debounce window: the PodGroups created a moment ago count before the cache shows them
        for (int i = 0; i < 6; i++) {
            apply(deployment(1, "topobridge.io/highest-tier: \"1\"", "").replace("vllm", "vllm-" + i));
        }
        await().atMost(WAIT)
                .until(() -> wiring.findings.of(WorkloadController.SOURCE).size() == 3);
        settle();
        assertThat(podGroups()).hasSize(3);
        assertThat(podGroupWrites()).hasSize(3);
        assertThat(wiring.findings.of(WorkloadController.SOURCE)).allSatisfy(f -> {
            assertThat(f.reason()).isEqualTo(WorkloadReason.POD_GROUP_LIMIT_REACHED);
            assertThat(f.message()).contains("namespace llm holds 3 PodGroups of the bridge");
        });
        resyncAndSettle();
        assertThat(podGroupWrites())
                .as("a resync with nothing changed writes nothing")
                .hasSize(3);

        // one gang goes: one waiting gang gets its PodGroup
        String made = podGroups().get(0).getMetadata().getName();
        cluster.client()
                .apps()
                .deployments()
                .inNamespace(NS)
                .withName(made.substring("tb-deploy-".length()))
                .edit(d -> new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder(d)
                        .editMetadata()
                        .withAnnotations(Map.of())
                        .endMetadata()
                        .build());
        await().atMost(WAIT)
                .until(() -> wiring.findings.of(WorkloadController.SOURCE).size() == 2);
        settle();
        assertThat(podGroups())
                .hasSize(3)
                .noneMatch(pg -> pg.getMetadata().getName().equals(made));
    }

    @Test
    void missingOrClosedQueueIsReportedInsteadOfRetried() {
        var queue = ClusterObjects.queue("research");
        cluster.client().resource(queue).create();
        queue = cluster.client().resources(Queue.class).withName("research").get();
        queue.setStatus(new QueueStatus().state("Closed"));
        cluster.client().resource(queue).updateStatus();
        // the namespace lets its workloads use any queue: what is judged here is the queue's state
        cluster.client()
                .namespaces()
                .withName(NS)
                .edit(n -> new NamespaceBuilder(n)
                        .editMetadata()
                        .addToAnnotations("topobridge.io/allowed-queues", "*")
                        .endMetadata()
                        .build());
        startController(Wiring.DEFAULTS);

        apply(deployment(1, "topobridge.io/highest-tier: \"1\", topobridge.io/queue: research", ""));
        apply(deployment(1, "topobridge.io/highest-tier: \"1\", topobridge.io/queue: nowhere", "")
                .replace("name: vllm", "name: lost"));
        await().atMost(WAIT)
                .until(() -> wiring.findings.of(WorkloadController.SOURCE).size() == 2);
        settle();
        assertThat(wiring.findings.of(WorkloadController.SOURCE))
                .extracting(f -> f.reason().reason() + " " + f.object().name())
                .containsExactly("QueueMissing lost", "QueueNotOpen vllm");
        assertThat(wiring.findings.of(WorkloadController.SOURCE).get(1).message())
                .contains("queue \"research\" of PodGroup tb-deploy-vllm is Closed");
        resyncAndSettle();
        assertThat(podGroupWrites()).isEmpty();

        queue = cluster.client().resources(Queue.class).withName("research").get();
        queue.setStatus(new QueueStatus().state("Open"));
        cluster.client().resource(queue).updateStatus();
        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm") != null);
        settle();
        assertThat(podGroupWrites()).hasSize(1);
        assertThat(wiring.findings.of(WorkloadController.SOURCE))
                .extracting(f -> f.reason().reason())
                .containsExactly("QueueMissing");
    }

    @Test
    void groupMembershipChangesMoveTheWorkloadBetweenGangs() {
        startController(Wiring.DEFAULTS);
        apply(GROUP_MEMBER.formatted("prefill", "topobridge.io/group: pd, topobridge.io/highest-tier: \"2\"", 3));
        apply(GROUP_MEMBER.formatted("decode", "topobridge.io/group: pd", 1));
        await().atMost(WAIT)
                .until(() -> podGroup("tb-group-pd") != null
                        && podGroup("tb-group-pd").getSpec().getMinMember() == 4);
        settle();
        assertThat(podGroup("tb-group-pd").getMetadata().getOwnerReferences()).hasSize(2);

        RecordingDispatcher.of(cluster).clearLog();
        apply(GROUP_MEMBER.formatted("decode", "topobridge.io/highest-tier: \"1\"", 1));
        await().atMost(WAIT)
                .until(() -> podGroup("tb-deploy-decode") != null
                        && podGroup("tb-group-pd").getSpec().getMinMember() == 3);
        settle();
        assertThat(podGroupWrites())
                .as("the group shrinks once, the leaver gets its own")
                .hasSize(2);
        assertThat(podGroup("tb-group-pd").getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(o -> assertThat(o.getName()).isEqualTo("prefill"));
    }

    @Test
    void kindInstalledLaterIsPickedUpAndNamespaceOptInIsHonoured() {
        startController(Wiring.options(true, Duration.ZERO));
        TestClusters.installCrd(cluster, registry, "leaderworkersets.leaderworkerset.x-k8s.io");
        var lws = new GenericKubernetesResource();
        lws.setApiVersion("leaderworkerset.x-k8s.io/v1");
        lws.setKind("LeaderWorkerSet");
        lws.setMetadata(new ObjectMetaBuilder()
                .withName("big")
                .withNamespace(NS)
                .withAnnotations(Map.of("topobridge.io/highest-tier", "2"))
                .build());
        lws.setAdditionalProperty(
                "spec",
                Map.of(
                        "replicas",
                        2,
                        "leaderWorkerTemplate",
                        Map.of(
                                "size",
                                2,
                                "workerTemplate",
                                Map.of("spec", Map.of("containers", List.of(Map.of("name", "c", "image", "x")))))));
        cluster.client().resource(lws).create();
        await().atMost(WAIT)
                .until(() -> wiring.lookup
                        .get(io.topobridge.core.workload.WorkloadKind.LEADER_WORKER_SET, NS, "big")
                        .isPresent());
        settle();
        assertThat(podGroupWrites()).as("namespace not opted in").isEmpty();

        cluster.client().namespaces().withName(NS).edit(n -> {
            n.getMetadata().setLabels(Map.of("topobridge.io/enabled", "true"));
            return n;
        });
        await().atMost(WAIT).until(() -> podGroup("tb-lws-big-0") != null && podGroup("tb-lws-big-1") != null);
        settle();
        assertThat(podGroupWrites()).hasSize(2);
    }

    @Test
    void refusalByTheApiServerBecomesAFindingNotARetryLoop() {
        var refusing =
                new io.topobridge.apply.Applier(
                        cluster.client(), new SimpleMeterRegistry(), new io.topobridge.apply.RecentObjects()) {
                    @Override
                    public <T extends HasMetadata> Outcome apply(T desired, T current) {
                        var status = new io.fabric8.kubernetes.api.model.StatusBuilder()
                                .withCode(403)
                                .withMessage("admission webhook \"validatepodgroup.volcano.sh\" denied the request")
                                .build();
                        throw new io.fabric8.kubernetes.client.KubernetesClientException(status);
                    }
                };
        wiring = new Wiring(cluster.client(), registry, Fixtures.TIERS, Wiring.DEFAULTS, refusing);
        wiring.controller.start();
        await().atMost(WAIT).until(wiring.controller::ready);
        apply(deployment(1, "topobridge.io/highest-tier: \"2\"", ""));
        await().atMost(WAIT)
                .until(() -> !wiring.findings.of(WorkloadController.SOURCE).isEmpty());
        settle();
        long passes = wiring.passes();
        settle();
        assertThat(wiring.passes()).as("no retry loop").isEqualTo(passes);
        assertThat(wiring.findings.of(WorkloadController.SOURCE))
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.reason()).isEqualTo(WorkloadReason.APPLY_REFUSED);
                    assertThat(f.message())
                            .contains("tb-deploy-vllm")
                            .contains("HTTP 403")
                            .contains("denied the request");
                });
    }

    @Test
    void aRefusedEditKeepsThePodGroupItHad() {
        startController(Wiring.DEFAULTS);
        apply(deployment(2, "topobridge.io/highest-tier: rack", ""));
        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm") != null);
        settle();
        RecordingDispatcher.of(cluster).clearLog();

        apply(deployment(3, "topobridge.io/highest-tier: rackk", ""));
        await().atMost(WAIT)
                .until(() -> !wiring.findings.of(WorkloadController.SOURCE).isEmpty());
        settle();
        assertThat(podGroupWrites()).as("nothing applied, nothing deleted").isEmpty();
        assertThat(podGroup("tb-deploy-vllm").getSpec().getMinMember()).isEqualTo(2);
        // pods created meanwhile still join the kept PodGroup
        var pod = Fixtures.pod("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: vllm-abc12-x
                  namespace: llm
                  labels: {pod-template-hash: abc12}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: vllm-abc12, uid: r, controller: true}]
                """);
        assertThat(Fixtures.translator(io.topobridge.core.workload.Fixtures.defaultSettings())
                        .tie(pod, Fixtures.TIERS, wiring.lookup)
                        .assigned()
                        .map(a -> a.podGroupName()))
                .contains("tb-deploy-vllm");

        apply(deployment(3, "topobridge.io/highest-tier: rack", ""));
        await().atMost(WAIT).until(() -> podGroup("tb-deploy-vllm").getSpec().getMinMember() == 3);
        settle();
        assertThat(podGroupWrites()).hasSize(1);
        assertThat(wiring.findings.of(WorkloadController.SOURCE)).isEmpty();
    }
}

package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Gangs whose workload controller creates pods in steps (StatefulSet OrderedReady, LWS LeaderReady, LWS rollouts
 * with surge) on the real cluster: every pod ends up running, because the bridge's PodGroups only ever wait for
 * pods that exist (FIDELITY-REVIEW H1–H4: each was a gang that never started).
 */
@ExtendWith(RealClusterExtension.class)
class StartupOrderE2E {

    private static final String NS = "startup-e2e";

    /** One namespace for the class, emptied after each test ({@link TestNamespace#empty}). */
    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private static final Duration RUNNING = Duration.ofSeconds(150);

    private final RealCluster cluster;
    private KubernetesClient client;

    StartupOrderE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void namespace() {
        client = cluster.onExamples();
    }

    /** What a test made is gone before the next starts, as with a namespace of its own. */
    @AfterEach
    void workloadsGone() {
        NAMESPACE.empty(cluster);
    }

    private void create(String yaml) {
        for (HasMetadata object :
                client.load(new java.io.ByteArrayInputStream(yaml.getBytes())).items()) {
            object.getMetadata().setNamespace(NS);
            client.resource(object).create();
        }
    }

    private List<Pod> pods(String label, String value) {
        return client.pods().inNamespace(NS).withLabel(label, value).list().getItems();
    }

    private void awaitRunning(String what, String label, String value, int count) {
        cluster.waitFor(count + " pods of " + what + " running", RUNNING, () -> {
            List<Pod> pods = pods(label, value);
            return pods.size() == count
                    && pods.stream()
                            .allMatch(p -> "Running".equals(p.getStatus().getPhase()));
        });
    }

    private void assertWithinTier(List<Pod> pods, int tier, String what) {
        var nodes = pods.stream().map(p -> p.getSpec().getNodeName()).toList();
        assertThat(Placement.of(client).lowestCommon(nodes))
                .as(what + " on " + nodes)
                .hasValueSatisfying(d -> assertThat(d.tier()).isLessThanOrEqualTo(tier));
    }

    /** A pod template's spec asking for a whole 4-GPU tray, to be indented under its template. */
    private static final String GPU_POD = """
            spec:
              schedulerName: volcano
              containers:
              - name: c
                image: x
                resources: {limits: {nvidia.com/gpu: "4"}, requests: {cpu: "1"}}
            """;

    @Test
    void orderedReadyStatefulSetStartsPodByPodWithinItsTier() {
        create("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: db
                  annotations: {topobridge.io/highest-tier: nvlink}
                spec:
                  replicas: 3
                  serviceName: db
                  selector: {matchLabels: {app: db}}
                  template:
                    metadata: {labels: {app: db}}
                """ + GPU_POD.indent(4));
        awaitRunning("StatefulSet db", "app", "db", 3);
        assertWithinTier(pods("app", "db"), 1, "db");
    }

    @Test
    void leaderReadyLeaderWorkerSetWithSubGroupsStarts() {
        create("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: lr
                  annotations: {topobridge.io/highest-tier: nvlink}
                spec:
                  replicas: 1
                  startupPolicy: LeaderReady
                  leaderWorkerTemplate:
                    size: 4
                    subGroupPolicy: {subGroupSize: 2}
                    workerTemplate:
                      metadata: {labels: {app: lr}}
                """ + GPU_POD.indent(6));
        awaitRunning("LWS lr", "leaderworkerset.sigs.k8s.io/name", "lr", 4);
        assertWithinTier(pods("leaderworkerset.sigs.k8s.io/name", "lr"), 1, "lr");
    }

    @Test
    void leaderReadyRoleOfADisaggregatedSetStarts() {
        create("""
                apiVersion: disaggregatedset.x-k8s.io/v1
                kind: DisaggregatedSet
                metadata:
                  name: pd
                  annotations: {topobridge.io/highest-tier: leaf}
                spec:
                  roles:
                  - name: prefill
                    spec:
                      replicas: 2
                      leaderWorkerTemplate:
                        size: 1
                        workerTemplate:
                """ + GPU_POD.indent(10) + """
                  - name: decode
                    spec:
                      replicas: 1
                      startupPolicy: LeaderReady
                      leaderWorkerTemplate:
                        size: 3
                        workerTemplate:
                """ + GPU_POD.indent(10));
        awaitRunning("DisaggregatedSet pd", "disaggregatedset.x-k8s.io/name", "pd", 5);
        assertWithinTier(pods("disaggregatedset.x-k8s.io/name", "pd"), 3, "pd");
    }

    @Test
    void leaderReadyLeaderWorkerSetInAGroupStarts() {
        create("""
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: router
                  annotations: {topobridge.io/group: pair, topobridge.io/highest-tier: leaf}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: router}}
                  template:
                    metadata: {labels: {app: router}}
                """ + GPU_POD.indent(4) + """
                ---
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: engine
                  annotations: {topobridge.io/group: pair}
                spec:
                  replicas: 1
                  startupPolicy: LeaderReady
                  leaderWorkerTemplate:
                    size: 3
                    workerTemplate:
                """ + GPU_POD.indent(6));
        awaitRunning("LWS engine", "leaderworkerset.sigs.k8s.io/name", "engine", 3);
        awaitRunning("Deployment router", "app", "router", 1);
    }

    @Test
    void surgeGroupsOfAnLwsRolloutArePlacedAndTheRolloutCompletes() {
        create("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: surge
                  annotations: {topobridge.io/highest-tier: nvlink}
                spec:
                  replicas: 2
                  rolloutStrategy:
                    type: RollingUpdate
                    rollingUpdateConfiguration: {maxSurge: 1, maxUnavailable: 0}
                  leaderWorkerTemplate:
                    size: 2
                    workerTemplate:
                      metadata: {labels: {app: surge, version: one}}
                """ + GPU_POD.indent(6));
        awaitRunning("LWS surge", "leaderworkerset.sigs.k8s.io/name", "surge", 4);
        // a merge patch of the one label: the LWS controller writes the object too, so a read-modify-PUT can meet a 409
        client.genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
                .inNamespace(NS)
                .withName("surge")
                .patch(
                        io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                        "{\"spec\":{\"leaderWorkerTemplate\":{\"workerTemplate\":{\"metadata\":{\"labels\":"
                                + "{\"version\":\"two\"}}}}}}");
        // every group rolls to the new template, through a surge group that must be placed first
        cluster.waitFor("the rollout to version two", RUNNING, () -> {
            List<Pod> pods = pods("leaderworkerset.sigs.k8s.io/name", "surge");
            return pods.size() == 4
                    && pods.stream()
                            .allMatch(p ->
                                    "two".equals(p.getMetadata().getLabels().get("version"))
                                            && "Running".equals(p.getStatus().getPhase()));
        });
    }
}

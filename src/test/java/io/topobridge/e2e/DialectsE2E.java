package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The same LeaderWorkerSet written with the bridge's keys, with Kueue's, with KAI's and with LeaderWorkerSet's own
 * topology annotations, made into pods by the real LWS controller on the example GB200 cluster: each gets the same
 * PodGroup spec (minMember, minResources, networkTopology, subGroupPolicy) and Volcano binds its pods. A StatefulSet
 * with Kueue's slices gets its pods labelled with their slice at admission.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DialectsE2E {

    static final String NS = "dialects";

    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private static final Duration PLACED = Duration.ofSeconds(180);

    /** The example cluster's leaf switches and NVLink partitions, as the tiers read them. */
    private static final String LEAF = "fabric.topograph.run/tier-0";

    private static final String PARTITION = "nvidia.com/gpu.clique";

    private final RealCluster cluster;
    private KubernetesClient client;

    DialectsE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void exampleCluster() {
        client = cluster.onExamples();
    }

    /** The leader's and the workers' pod template: one GPU, the {@code template} annotations ({@code %4$s}). */
    private static final String POD = """
            metadata: {annotations: {%4$s}}
            spec:
              schedulerName: volcano
              containers: [{name: engine, image: registry.k8s.io/pause:3.10,
                            resources: {requests: {cpu: "2", memory: 8Gi}, limits: {nvidia.com/gpu: "1"}}}]
            """;

    /**
     * One LWS group of a leader and 3 workers of one GPU each, in LWS subgroups of 2: {@code metadata} annotations on
     * the LWS, {@code template} annotations on both pod templates.
     */
    private HasMetadata lws(String name, String metadata, String template) {
        return lws(name, "LeaderCreated", metadata, template);
    }

    private HasMetadata lws(String name, String startup, String metadata, String template) {
        return client.getKubernetesSerialization()
                .unmarshal(
                        ("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: %1$s
                  namespace: %2$s
                  annotations: {%3$s}
                spec:
                  replicas: 1
                  startupPolicy: %5$s
                  leaderWorkerTemplate:
                    size: 4
                    subGroupPolicy: {subGroupSize: 2}
                    leaderTemplate:
                """ + POD.indent(6) + "    workerTemplate:\n" + POD.indent(6))
                                .formatted(name, NS, metadata, template, startup),
                        HasMetadata.class);
    }

    /** What the bridge owns of a PodGroup's spec, as the API server stores it. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> ownedSpec(String name) {
        GenericKubernetesResource pg = PodGroups.await(cluster, client, NS, name);
        Map<String, Object> spec =
                (Map<String, Object>) pg.getAdditionalProperties().get("spec");
        Map<String, Object> out = new TreeMap<>();
        for (String field : List.of("minMember", "minResources", "networkTopology", "subGroupPolicy")) {
            out.put(field, spec.get(field));
        }
        return out;
    }

    @Test
    void theSameLeaderWorkerSetInEveryDialectGetsTheSamePodGroup() {
        Map<String, HasMetadata> written = new LinkedHashMap<>();
        written.put(
                "ours",
                lws("ours", "topobridge.io/highest-tier: leaf, topobridge.io/subgroup-highest-tier: nvlink", ""));
        written.put(
                "kueue",
                lws(
                        "kueue",
                        "",
                        "kueue.x-k8s.io/podset-required-topology: " + LEAF
                                + ", kueue.x-k8s.io/podset-slice-required-topology: " + PARTITION
                                + ", kueue.x-k8s.io/podset-slice-size: \"2\""));
        written.put(
                "kai",
                lws(
                        "kai",
                        "kai.scheduler/topology: cluster-topology, kai.scheduler/topology-required-placement: " + LEAF,
                        "kai.scheduler/segment-size: \"2\", kai.scheduler/segment-topology-required-placement: "
                                + PARTITION));
        // with exclusive placement LWS makes the workers once the leader is bound, so its gang starts with the
        // leader, as under LeaderReady: that is the bridge-annotated LWS it is compared with. Its
        // subgroup-exclusive-topology is left out here: LWS's anti-affinity then wants each subgroup alone in its
        // NVLink partition, and the example's leaves r01-r03 hold one partition each (a placement LWS's own affinity
        // refuses, whatever the PodGroup says; the unit tests read the key)
        written.put(
                "ours-leader-first", lws("ours-leader-first", "LeaderReady", "topobridge.io/highest-tier: leaf", ""));
        written.put("lws", lws("lws", "leaderworkerset.sigs.k8s.io/exclusive-topology: " + LEAF, ""));
        written.values().forEach(o -> client.resource(o).create());

        Map<String, Map<String, Object>> specs = new LinkedHashMap<>();
        written.keySet().forEach(name -> specs.put(name, ownedSpec("tb-lws-" + name + "-0")));
        specs.forEach((name, spec) -> System.out.printf("DIALECT %s PodGroup spec %s%n", name, spec));
        Map<String, Object> ours = specs.get("ours");
        assertThat(ours.get("networkTopology")).as("ours: " + ours).isNotNull();
        assertThat(ours.get("subGroupPolicy")).as("ours: " + ours).isNotNull();
        assertThat(specs.get("kueue")).as("kueue").isEqualTo(ours);
        assertThat(specs.get("kai")).as("kai").isEqualTo(ours);
        assertThat(specs.get("lws")).as("lws").isEqualTo(specs.get("ours-leader-first"));
        assertThat(specs.get("lws").get("networkTopology")).isEqualTo(ours.get("networkTopology"));
        assertThat(specs.get("lws").get("minResources")).isEqualTo(ours.get("minResources"));

        for (String name : written.keySet()) {
            List<Pod> pods = Placement.bound(cluster, client, NS, "tb-lws-" + name + "-0", 4, PLACED);
            Placement.Domain domain = Placement.of(client).holding(pods);
            assertThat(domain.tier()).as(name + " group in " + domain).isLessThanOrEqualTo(3);
        }
    }

    @Test
    void aStatefulSetWithKueueSlicesHasItsPodsLabelledWithTheirSlice() {
        client.resource(client.getKubernetesSerialization()
                        .unmarshal("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: sliced, namespace: %s}
                spec:
                  replicas: 4
                  podManagementPolicy: Parallel
                  selector: {matchLabels: {app: sliced}}
                  template:
                    metadata:
                      labels: {app: sliced}
                      annotations:
                        kueue.x-k8s.io/podset-required-topology: %s
                        kueue.x-k8s.io/podset-slice-required-topology: %s
                        kueue.x-k8s.io/podset-slice-size: "2"
                    spec:
                      schedulerName: volcano
                      containers: [{name: engine, image: registry.k8s.io/pause:3.10,
                                    resources: {requests: {cpu: "2", memory: 8Gi}, limits: {nvidia.com/gpu: "1"}}}]
                """.formatted(NS, LEAF, PARTITION), HasMetadata.class))
                .create();
        Map<String, Object> spec = ownedSpec("tb-sts-sliced");
        System.out.printf("DIALECT sliced StatefulSet PodGroup spec %s%n", spec);
        assertThat(String.valueOf(spec.get("subGroupPolicy"))).contains("topobridge.io/slice");
        List<Pod> pods = Placement.bound(cluster, client, NS, "tb-sts-sliced", 4, PLACED);
        Map<String, String> slices = new TreeMap<>();
        pods.forEach(p -> slices.put(
                p.getMetadata().getName(), p.getMetadata().getLabels().get("topobridge.io/slice")));
        assertThat(slices)
                .containsExactlyEntriesOf(
                        new TreeMap<>(Map.of("sliced-0", "0", "sliced-1", "0", "sliced-2", "1", "sliced-3", "1")));
        Placement.nodesBy(pods, p -> p.getMetadata().getLabels().get("topobridge.io/slice"))
                .forEach((slice, nodes) -> assertThat(Placement.of(client)
                                .holding(pods.stream()
                                        .filter(p -> slice.equals(
                                                p.getMetadata().getLabels().get("topobridge.io/slice")))
                                        .toList())
                                .tier())
                        .as("slice " + slice + " on " + nodes)
                        .isLessThanOrEqualTo(1));
    }
}

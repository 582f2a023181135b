package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The example workloads created as a user would, each made into pods by its own controller (the
 * Deployment/StatefulSet controllers, LeaderWorkerSet, AIBrix), tied to their gangs by the bridge's webhook and
 * bound by Volcano's scheduler: every pod of a gang lands inside one HyperNode at or below the tier the
 * workload asked for, and each subgroup inside one at or below its own.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlacementE2E {

    static final String NS = "inference";

    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private static final Duration PLACED = Duration.ofSeconds(120);

    private final RealCluster cluster;
    private KubernetesClient client;

    PlacementE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void exampleCluster() {
        client = cluster.onExamples();
    }

    /** The objects of an example file a user would apply (never the demo-only RoleSet stand-in). */
    static List<HasMetadata> load(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return KubernetesClientHolder.parse(in).stream()
                    .filter(o -> o.getMetadata().getOwnerReferences() == null
                            || o.getMetadata().getOwnerReferences().stream().allMatch(r -> r.getUid() != null))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void create(Path file) {
        for (HasMetadata object : load(file)) {
            client.resource(object).create();
        }
    }

    private List<Pod> awaitPlaced(String podGroup, int pods) {
        cluster.waitFor(pods + " pods of " + podGroup + " bound", PLACED, () -> {
            List<Pod> gang = Placement.gangPods(client, NS, podGroup);
            return gang.size() == pods && Placement.allBound(gang);
        });
        return Placement.gangPods(client, NS, podGroup);
    }

    private Map<String, Object> podGroupSpec(String name) {
        GenericKubernetesResource pg = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(NS)
                .withName(name)
                .get();
        assertThat(pg).as("PodGroup " + name).isNotNull();
        @SuppressWarnings("unchecked")
        Map<String, Object> spec =
                (Map<String, Object>) pg.getAdditionalProperties().get("spec");
        return spec;
    }

    @SuppressWarnings("unchecked")
    private int gangTier(String podGroup) {
        Map<String, Object> topology =
                (Map<String, Object>) podGroupSpec(podGroup).get("networkTopology");
        return ((Number) topology.get("highestTierAllowed")).intValue();
    }

    private void assertWithin(List<Pod> pods, int tier, String what) {
        Placement placement = Placement.of(client);
        List<String> nodes = pods.stream().map(p -> p.getSpec().getNodeName()).toList();
        Optional<Placement.Domain> domain = placement.lowestCommon(nodes);
        assertThat(domain).as(what + " on " + nodes + " shares no HyperNode").isPresent();
        assertThat(domain.get().tier())
                .as(what + " on " + nodes + " is in " + domain.get())
                .isLessThanOrEqualTo(tier);
    }

    @Test
    void llmdDeploymentPairIsOneGangWithinALeafEachRoleWithinNvlink() {
        create(Path.of("examples", "workloads", "llm-d-pd-deployments.yaml"));
        List<Pod> pods = awaitPlaced("tb-group-qwen-pd", 3);
        assertWithin(pods, gangTier("tb-group-qwen-pd"), "the qwen-pd pair");
        Placement.nodesBy(pods, p -> p.getMetadata().getLabels().get("topobridge.io/member"))
                .forEach((member, nodes) -> assertWithin(
                        pods.stream()
                                .filter(p -> member.equals(
                                        p.getMetadata().getLabels().get("topobridge.io/member")))
                                .toList(),
                        1,
                        "member " + member));
    }

    /** A member of group {@code g}: {@code replicas} pods of {@code gpus} GPUs each. */
    private HasMetadata member(String name, int replicas, int gpus, String annotations) {
        return client.getKubernetesSerialization()
                .unmarshal("""
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %1$s
                  namespace: %2$s
                  annotations: {topobridge.io/group: staggered%5$s}
                spec:
                  replicas: %3$d
                  selector: {matchLabels: {app: %1$s}}
                  template:
                    metadata: {labels: {app: %1$s}}
                    spec:
                      containers: [{name: engine, image: registry.k8s.io/pause:3.10,
                                    resources: {limits: {nvidia.com/gpu: "%4$d", cpu: "4", memory: 16Gi}}}]
                """.formatted(name, NS, replicas, gpus, annotations), HasMetadata.class);
    }

    @Test
    void aGroupAppliedOneMemberAtATimeGetsItsFirstPodGroupWithEveryMember() {
        long mark = cluster.audit().mark();
        client.resource(member(
                        "staggered-prefill",
                        2,
                        1,
                        ", topobridge.io/highest-tier: leaf, topobridge.io/subgroup-highest-tier: nvlink"))
                .create();
        // kubectl apply of a file, or a Helm release: the members reach the API server one after the other
        RealCluster.sleep(Duration.ofMillis(400));
        client.resource(member("staggered-decode", 2, 4, "")).create();
        List<Pod> pods = awaitPlaced("tb-group-staggered", 4);

        List<AuditLog.Write> writes = cluster.audit()
                .writesSince(
                        mark,
                        w -> w.user().equals(RealCluster.BRIDGE)
                                && w.resource().equals("podgroups")
                                && w.name().equals("tb-group-staggered"));
        assertThat(writes).as("the bridge's writes of the group's PodGroup").isNotEmpty();
        var first = writes.get(0).requestObject().path("spec");
        System.out.printf(
                "GROUP-ASSEMBLY first write of tb-group-staggered: minMember %s, subgroups %s; writes %s%n",
                first.path("minMember"), first.path("subGroupPolicy").findValuesAsText("name"), writes);
        // made from the prefill alone, the PodGroup would let Volcano start prefill as a gang of 2 and place the
        // decode pods before their subgroup existed
        assertThat(first.path("minMember").asInt()).isEqualTo(4);
        assertThat(first.path("subGroupPolicy").findValuesAsText("name"))
                .containsExactlyInAnyOrder("deploy-staggered-prefill", "deploy-staggered-decode");
        assertWithin(pods, gangTier("tb-group-staggered"), "the staggered pair");
        assertWithin(
                pods.stream()
                        .filter(p -> "deploy-staggered-decode"
                                .equals(p.getMetadata().getLabels().get("topobridge.io/member")))
                        .toList(),
                1,
                "the decode member");
    }

    @Test
    void leaderWorkerSetGroupsEachWithinOneNvlinkPartition() {
        create(Path.of("examples", "workloads", "leaderworkerset.yaml"));
        for (int group = 0; group < 2; group++) {
            List<Pod> pods = awaitPlaced("tb-lws-deepseek-" + group, 4);
            assertWithin(pods, gangTier("tb-lws-deepseek-" + group), "LWS group " + group);
        }
    }

    @Test
    void stormServiceRoleSetWithinALeafEachPodSetWithinNvlink() {
        create(Path.of("examples", "workloads", "stormservice.yaml"));
        cluster.waitFor(
                "AIBrix's RoleSet",
                PLACED,
                () -> !client.genericKubernetesResources("orchestration.aibrix.ai/v1alpha1", "RoleSet")
                        .inNamespace(NS)
                        .list()
                        .getItems()
                        .isEmpty());
        String roleSet = client.genericKubernetesResources("orchestration.aibrix.ai/v1alpha1", "RoleSet")
                .inNamespace(NS)
                .list()
                .getItems()
                .get(0)
                .getMetadata()
                .getName();
        List<Pod> pods = awaitPlaced("tb-rs-" + roleSet, 4);
        assertWithin(pods, gangTier("tb-rs-" + roleSet), "the RoleSet");
        Placement.nodesBy(
                        pods, p -> p.getMetadata().getLabels().get("stormservice.orchestration.aibrix.ai/podset-name"))
                .keySet()
                .forEach(podSet -> assertWithin(
                        pods.stream()
                                .filter(p -> podSet.equals(p.getMetadata()
                                        .getLabels()
                                        .get("stormservice.orchestration.aibrix.ai/podset-name")))
                                .toList(),
                        1,
                        "PodSet " + podSet));
    }

    @Test
    void disaggregatedSetSliceIsPlacedAsOneGang() {
        create(Path.of("examples", "workloads", "disaggregatedset.yaml"));
        List<Pod> pods = awaitPlaced("tb-ds-pd-slice-0", 4);
        assertThat(pods).allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isNotNull());
    }

    /** Parses manifests without a cluster round trip. */
    private static final class KubernetesClientHolder {
        private static List<HasMetadata> parse(InputStream in) {
            try (var c = new io.fabric8.kubernetes.client.KubernetesClientBuilder().build()) {
                return c.load(in).items();
            }
        }
    }
}

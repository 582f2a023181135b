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
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A LeaderWorkerSet upgrade under running gangs: an LWS annotated for the bridge is made into pods by the
 * LeaderWorkerSet release before the pinned one ({@code -Dtopobridge.e2e.lwsPrevious}), whose gangs get their
 * PodGroups and are bound; then the controller is replaced by the pinned release (its CRDs and webhook
 * configurations first). The gangs keep their PodGroups (same uid and spec, no write of the bridge to them), their pods stay tied, and pods made after the upgrade (a new group, a deleted pod remade) are tied too.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LwsUpgradeE2E {

    static final String NS = "lws-upgrade";

    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private static final Duration PLACED = Duration.ofSeconds(180);
    private static final String GROUP_NAME = "scheduling.k8s.io/group-name";
    private static final int SIZE = 4;

    private final RealCluster cluster;
    private KubernetesClient client;
    private LwsComponent.Release previous;

    LwsUpgradeE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void previousRelease() {
        var built = cluster.lws().previous();
        Assumptions.assumeTrue(
                built.isPresent(),
                "no LeaderWorkerSet release to upgrade from: -Dtopobridge.e2e.lwsPrevious=<version> builds one");
        previous = built.get();
        client = cluster.onExamples();
        cluster.lws().replaceBy(previous);
    }

    @AfterAll
    void pinnedAgain() {
        if (previous != null && !cluster.lws().release().equals(cluster.lws().pinned())) {
            cluster.lws().replaceBy(cluster.lws().pinned());
        }
    }

    /** {@code replicas} LWS groups of a leader and 3 workers of one GPU each, each group within a leaf switch. */
    private HasMetadata lws(String name, int replicas) {
        String pod = """
                      spec:
                        schedulerName: volcano
                        containers: [{name: engine, image: registry.k8s.io/pause:3.10,
                                      resources: {requests: {cpu: "2", memory: 8Gi}, limits: {nvidia.com/gpu: "1"}}}]
                """;
        return client.getKubernetesSerialization()
                .unmarshal("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: %s
                  namespace: %s
                  annotations: {topobridge.io/highest-tier: leaf}
                spec:
                  replicas: %d
                  leaderWorkerTemplate:
                    size: %d
                    leaderTemplate:
                %s
                    workerTemplate:
                %s
                """.formatted(name, NS, replicas, SIZE, pod, pod), HasMetadata.class);
    }

    private static String gang(String lws, int group) {
        return "tb-lws-" + lws + "-" + group;
    }

    /**
     * What an upgrade must leave alone of a PodGroup: its uid and spec (not its generation: the CRD has no status
     * subresource, so Volcano's status updates count up the generation too).
     */
    @SuppressWarnings("unchecked")
    private Map<String, Object> identity(String podGroup) {
        GenericKubernetesResource pg = PodGroups.await(cluster, client, NS, podGroup);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("uid", pg.getMetadata().getUid());
        out.put("spec", new TreeMap<>((Map<String, Object>)
                pg.getAdditionalProperties().get("spec")));
        return out;
    }

    /** The live pods of the LWS, by name: the PodGroup each is tied to, and its uid. */
    private Map<String, String> ties(String lws) {
        return client
                .pods()
                .inNamespace(NS)
                .withLabel("leaderworkerset.sigs.k8s.io/name", lws)
                .list()
                .getItems()
                .stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .collect(Collectors.toMap(
                        p -> p.getMetadata().getName(),
                        p -> p.getMetadata().getAnnotations().getOrDefault(GROUP_NAME, "untied") + " "
                                + p.getMetadata().getUid(),
                        (a, b) -> a,
                        TreeMap::new));
    }

    @Test
    void gangsMadeUnderThePreviousReleaseKeepTheirPodGroupsAndPodsAfterTheUpgrade() {
        String name = "up";
        client.resource(lws(name, 2)).create();
        Map<String, Map<String, Object>> before = new LinkedHashMap<>();
        for (int group = 0; group < 2; group++) {
            Placement.bound(cluster, client, NS, gang(name, group), SIZE, PLACED);
            before.put(gang(name, group), identity(gang(name, group)));
        }
        Map<String, String> podsBefore = ties(name);
        System.out.printf("LWS-UPGRADE under %s: PodGroups %s%n  pods %s%n", previous.version(), before, podsBefore);
        assertThat(podsBefore)
                .hasSize(2 * SIZE)
                .allSatisfy((pod, tie) -> assertThat(tie).startsWith("tb-lws-" + name + "-"));

        long mark = cluster.audit().mark();
        cluster.lws().replaceBy(cluster.lws().pinned());
        // the pinned controller has read every LWS once it and the bridge have been quiet for a while
        cluster.awaitQuiet("lws", Duration.ofSeconds(10), Duration.ofSeconds(120));
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), Duration.ofSeconds(60));
        Map<String, String> podsAfter = ties(name);
        System.out.printf("LWS-UPGRADE under the pinned release: pods %s%n", podsAfter);
        assertThat(podsAfter).as("the pods the upgrade left").isEqualTo(podsBefore);
        for (var gang : before.entrySet()) {
            assertThat(identity(gang.getKey())).as(gang.getKey()).isEqualTo(gang.getValue());
        }
        var writes = cluster.audit()
                .writesSince(
                        mark,
                        w -> w.user().equals(RealCluster.BRIDGE) && w.resource().equals("podgroups"));
        System.out.printf("LWS-UPGRADE the bridge's PodGroup writes across the upgrade: %s%n", writes);
        assertThat(writes).as("the bridge's PodGroup writes").isEmpty();

        // pods made by the pinned controller: a third group, and a worker of the first group deleted and remade
        cluster.client()
                .genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
                .inNamespace(NS)
                .withName(name)
                .edit(lws -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> spec =
                            (Map<String, Object>) lws.getAdditionalProperties().get("spec");
                    spec.put("replicas", 3);
                    return lws;
                });
        List<Pod> third = Placement.bound(cluster, client, NS, gang(name, 2), SIZE, PLACED);
        assertThat(Placement.of(client).holding(third).tier())
                .as("the new group")
                .isLessThanOrEqualTo(1);

        Pod worker = client.pods().inNamespace(NS).withName(name + "-0-1").get();
        client.resource(worker).withGracePeriod(0).delete();
        cluster.waitFor("worker " + name + "-0-1 remade and bound", PLACED, () -> {
            Pod now = client.pods().inNamespace(NS).withName(name + "-0-1").get();
            return now != null
                    && !now.getMetadata().getUid().equals(worker.getMetadata().getUid())
                    && now.getSpec().getNodeName() != null;
        });
        Placement.bound(cluster, client, NS, gang(name, 0), SIZE, PLACED);
        Map<String, String> podsLast = ties(name);
        System.out.printf("LWS-UPGRADE after scaling up and remaking a worker: pods %s%n", podsLast);
        assertThat(podsLast).hasSize(3 * SIZE);
        Set<String> gangs = Set.of(gang(name, 0), gang(name, 1), gang(name, 2));
        podsLast.forEach(
                (pod, tie) -> assertThat(gangs).as(pod + " tied to " + tie).contains(tie.split(" ")[0]));
        for (var gang : before.entrySet()) {
            assertThat(identity(gang.getKey()).get("uid"))
                    .as(gang.getKey())
                    .isEqualTo(gang.getValue().get("uid"));
        }
    }
}

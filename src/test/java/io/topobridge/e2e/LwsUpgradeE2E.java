package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * LeaderWorkerSet upgrades under running gangs. A DisaggregatedSet made by the pinned release (which has no slices)
 * keeps its gang once its CRD serves {@code spec.slices} as the next release's does (default 1), while its
 * LeaderWorkerSets and pods carry no slice label. And a LeaderWorkerSet upgrade: an LWS annotated for the bridge is made into pods by the
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
    private static final String DS_API = "disaggregatedset.x-k8s.io/v1";
    private static final String DS_NAME = "disaggregatedset.x-k8s.io/name";
    private static final String DS_SLICE = "disaggregatedset.x-k8s.io/slice";

    private final RealCluster cluster;
    private KubernetesClient client;
    private LwsComponent.Release previous;

    LwsUpgradeE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void exampleCluster() {
        client = cluster.onExamples();
        previous = cluster.lws().previous().orElse(null);
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
        return ties("leaderworkerset.sigs.k8s.io/name", lws);
    }

    /** The live pods labelled {@code key=value}, by name: the PodGroup each is tied to, and its uid. */
    private Map<String, String> ties(String key, String value) {
        return client.pods().inNamespace(NS).withLabel(key, value).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .collect(Collectors.toMap(
                        p -> p.getMetadata().getName(),
                        p -> p.getMetadata().getAnnotations().getOrDefault(GROUP_NAME, "untied") + " "
                                + p.getMetadata().getUid(),
                        (a, b) -> a,
                        TreeMap::new));
    }

    /** Runs only where the previous release was built: the tag is excluded unless -Dtopobridge.e2e.lwsPrevious is set. */
    @Test
    @Tag("lws-upgrade")
    void gangsMadeUnderThePreviousReleaseKeepTheirPodGroupsAndPodsAfterTheUpgrade() {
        assertThat(previous)
                .as("no LeaderWorkerSet release to upgrade from: -Dtopobridge.e2e.lwsPrevious=<version> builds one")
                .isNotNull();
        cluster.lws().replaceBy(previous);
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

        // the bridge annotates each PodGroup with the tier its pods achieved once they are bound: let it finish
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), Duration.ofSeconds(60));
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

    @Test
    void aDisaggregatedSetMadeBeforeSlicesKeepsItsGangOnceItsCrdServesSlices() {
        if (!cluster.lws().release().equals(cluster.lws().pinned())) {
            cluster.lws().replaceBy(cluster.lws().pinned());
        }
        HasMetadata set = PlacementE2E.load(Path.of("examples", "workloads", "disaggregatedset.yaml"))
                .get(0);
        set.getMetadata().setNamespace(NS);
        client.resource(set).create();
        String gang = "tb-ds-pd-slice-0";
        Placement.bound(cluster, client, NS, gang, 4, PLACED);
        Map<String, String> podsBefore = ties(DS_NAME, "pd-slice");
        assertThat(client.genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
                        .inNamespace(NS)
                        .withLabel(DS_NAME, "pd-slice")
                        .list()
                        .getItems())
                .as("the set's LeaderWorkerSets, made by a release without slices")
                .hasSize(2)
                .allSatisfy(lws -> assertThat(lws.getMetadata().getLabels()).doesNotContainKey(DS_SLICE));

        // the bridge annotates the PodGroup with the tier its pods achieved once they are bound: let it finish
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), Duration.ofSeconds(60));
        Map<String, Object> before = identity(gang);
        System.out.printf("LWS-UPGRADE DisaggregatedSet before slices: PodGroup %s%n  pods %s%n", before, podsBefore);
        long mark = cluster.audit().mark();
        try {
            servesSlices();
            cluster.waitFor(
                    "the set read back with slices: 1",
                    Duration.ofSeconds(30),
                    () -> Integer.valueOf(1)
                            .equals(spec(client.genericKubernetesResources(DS_API, "DisaggregatedSet")
                                            .inNamespace(NS)
                                            .withName("pd-slice")
                                            .get())
                                    .get("slices")));
            // the bridge sees the set with slices: 1 on its next event, and on a fresh start
            client.genericKubernetesResources(DS_API, "DisaggregatedSet")
                    .inNamespace(NS)
                    .withName("pd-slice")
                    .edit(ds -> {
                        ds.getMetadata().getAnnotations().put("lws-upgrade.e2e/touched", "true");
                        return ds;
                    });
            cluster.stopBridge();
            cluster.bridge();
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), Duration.ofSeconds(60));
            assertThat(identity(gang)).as(gang).isEqualTo(before);
            assertThat(ties(DS_NAME, "pd-slice")).as("the set's pods").isEqualTo(podsBefore);
            var writes = cluster.audit()
                    .writesSince(
                            mark,
                            w -> w.user().equals(RealCluster.BRIDGE)
                                    && w.resource().equals("podgroups"));
            System.out.printf("LWS-UPGRADE the bridge's PodGroup writes once slices are served: %s%n", writes);
            assertThat(writes).as("the bridge's PodGroup writes").isEmpty();

            // a pod remade without a slice label is tied to the same gang
            Pod worker = client.pods().inNamespace(NS).withLabel(DS_NAME, "pd-slice").list().getItems().stream()
                    .filter(p ->
                            !"0".equals(p.getMetadata().getLabels().get("leaderworkerset.sigs.k8s.io/worker-index")))
                    .findFirst()
                    .orElseThrow();
            client.resource(worker).withGracePeriod(0).delete();
            cluster.waitFor("the set's pods remade and bound", PLACED, () -> {
                List<Pod> pods = Placement.gangPods(client, NS, gang);
                return pods.size() == 4
                        && Placement.allBound(pods)
                        && pods.stream()
                                .noneMatch(p -> p.getMetadata()
                                        .getUid()
                                        .equals(worker.getMetadata().getUid()));
            });
            Map<String, String> podsAfter = ties(DS_NAME, "pd-slice");
            System.out.printf("LWS-UPGRADE DisaggregatedSet after a pod was remade: pods %s%n", podsAfter);
            assertThat(podsAfter)
                    .hasSize(4)
                    .allSatisfy((pod, tie) -> assertThat(tie).startsWith(gang + " "));
            assertThat(client.pods()
                            .inNamespace(NS)
                            .withLabel(DS_NAME, "pd-slice")
                            .list()
                            .getItems())
                    .allSatisfy(p -> assertThat(p.getMetadata().getLabels()).doesNotContainKey(DS_SLICE));
            assertThat(identity(gang).get("uid")).isEqualTo(before.get("uid"));
        } finally {
            cluster.installCrds(List.of(cluster.lws()
                    .pinned()
                    .module()
                    .resolve("config/crd/bases/disaggregatedset.x-k8s.io_disaggregatedsets.yaml")));
        }
    }

    /**
     * Adds to the installed DisaggregatedSet CRD the field the next LeaderWorkerSet release serves, {@code
     * spec.slices} (an int32 of 1 to 100, default 1), as an upgrade of its CRD does.
     */
    private void servesSlices() {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName("disaggregatedsets.disaggregatedset.x-k8s.io")
                .edit(crd -> {
                    crd.getSpec()
                            .getVersions()
                            .forEach(v -> v.getSchema()
                                    .getOpenAPIV3Schema()
                                    .getProperties()
                                    .get("spec")
                                    .getProperties()
                                    .put(
                                            "slices",
                                            new JSONSchemaPropsBuilder()
                                                    .withType("integer")
                                                    .withFormat("int32")
                                                    .withMinimum(1.0)
                                                    .withMaximum(100.0)
                                                    .withDefault(IntNode.valueOf(1))
                                                    .build()));
                    return crd;
                });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource object) {
        return (Map<String, Object>) object.getAdditionalProperties().get("spec");
    }
}

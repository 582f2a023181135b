package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tensor-parallel gangs on a rack split into two NVLink partitions ({@code examples/workloads/nvlink-partitions.yaml},
 * rack r05 of the example cluster): a gang that fits one partition lands inside one; one that fits none is refused in
 * hard mode ({@code GangExceedsDomain}), and is placed anyway in soft mode. One gang at a time on an idle cluster.
 */
@ExtendWith(RealClusterExtension.class)
class PartitionsE2E {

    private static final String NS = PlacementE2E.NS;

    /** One namespace for the class, emptied after each test ({@link TestNamespace#empty}). */
    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private static final Path GANGS = Path.of("examples", "workloads", "nvlink-partitions.yaml");
    private static final Duration PLACED = Duration.ofSeconds(120);

    private final RealCluster cluster;
    private KubernetesClient client;

    PartitionsE2E(RealCluster cluster) {
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

    private String create(String name) {
        HasMetadata lws = PlacementE2E.load(GANGS).stream()
                .filter(o -> o.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow();
        client.resource(lws).create();
        return "tb-lws-" + name + "-0";
    }

    private List<Pod> pods(String podGroup) {
        return Placement.gangPods(client, NS, podGroup);
    }

    private Optional<Placement.Domain> domain(List<Pod> pods) {
        return Placement.of(client)
                .lowestCommon(pods.stream().map(p -> p.getSpec().getNodeName()).toList());
    }

    @Test
    void aGangThatFitsOnePartitionLandsInsideOne() {
        String pg = create("tp-one-partition");
        cluster.waitFor("9 pods bound", PLACED, () -> pods(pg).size() == 9 && Placement.allBound(pods(pg)));
        Placement.Domain d = domain(pods(pg)).orElseThrow();
        assertThat(d.tier()).as("placed in " + d).isEqualTo(1);
        assertThat(d.tierName()).isEqualTo("nvlink");
        assertThat(pods(pg))
                .allSatisfy(p -> assertThat(p.getSpec().getNodeName()).startsWith("gb200-r05-"));
    }

    /**
     * Ten trays held hard to one NVLink partition, where the largest holds nine: it could never start, so admission
     * refuses the LeaderWorkerSet with the controller's {@code GangExceedsDomain} message; with no workload there are
     * no pods, and no PodGroup is made.
     */
    @Test
    void aHardGangBiggerThanAnyPartitionIsRefused() {
        long mark = cluster.audit().mark();
        assertThatThrownBy(() -> create("tp-too-big")).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(422);
            assertThat(e.getMessage())
                    .contains("LeaderWorkerSet/" + NS + "/tp-too-big: PodGroup tb-lws-tp-too-big-0 needs 40 GPUs"
                            + " within one domain of its hard tier 1 (nvlink), more than any domain of that"
                            + " tier holds even empty: the largest, ")
                    .contains(", holds 36 GPUs; tier 2 (")
                    .contains("it could never start, so it is not made");
        });
        // a gang that fits, admitted meanwhile, shows the bridge at work before the refused one is looked for
        String fits = create("tp-one-partition");
        cluster.waitFor("the PodGroup that fits", PLACED, () -> podGroup(fits) != null);
        cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(3), Duration.ofSeconds(60));
        assertThat(client.genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
                        .inNamespace(NS)
                        .withName("tp-too-big")
                        .get())
                .isNull();
        assertThat(pods("tb-lws-tp-too-big-0")).isEmpty();
        assertThat(podGroup("tb-lws-tp-too-big-0")).isNull();
        assertThat(cluster.audit()
                        .writesSince(
                                mark, w -> "podgroups".equals(w.resource()) && "tb-lws-tp-too-big-0".equals(w.name())))
                .as("no PodGroup write for the refused gang")
                .isEmpty();
    }

    /**
     * The same gang made by another controller (admission lets what a controller made through): the controller refuses
     * it with a {@code GangExceedsDomain} Event and makes no PodGroup, and its pods are tied to the PodGroup it would
     * have, as a gang larger than the cluster's are, so they wait whole instead of running outside the gang.
     */
    @Test
    void aHardGangBiggerThanAnyPartitionMadeByAControllerWaitsWhole() {
        ConfigMap owner = client.configMaps()
                .inNamespace(NS)
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("tp-owner")
                        .endMetadata()
                        .build())
                .create();
        HasMetadata lws = PlacementE2E.load(GANGS).stream()
                .filter(o -> o.getMetadata().getName().equals("tp-too-big"))
                .findFirst()
                .orElseThrow();
        lws.getMetadata()
                .setOwnerReferences(List.of(new OwnerReferenceBuilder()
                        .withApiVersion("v1")
                        .withKind("ConfigMap")
                        .withName(owner.getMetadata().getName())
                        .withUid(owner.getMetadata().getUid())
                        .withController(true)
                        .build()));
        client.resource(lws).create();
        String pg = "tb-lws-tp-too-big-0";
        cluster.waitFor("10 pods tied", PLACED, () -> pods(pg).size() == 10);
        cluster.waitFor(
                "a GangExceedsDomain Event on the LeaderWorkerSet",
                PLACED,
                () -> client.v1().events().inNamespace(NS).list().getItems().stream()
                        .anyMatch(e -> "GangExceedsDomain".equals(e.getReason())
                                && "Warning".equals(e.getType())
                                && "tp-too-big".equals(e.getInvolvedObject().getName())));
        // ten whole scheduling sessions, each of which saw all 10 pods: not one pod of the gang is bound
        Duration waited = cluster.awaitSchedulingSessions(10, Duration.ofSeconds(120));
        assertThat(Placement.noneBound(pods(pg)))
                .as("no partial gang after 10 sessions (" + waited.toMillis() + " ms)")
                .isTrue();
        assertThat(podGroup(pg)).isNull();
    }

    private GenericKubernetesResource podGroup(String name) {
        return client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    @Test
    void aSoftGangBiggerThanAnyPartitionIsPlacedAnyway() {
        String pg = create("tp-too-big-soft");
        cluster.waitFor("10 pods bound", PLACED, () -> pods(pg).size() == 10 && Placement.allBound(pods(pg)));
        assertThat(domain(pods(pg)))
                .hasValueSatisfying(
                        d -> assertThat(d.tier()).as("above the partition").isGreaterThan(1));
    }
}

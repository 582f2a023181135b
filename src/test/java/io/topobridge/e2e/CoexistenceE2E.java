package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.apply.FieldPaths;
import io.topobridge.core.Topobridge;
import io.topobridge.testing.Upstream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * LWS's own Volcano gang provider and AIBrix's {@code volcanoSchedulingStrategy} make their PodGroups themselves;
 * the bridge adds only its topology fields to them (server-side apply, the real {@code managedFields} show it owns
 * nothing else), and Volcano places the gangs within the tier.
 */
@ExtendWith(RealClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CoexistenceE2E {

    private static final String NS = "coexist";

    @RegisterExtension
    static final TestNamespace NAMESPACE = TestNamespace.forClass(NS);

    private static final Duration WAIT = Duration.ofSeconds(120);

    private final RealCluster cluster;
    private KubernetesClient client;

    CoexistenceE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    void namespace() {
        client = cluster.onExamples();
    }

    @AfterAll
    void cleanUp() {
        if (cluster.lwsVolcanoProvider()) {
            cluster.startLws(false);
        }
    }

    private List<GenericKubernetesResource> podGroups(Predicate<GenericKubernetesResource> filter) {
        return client
                .genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(NS)
                .list()
                .getItems()
                .stream()
                .filter(filter)
                .toList();
    }

    /** The fields each manager owns on an object, as leaf paths. */
    private static Map<String, Set<String>> owners(HasMetadata object) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (ManagedFieldsEntry entry : object.getMetadata().getManagedFields()) {
            JsonNode fields = Examples.json(entry.getFieldsV1().getAdditionalProperties());
            Set<String> paths = new TreeSet<>();
            FieldPaths.fromFieldsV1(fields).forEach(p -> paths.add(String.join(".", p)));
            out.computeIfAbsent(entry.getManager() + "/" + entry.getOperation(), k -> new TreeSet<>())
                    .addAll(paths);
        }
        return out;
    }

    private static void assertOnlyTopologyIsOurs(GenericKubernetesResource pg) {
        Map<String, Set<String>> owners = owners(pg);
        Set<String> ours = owners.get(Topobridge.FIELD_MANAGER + "/Apply");
        assertThat(ours)
                .as("fields topobridge owns on " + pg.getMetadata().getName() + ": " + owners)
                .isNotEmpty()
                .allMatch(p -> p.startsWith("f:spec.f:networkTopology")
                        || p.startsWith("f:spec.f:subGroupPolicy")
                        || p.startsWith("f:metadata.f:annotations.f:topobridge.io/achieved-"));
        assertThat(owners.keySet())
                .as("another manager made it")
                .anyMatch(m -> !m.startsWith(Topobridge.FIELD_MANAGER));
    }

    @Test
    void lwsProviderPodGroupsGetOnlyTheTopologyFieldsAndTheGroupsArePlacedWithinTheirTier() {
        cluster.startLws(true);
        GenericKubernetesResource lws;
        try (InputStream in = Files.newInputStream(
                Upstream.file("lws", "docs/examples/sample/gang-scheduling/lws-sample-volcano.yaml"))) {
            lws = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        lws.getMetadata().setNamespace(NS);
        lws.getMetadata().setAnnotations(Map.of("topobridge.io/highest-tier", "nvlink"));
        client.resource(lws).create();

        String prefix = lws.getMetadata().getName() + "-";
        cluster.waitFor("LWS's provider PodGroups with the bridge's topology", WAIT, () -> {
            List<GenericKubernetesResource> pgs =
                    podGroups(pg -> pg.getMetadata().getName().startsWith(prefix));
            return pgs.size() == 2
                    && pgs.stream()
                            .allMatch(pg ->
                                    ((Map<?, ?>) pg.getAdditionalProperties().get("spec"))
                                                    .containsKey("networkTopology")
                                            && owners(pg).containsKey(Topobridge.FIELD_MANAGER + "/Apply"));
        });
        // LWS's provider is a setting of the LWS controller, not of the LWS: until its PodGroups exist the bridge
        // cannot tell it will make them, and keeps one of its own, deleted as soon as the provider's appears
        long created = System.nanoTime();
        cluster.waitFor(
                "no rival PodGroup",
                Duration.ofSeconds(30),
                () -> podGroups(pg -> pg.getMetadata().getName().startsWith("tb-"))
                        .isEmpty());
        System.out.printf(
                "the bridge's own PodGroups of the LWS were gone %d ms after the provider's had the topology%n",
                (System.nanoTime() - created) / 1_000_000);
        for (GenericKubernetesResource pg :
                podGroups(pg -> pg.getMetadata().getName().startsWith(prefix))) {
            assertOnlyTopologyIsOurs(pg);
            cluster.waitFor(
                    "group " + pg.getMetadata().getName() + " bound",
                    WAIT,
                    () -> Placement.allBound(
                            Placement.gangPods(client, NS, pg.getMetadata().getName())));
            List<Pod> pods = Placement.gangPods(client, NS, pg.getMetadata().getName());
            assertThat(pods).hasSize(4);
            List<String> nodes = pods.stream()
                    .map(p -> p.getMetadata().getName() + "@" + p.getSpec().getNodeName())
                    .toList();
            assertThat(Placement.of(client)
                            .lowestCommon(pods.stream()
                                    .map(p -> p.getSpec().getNodeName())
                                    .toList()))
                    .as(
                            "pods %s of PodGroup %s",
                            nodes, pg.getAdditionalProperties().get("spec"))
                    .hasValueSatisfying(d -> assertThat(d.tier()).isEqualTo(1));
        }
        cluster.startLws(false);
    }

    @Test
    void aibrixStrategyPodGroupGetsOnlyTheTopologyFields() {
        GenericKubernetesResource storm =
                StormServices.volcanoGang(client, "gang", "coexist", "{topobridge.io/highest-tier: leaf}", 1, 1);
        client.resource(storm).create();
        // the PodGroup webhook adds the fields to AIBrix's own write (unowned); the reconciler's apply then owns them
        cluster.waitFor(
                "AIBrix's PodGroup with the bridge's topology, owned by the bridge",
                WAIT,
                () -> podGroups(pg -> pg.getMetadata().getName().startsWith("gang-")).stream()
                        .anyMatch(pg ->
                                ((Map<?, ?>) pg.getAdditionalProperties().get("spec")).containsKey("networkTopology")
                                        && owners(pg).containsKey(Topobridge.FIELD_MANAGER + "/Apply")));
        GenericKubernetesResource pg =
                podGroups(p -> p.getMetadata().getName().startsWith("gang-")).get(0);
        assertOnlyTopologyIsOurs(pg);
        assertThat(podGroups(p -> p.getMetadata().getName().startsWith("tb-")))
                .as("no rival PodGroup")
                .isEmpty();
    }
}

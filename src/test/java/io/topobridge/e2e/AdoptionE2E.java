package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * AIBrix rewrites its PodGroup's whole spec whenever it differs from its own idea of it, on every RoleSet reconcile
 * (every pod event), and LWS creates its PodGroup in the same pass as the pods. Measured on the real AIBrix: every
 * version of the adopted PodGroup the API server stored while the gang started, with and without the bridge's
 * PodGroup webhook, and whether each carried the bridge's topology fields.
 */
@ExtendWith(RealClusterExtension.class)
class AdoptionE2E {

    private static final Duration WAIT = Duration.ofSeconds(120);

    private final RealCluster cluster;
    private KubernetesClient client;

    AdoptionE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    /** The versions of one PodGroup the API server stored: whether each had {@code spec.networkTopology}. */
    private record Versions(List<Boolean> withTopology) {
        long missing() {
            return withTopology.stream().filter(has -> !has).count();
        }
    }

    private Versions startAStormService(String ns) {
        TestNamespace namespace = TestNamespace.forCase(ns).open(cluster);
        List<Boolean> seen = new CopyOnWriteArrayList<>();
        Watch watch = client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(ns)
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, GenericKubernetesResource pg) {
                        if (action == Action.ADDED || action == Action.MODIFIED) {
                            seen.add(((Map<?, ?>) pg.getAdditionalProperties().get("spec"))
                                    .containsKey("networkTopology"));
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                });
        try {
            client.resource(StormServices.volcanoGang(
                            client,
                            "gang",
                            ns,
                            "{topobridge.io/highest-tier: leaf, topobridge.io/subgroup-highest-tier: nvlink}",
                            2,
                            1))
                    .create();
            nudgeIfIgnored(ns);
            cluster.waitFor("the 4 pods running", WAIT, () -> {
                List<Pod> pods = client.pods().inNamespace(ns).list().getItems();
                return pods.size() == 4
                        && pods.stream()
                                .allMatch(p -> "Running".equals(p.getStatus().getPhase()));
            });
            // the reconciles that follow the pods' start settle
            cluster.awaitQuiet(RealCluster.BRIDGE, Duration.ofSeconds(5), WAIT);
            RealCluster.sleep(Duration.ofSeconds(5));
            return new Versions(List.copyOf(seen));
        } finally {
            watch.close();
            namespace.close();
        }
    }

    /**
     * AIBrix's StormService controller can end a reconcile without acting and without asking to be called again (seen
     * once on a loaded machine: two syncs of a new StormService, no RoleSet, nothing logged). When no RoleSet appears
     * within 30 s the StormService is touched once (an annotation no one reads), which calls its reconcile again.
     */
    private void nudgeIfIgnored(String ns) {
        java.util.function.BooleanSupplier roleSet =
                () -> !client.genericKubernetesResources("orchestration.aibrix.ai/v1alpha1", "RoleSet")
                        .inNamespace(ns)
                        .list()
                        .getItems()
                        .isEmpty();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (roleSet.getAsBoolean()) {
                return;
            }
            RealCluster.sleep(Duration.ofMillis(500));
        }
        System.out.printf("AIBrix made no RoleSet for %s/gang in 30 s; touching the StormService once%n", ns);
        client.genericKubernetesResources("orchestration.aibrix.ai/v1alpha1", "StormService")
                .inNamespace(ns)
                .withName("gang")
                .edit(o -> {
                    o.getMetadata().getAnnotations().put("e2e.example.com/touched", "1");
                    return o;
                });
    }

    @Test
    void theAdoptedAibrixPodGroupKeepsItsTopologyOnlyWithThePodGroupWebhook() {
        client = cluster.client();
        Examples.ensureNodes(client);
        cluster.stopBridge();
        Versions without;
        try (Bridge plain = Bridge.on(cluster, "topobridge-no-podgroup-webhook")
                .set("topobridge.admission.adopt-podgroups", "false")
                .start()
                .awaitReady(WAIT)) {
            without = startAStormService("adopt-before");
        }
        cluster.bridge();
        Versions with = startAStormService("adopt-after");
        System.out.printf(
                "AIBrix PodGroup versions without the PodGroup webhook: %d of %d lacked the topology; "
                        + "with it: %d of %d%n",
                without.missing(),
                without.withTopology().size(),
                with.missing(),
                with.withTopology().size());
        assertThat(without.missing()).as("AIBrix drops the fields: " + without).isPositive();
        assertThat(with.withTopology())
                .as("every version carries them: " + with)
                .isNotEmpty()
                .allMatch(has -> has);
    }
}

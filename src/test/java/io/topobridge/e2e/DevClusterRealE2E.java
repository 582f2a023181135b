package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.devcluster.RealDevCluster;
import io.topobridge.testing.FreePort;
import io.topobridge.testing.PackagedApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What {@code ./mvnw quarkus:dev -Dtopobridge.dev-cluster.kind=real} starts, with the packaged controller in place of
 * the dev-mode one: {@link RealDevCluster} runs a cluster of its own in a child process, seeded from
 * {@code examples/} with the webhook Service pointing at the given port; the controller, given the child's
 * kubeconfig and that port, builds the HyperNodes, writes the demo's PodGroups and ties their pods at admission,
 * and the real Volcano scheduler places the demo gangs, each within its hard tier. Closing the launcher stops every
 * process of that cluster.
 */
class DevClusterRealE2E {

    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final String NS = "inference";

    @Test
    void theDemoOnTheRealClusterPlacesItsGangsWithinTheirTiers() throws Exception {
        int port = FreePort.find();
        long began = System.nanoTime();
        Map<String, String> placed = new TreeMap<>();
        Process controller = null;
        List<ProcessHandle> cluster = List.of();
        try (RealDevCluster dev = RealDevCluster.start(
                        Path.of("examples"),
                        new RealDevCluster.Webhook(port, "topobridge-webhook", "default"),
                        Duration.ofMinutes(10));
                KubernetesClient client = dev.client()) {
            long up = (System.nanoTime() - began) / 1_000_000;
            assertThat(client.nodes().list().getItems()).as("the example nodes").hasSizeGreaterThan(10);
            assertThat(client.services()
                            .inNamespace("default")
                            .withName("topobridge-webhook")
                            .get()
                            .getSpec()
                            .getPorts()
                            .get(0)
                            .getPort())
                    .isEqualTo(port);

            Path log = dev.log().resolveSibling("dev-cluster-controller.log");
            List<String> command = new ArrayList<>(List.of(
                    PackagedApp.java(),
                    "-Xmx512m",
                    "-Dquarkus.http.port=" + FreePort.find(),
                    "-Dquarkus.http.host=127.0.0.1",
                    "-Dtopobridge.admission.port=" + port,
                    "-Dtopobridge.admission.service-port=" + port,
                    "-jar",
                    PackagedApp.jar().toString()));
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("KUBECONFIG", dev.kubeconfig().toString());
            controller = builder.start();

            await(() -> "the demo's gangs placed (last seen: " + placed + ")", () -> {
                placed.clear();
                placed.putAll(placements(client));
                return placed.entrySet().stream()
                                .filter(e -> e.getKey().startsWith("tb-")
                                        && e.getValue().startsWith("placed"))
                                .count()
                        >= 3;
            });
            // every workload of the demo seeded, the ones the bridge refuses by design said and passed over
            await(() -> "the child to seed the demo's workloads (see " + dev.log() + ")", () -> {
                try {
                    return Files.readString(dev.log()).contains("workload objects seeded");
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            System.out.printf("dev cluster up in %d ms; demo gangs on the real scheduler: %s%n", up, placed);
            for (var e : placed.entrySet()) {
                assertThat(e.getValue()).as(e.getKey()).doesNotContain("OUTSIDE");
            }
            // Volcano's own per-pod PodGroups would mean pods that reached the scheduler untied from their gang
            assertThat(placed.keySet())
                    .as("every demo pod tied to its gang; seen: %s", placed)
                    .noneMatch(n -> n.startsWith("podgroup-"));
            // the dev cluster's child process (known by its run folder: a command line is read only to 4 KiB) and
            // the components it runs
            String run = "-Dtopobridge.e2e.run=" + dev.kubeconfig().getParent();
            cluster = ProcessHandle.current()
                    .children()
                    .filter(p -> p.info().commandLine().orElse("").contains(run))
                    .flatMap(p -> Stream.concat(Stream.of(p), p.descendants()))
                    .toList();
        } finally {
            if (controller != null) {
                controller.destroy();
            }
        }
        List<ProcessHandle> components = cluster;
        assertThat(components).as("the dev cluster's processes while it ran").isNotEmpty();
        await(
                () -> "the dev cluster's processes to end once it closed; alive: "
                        + components.stream()
                                .filter(ProcessHandle::isAlive)
                                .map(p -> p.pid() + " " + p.info().command().orElse("?"))
                                .toList(),
                () -> components.stream().noneMatch(ProcessHandle::isAlive));
    }

    private static void await(java.util.function.Supplier<String> what, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                // the cluster is still coming up; poll again
            }
            Thread.sleep(500);
        }
        throw new AssertionError("timed out after " + WAIT + " waiting for " + what.get());
    }

    /** Per PodGroup of the demo namespace: placed within (or OUTSIDE) its hard tier, or pending. */
    private static Map<String, String> placements(KubernetesClient client) {
        Map<String, String> out = new TreeMap<>();
        Placement topology = Placement.of(client);
        for (GenericKubernetesResource pg : client.genericKubernetesResources(
                        "scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(NS)
                .list()
                .getItems()) {
            String name = pg.getMetadata().getName();
            List<Pod> pods = Placement.gangPods(client, NS, name);
            if (name.startsWith("podgroup-")) {
                // Volcano's own PodGroup of a pod admitted untied: say which pod, whose, and when it was made
                out.put(
                        name,
                        pods.stream()
                                .map(p -> "untied pod " + p.getMetadata().getName() + " of "
                                        + p.getMetadata().getOwnerReferences().stream()
                                                .map(o -> o.getKind() + "/" + o.getName())
                                                .toList()
                                        + " created " + p.getMetadata().getCreationTimestamp())
                                .toList()
                                .toString());
                continue;
            }
            if (pods.isEmpty() || !Placement.allBound(pods)) {
                out.put(name, "pending (" + pods.size() + " pods)");
                continue;
            }
            Map<?, ?> spec = (Map<?, ?>) pg.getAdditionalProperties().get("spec");
            Map<?, ?> topologySpec = (Map<?, ?>) spec.get("networkTopology");
            var common = topology.lowestCommon(
                    pods.stream().map(p -> p.getSpec().getNodeName()).toList());
            String within =
                    common.map(d -> d.name() + " (tier " + d.tier() + ")").orElse("no common HyperNode");
            boolean hard = topologySpec != null && "hard".equals(topologySpec.get("mode"));
            Object tier = topologySpec == null ? null : topologySpec.get("highestTierAllowed");
            boolean inside =
                    !hard || tier == null || common.isPresent() && common.get().tier() <= ((Number) tier).intValue();
            out.put(
                    name,
                    (inside ? "placed " : "OUTSIDE its tier, ") + pods.size() + " pods within " + within
                            + (hard ? ", hard tier " + tier : ""));
        }
        return out;
    }
}

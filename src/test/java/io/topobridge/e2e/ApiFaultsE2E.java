package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.topobridge.e2e.AuditLog.Write;
import io.topobridge.e2e.FaultProxy.Fault;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The bridge behind a fault-injecting proxy ({@link FaultProxy}) to the real API server: 409 conflicts, 429 with
 * {@code Retry-After}, 500s, answers held back past the client's timeout, watches cut mid-stream, connections closed
 * without an answer, a 503 outage and kube-apiserver itself killed and restarted. During each fault the cluster changes (a
 * tray moves to another NVLink domain and back, the Deployment scales); after it the HyperNodes equal what
 * {@code render} prints for the nodes as they are and the PodGroup what it prints for the Deployment. Across the
 * run the audit log shows no PodGroup created twice, no PodGroup deleted, and no delete of an object without the
 * bridge's label; requests per second during the outage are measured and bounded (backoff, not a hot loop).
 */
@ExtendWith(RealClusterExtension.class)
class ApiFaultsE2E {

    private static final String NS = "faults-e2e";

    @RegisterExtension
    final TestNamespace namespace = TestNamespace.forEachTest(NS);

    private static final String GANG = "tb-deploy-web";
    private static final String TRAY = "gb200-r01-t01";
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration QUIET = Duration.ofSeconds(3);
    private static final Duration OUTAGE = Duration.ofSeconds(10);
    /** The bridge's client request timeout (fabric8's default; Quarkus fixes it at build time), below {@link FaultProxy#SLOW}. */
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(10);

    private final RealCluster cluster;
    private final Map<String, String> figures = new LinkedHashMap<>();
    private final Set<String> labelled = new HashSet<>();
    private Map<String, String> home;
    private Map<String, String> away;
    private boolean moved;
    private int replicas = 2;

    ApiFaultsE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void afterEveryFaultTheBridgeConvergesToWhatRenderPrints() {
        var client = cluster.client();
        cluster.stopBridge();
        Examples.ensureNodes(client);
        Node tray = client.nodes().withName(TRAY).get();
        Node other = client.nodes().withName("gb200-r02-t01").get();
        home = Map.of(
                "nvidia.com/gpu.clique",
                tray.getMetadata().getLabels().get("nvidia.com/gpu.clique"),
                "fabric.topograph.run/tier-0",
                tray.getMetadata().getLabels().get("fabric.topograph.run/tier-0"));
        away = Map.of(
                "nvidia.com/gpu.clique",
                other.getMetadata().getLabels().get("nvidia.com/gpu.clique"),
                "fabric.topograph.run/tier-0",
                other.getMetadata().getLabels().get("fabric.topograph.run/tier-0"));
        client.apps()
                .deployments()
                .inNamespace(NS)
                .resource(deployment(replicas))
                .create();

        FaultProxy proxy = FaultProxy.to(cluster.url(), cluster.caPem());
        Bridge bridge =
                Bridge.on(cluster, "faulty").kubeconfig(kubeconfig(proxy)).start();
        try {
            bridge.awaitReady(Duration.ofSeconds(120));
            converged("start");
            long mark = cluster.audit().mark();

            faulted("409 on 3 writes", () -> proxy.inject(Fault.CONFLICT, 3, true), proxy);
            faulted("429 Retry-After 1 on 5 requests", () -> proxy.inject(Fault.THROTTLE, 5, false), proxy);
            faulted("500 on 3 writes", () -> proxy.inject(Fault.INTERNAL_ERROR, 3, true), proxy);
            faulted(
                    "2 writes answered after " + FaultProxy.SLOW.toSeconds() + " s (client timeout "
                            + CLIENT_TIMEOUT.toSeconds() + " s)",
                    () -> proxy.inject(Fault.SLOW, 2, true),
                    proxy);
            faulted("3 connections closed without an answer", () -> proxy.inject(Fault.DROP, 3, false), proxy);
            faulted(
                    "watches cut mid-stream",
                    () -> figures.put("watches cut", String.valueOf(proxy.cutWatches())),
                    proxy);
            assertThat(Integer.parseInt(figures.get("watches cut")))
                    .as("open watches the proxy cut")
                    .isPositive();

            // a 503 outage: every request fails for OUTAGE; the bridge must back off, not spin
            long before = proxy.requests();
            long outageStart = System.nanoTime();
            proxy.inject(Fault.UNAVAILABLE, -1, false);
            proxy.cutWatches();
            change();
            RealCluster.sleep(OUTAGE);
            proxy.clear();
            double seconds = (System.nanoTime() - outageStart) / 1e9;
            long during = proxy.requests() - before;
            double rate = during / seconds;
            figures.put("503 outage", String.format("%d requests in %.1f s = %.1f per second", during, seconds, rate));
            converged("503 outage");
            assertThat(rate).as("requests per second during the outage").isLessThan(30);
            assertThat(during).as("the bridge kept trying during the outage").isPositive();

            Duration down = cluster.restartApiServer();
            figures.put("kube-apiserver killed and restarted", "unreachable for " + down.toMillis() + " ms");
            change();
            converged("kube-apiserver restart");
            cluster.assertHealthy();

            List<Write> writes = cluster.audit().writesSince(mark, w -> w.user().equals(RealCluster.BRIDGE));
            assertThat(writes)
                    .as("PodGroups deleted")
                    .noneMatch(w -> w.resource().equals("podgroups") && w.verb().equals("delete"));
            assertThat(writes)
                    .as("PodGroups created (the gang's existed before the faults)")
                    .noneMatch(w -> w.resource().equals("podgroups") && w.code() == 201);
            assertThat(writes.stream()
                            .filter(w -> w.verb().startsWith("delete"))
                            .toList())
                    .as("every delete is of an object carrying the bridge's label")
                    .allMatch(w -> w.resource().equals("hypernodes") && labelled.contains(w.name()), "labelled");
            assertThat(ourPodGroups()).as("one PodGroup for the gang").containsExactly(GANG);
            bridge.process().assertAlive();
            System.out.println("API faults: injected " + proxy.injected() + " faults in " + proxy.requests()
                    + " requests; " + figures);
        } finally {
            bridge.stop();
            proxy.close();
            relabel(home);
        }
    }

    /** Injects a fault, changes the cluster while it lasts, and checks the bridge converged once it is over. */
    private void faulted(String name, Runnable inject, FaultProxy proxy) {
        long started = System.nanoTime();
        inject.run();
        change();
        cluster.waitFor("the fault " + name + " to be used up", WAIT, proxy::spent);
        proxy.clear();
        converged(name);
        figures.put(
                name,
                "converged in " + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
    }

    /** Moves the tray to the other NVLink domain (or back) and scales the Deployment. */
    private void change() {
        moved = !moved;
        relabel(moved ? away : home);
        replicas = replicas == 2 ? 3 : 2;
        // retried: the admin client's own requests may land while kube-apiserver restarts
        cluster.waitFor("the scale to " + replicas, WAIT, () -> {
            cluster.client()
                    .apps()
                    .deployments()
                    .inNamespace(NS)
                    .withName("web")
                    .scale(replicas);
            return true;
        });
    }

    private void relabel(Map<String, String> labels) {
        cluster.waitFor("the relabel of " + TRAY, WAIT, () -> {
            cluster.client().nodes().withName(TRAY).edit(n -> {
                n.getMetadata().getLabels().putAll(labels);
                return n;
            });
            return true;
        });
    }

    /** Waits for the bridge to reach what render prints for the cluster as it is, then for it to stop writing. */
    private void converged(String step) {
        Map<String, JsonNode> hyperNodes = new TreeMap<>();
        JsonNode podGroup = null;
        for (JsonNode doc : Examples.render(nodesFile(), deploymentFile())) {
            String kind = doc.path("kind").asText();
            String name = doc.path("metadata").path("name").asText();
            if (kind.equals("HyperNode")) {
                hyperNodes.put(name, doc.path("spec"));
            } else if (kind.equals("PodGroup") && name.equals(GANG)) {
                podGroup = doc;
            }
        }
        assertThat(podGroup).as("the PodGroup render prints").isNotNull();
        JsonNode rendered = podGroup;
        cluster.waitFor(
                "the HyperNodes render prints, after " + step,
                WAIT,
                () -> Examples.hyperNodes(cluster.client()).equals(hyperNodes));
        cluster.waitFor("the PodGroup render prints, after " + step, WAIT, () -> matches(rendered));
        cluster.awaitQuiet(RealCluster.BRIDGE, QUIET, WAIT);
        assertThat(Examples.hyperNodes(cluster.client()))
                .as("HyperNodes after " + step)
                .isEqualTo(hyperNodes);
        assertThat(matches(podGroup))
                .as("PodGroup after " + step + ": " + podGroup)
                .isTrue();
        for (GenericKubernetesResource h : cluster.client()
                .genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode")
                .withLabel("volcano.sh/network-topology-source", "topobridge")
                .list()
                .getItems()) {
            labelled.add(h.getMetadata().getName());
        }
    }

    /** Whether the live PodGroup has every spec field render prints, with the same value. */
    private boolean matches(JsonNode rendered) {
        GenericKubernetesResource live = cluster.client()
                .genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace(NS)
                .withName(GANG)
                .get();
        if (live == null) {
            return false;
        }
        JsonNode spec = Examples.json(live.getAdditionalProperties().get("spec"));
        List<String> differ = new ArrayList<>();
        rendered.path("spec").fieldNames().forEachRemaining(f -> {
            if (!rendered.path("spec").get(f).equals(spec.get(f))) {
                differ.add(f);
            }
        });
        return differ.isEmpty();
    }

    /** The Deployment as it is, as a YAML file for {@code render}. */
    private String deploymentFile() {
        Path file = cluster.runDir().resolve("faults-deployment.yaml");
        Deployment live = cluster.client()
                .apps()
                .deployments()
                .inNamespace(NS)
                .withName("web")
                .get();
        write(
                file,
                cluster.client()
                        .getKubernetesSerialization()
                        .asYaml(deployment(live.getSpec().getReplicas())
                                .edit()
                                .editMetadata()
                                .withNamespace(NS)
                                .endMetadata()
                                .build()));
        return file.toString();
    }

    private List<String> ourPodGroups() {
        List<String> out = new ArrayList<>();
        for (GenericKubernetesResource pg : PodGroups.ours(cluster.client(), NS)) {
            out.add(pg.getMetadata().getName());
        }
        return out;
    }

    private static Deployment deployment(int replicas) {
        return DeploymentWrapper.make("web", null)
                .replicas(replicas)
                .highestTier("leaf")
                .cpu("1")
                .obj();
    }

    /** The cluster's nodes as a YAML file, for {@code render}. */
    private String nodesFile() {
        Path file = cluster.runDir().resolve("faults-nodes.yaml");
        StringBuilder out = new StringBuilder();
        for (Node n : cluster.client().nodes().list().getItems()) {
            n.getMetadata().setManagedFields(null);
            out.append("---\n")
                    .append(cluster.client().getKubernetesSerialization().asYaml(n));
        }
        write(file, out.toString());
        return file.toString();
    }

    /** A kubeconfig for the bridge's identity that sends every request through the proxy. */
    private Path kubeconfig(FaultProxy proxy) {
        Path file = cluster.runDir().resolve("kubeconfig-through-proxy");
        write(file, RealCluster.kubeconfigText(proxy.url(), null, cluster.token(RealCluster.BRIDGE)));
        return file;
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

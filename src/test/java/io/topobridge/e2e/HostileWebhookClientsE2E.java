package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.testing.TrustAll;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hostile clients on the webhook port of the packaged bridge (512 MiB of heap, as Bridge runs it), on the real
 * cluster: {@value #CLIENTS} clients post, over and over, bodies just under the old 4 MiB limit made of
 * {@code [{},{},...]} (about 110 MB of tree each when parsed), bodies within the size limit but with millions of JSON
 * tokens, JSON nested thousands deep, and requests whose body never finishes. Meanwhile a Deployment's pods are created
 * by the controller manager through the API server, which asks the same port to tie each to its gang. Every pod must
 * be tied to its PodGroup and bound by Volcano, the bridge process must stay up and ready, and the heap it used is
 * sampled from its metrics.
 */
@ExtendWith(RealClusterExtension.class)
class HostileWebhookClientsE2E {

    static final int CLIENTS = 8;
    static final int FLOOD_SECONDS = 30;
    private static final String NS = "hostile-webhook-e2e";

    @RegisterExtension
    final TestNamespace namespace = TestNamespace.forEachTest(NS);

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Pattern HEAP = Pattern.compile("jvm_memory_used_bytes\\{area=\"heap\"[^}]*} ([0-9.eE+]+)");

    private final RealCluster cluster;

    HostileWebhookClientsE2E(RealCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void podsAreStillTiedToTheirGangWhileHostileClientsFloodTheWebhookPort() throws Exception {
        KubernetesClient admin = cluster.client();
        Examples.ensureNodes(admin);
        cluster.stopBridge();
        try (Bridge bridge = Bridge.on(cluster, "topobridge-hostile").start().awaitReady(WAIT)) {
            long quietHeap = 0;
            for (int i = 0; i < 12; i++) { // three seconds of the bridge at rest
                quietHeap = Math.max(quietHeap, heap(bridge).orElse(0L));
                RealCluster.sleep(Duration.ofMillis(250));
            }
            Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
            AtomicBoolean flooding = new AtomicBoolean(true);
            AtomicLong bytesSent = new AtomicLong();
            AtomicLong maxHeap = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1);
            byte[] nearOldLimit = WebhookBodies.wide(4 * 1024 * 1024 - 4096);
            byte[] wideUnderLimit = WebhookBodies.wide(3 * 1024 * 1024 - 4096);
            byte[] deep = WebhookBodies.deep(20_000);
            List<byte[]> bodies = List.of(nearOldLimit, wideUnderLimit, deep);
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                pool.submit(() -> {
                    for (int i = client; flooding.get(); i++) {
                        String outcome;
                        if (i % 4 == 3) {
                            outcome = slow(bridge.webhookPort());
                        } else {
                            byte[] body = bodies.get(i % 4);
                            outcome = post(bridge.webhookPort(), body);
                            bytesSent.addAndGet(body.length);
                        }
                        outcomes.computeIfAbsent(outcome, k -> new AtomicInteger())
                                .incrementAndGet();
                    }
                    return null;
                });
            }
            pool.submit(() -> {
                while (flooding.get()) {
                    try {
                        heap(bridge).ifPresent(h -> maxHeap.accumulateAndGet(h, Math::max));
                    } catch (RuntimeException e) {
                        // the bridge did not answer this sample
                    }
                    RealCluster.sleep(Duration.ofMillis(250));
                }
                return null;
            });
            long started = System.nanoTime();
            long tiedAfter;
            List<Pod> pods;
            try {
                RealCluster.sleep(Duration.ofSeconds(3)); // the flood is under way before the first pod
                admin.apps()
                        .deployments()
                        .inNamespace(NS)
                        .resource(DeploymentWrapper.make("web", NS)
                                .replicas(6)
                                .highestTier("leaf")
                                .cpu("100m")
                                .obj())
                        .create();
                long created = System.nanoTime();
                cluster.waitFor("six pods of " + NS + "/web created", WAIT, () -> {
                    bridge.process().assertAlive();
                    return pods(admin).size() == 6;
                });
                tiedAfter = (System.nanoTime() - created) / 1_000_000;
                cluster.waitFor("the pods bound by Volcano as one gang", WAIT, () -> {
                    bridge.process().assertAlive();
                    return pods(admin).stream().allMatch(p -> p.getSpec().getNodeName() != null);
                });
                // the flood goes on for half a minute at least, the gang bound
                while (System.nanoTime() - started
                        < Duration.ofSeconds(FLOOD_SECONDS).toNanos()) {
                    bridge.process().assertAlive();
                    RealCluster.sleep(Duration.ofSeconds(1));
                }
                pods = pods(admin);
            } finally {
                flooding.set(false);
                pool.shutdown();
                pool.awaitTermination(60, TimeUnit.SECONDS);
                pool.shutdownNow();
            }
            long seconds = (System.nanoTime() - started) / 1_000_000_000;
            Map<String, Integer> table = new TreeMap<>();
            outcomes.forEach((k, v) -> table.put(k, v.get()));
            System.out.printf(
                    "%d hostile clients for %d s: %d MB sent, answers %s; the bridge's heap peaked at %d MB "
                            + "(sampled every 250 ms; %d MB at rest before); the 6 pods were created within %d ms, "
                            + "each tied to its gang%n",
                    CLIENTS, seconds, bytesSent.get() >> 20, table, maxHeap.get() >> 20, quietHeap >> 20, tiedAfter);
            String metrics = bridge.get("/q/metrics").body();
            metrics.lines()
                    .filter(l -> l.startsWith("topobridge_admission_refusals_total"))
                    .forEach(l -> System.out.println("  " + l));

            assertThat(pods)
                    .hasSize(6)
                    .allSatisfy(p -> assertThat(p.getMetadata().getAnnotations())
                            .as(p.getMetadata().getName())
                            .containsEntry("scheduling.k8s.io/group-name", "tb-deploy-web"));
            bridge.process().assertAlive();
            assertThat(bridge.get("/q/health/ready").statusCode()).isEqualTo(200);
            assertThat(table.keySet())
                    .as("the garbage was refused, by the limits")
                    .contains("413", "408");
            assertThat(metrics).contains("limit=\"max-json-tokens\"", "limit=\"max-body-size\"");
        } finally {
        }
    }

    private static List<Pod> pods(KubernetesClient admin) {
        return admin.pods().inNamespace(NS).withLabel("app", "web").list().getItems();
    }

    private static java.util.Optional<Long> heap(Bridge bridge) {
        Matcher m = HEAP.matcher(bridge.get("/q/metrics").body());
        long sum = 0;
        boolean found = false;
        while (m.find()) {
            sum += (long) Double.parseDouble(m.group(1));
            found = true;
        }
        return found ? java.util.Optional.of(sum) : java.util.Optional.empty();
    }

    /** POSTs {@code body} with its length and returns the status code, or what went wrong. */
    private static String post(int port, byte[] body) {
        try (SSLSocket socket = socket(port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mutate/pods HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + "Connection: close\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            try {
                out.write(body);
                out.flush();
            } catch (java.io.IOException e) {
                // refused before the body was sent: the answer may still be readable
            }
            return status(socket.getInputStream());
        } catch (java.io.IOException e) {
            return "io-error";
        }
    }

    /** Sends the headers and a little of a body that never finishes, then waits for the answer. */
    private static String slow(int port) {
        try (SSLSocket socket = socket(port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mutate/pods HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 100000\r\n\r\n{\"apiVersion\":")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return status(socket.getInputStream());
        } catch (java.io.IOException e) {
            return "io-error";
        }
    }

    private static String status(InputStream in) throws java.io.IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            line.append((char) b);
        }
        String[] parts = line.toString().split(" ");
        return parts.length > 1 ? parts[1] : "no-answer";
    }

    private static SSLSocket socket(int port) throws java.io.IOException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new TrustAll()}, null);
            SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
            socket.setSoTimeout(60_000);
            socket.startHandshake();
            return socket;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Review bodies whose shape is valid and whose object is garbage. */
    static final class WebhookBodies {
        private WebhookBodies() {}

        static byte[] wide(int bytes) {
            StringBuilder inner = new StringBuilder(bytes).append('[');
            while (inner.length() < bytes - 300) {
                inner.append("{},");
            }
            inner.setLength(inner.length() - 1);
            return around(inner.append(']').toString());
        }

        static byte[] deep(int depth) {
            return around("[".repeat(depth) + "]".repeat(depth));
        }

        private static byte[] around(String inner) {
            return ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"x\","
                            + "\"operation\":\"CREATE\",\"namespace\":\"" + NS + "\",\"kind\":{\"group\":\"\","
                            + "\"version\":\"v1\",\"kind\":\"Pod\"},\"object\":{\"kind\":\"Pod\",\"data\":" + inner
                            + "}}}")
                    .getBytes(StandardCharsets.UTF_8);
        }
    }
}

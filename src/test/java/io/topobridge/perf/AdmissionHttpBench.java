package io.topobridge.perf;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.render.InMemoryLookup;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.Fixtures;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.tls.Certificates;
import io.topobridge.tls.ServingCertificate;
import io.topobridge.tls.TlsSettings;
import io.topobridge.webhook.AdmissionWebhook;
import io.topobridge.webhook.PodMutator;
import io.topobridge.webhook.Reviews;
import io.topobridge.webhook.WebhookServer;
import io.topobridge.webhook.WebhookServerBuilder;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * End-to-end latency of one pod admission over HTTPS: the real webhook server (Vert.x, TLS), the real
 * PodAdmission and WorkloadTranslator, a Deployment-through-ReplicaSet pod of a managed gang (the longest
 * owner walk short of LWS). Warm-up, then {@code N} sequential requests on one keep-alive connection, then
 * the same from 4 concurrent clients; prints p50/p90/p99/max. Not a unit test: run it yourself with
 * {@code java -cp target/test-classes:target/classes:<deps> io.topobridge.perf.AdmissionHttpBench [N]};
 * {@code ... AdmissionHttpBench lws GROUPS N} compares pods of an LWS of GROUPS groups with those of a 2-group one.
 * With {@code serve PORT BODY_FILE} it only serves (and writes one review to BODY_FILE), so that an external
 * load generator measures from another process, e.g.
 * {@code wrk -t1 -c1 -d30s --latency -s post.lua https://127.0.0.1:PORT/mutate/pods}.
 */
public final class AdmissionHttpBench {

    private static final String WORKLOADS = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: qwen-decode
              namespace: llm
              annotations: {topobridge.io/highest-tier: rack, topobridge.io/mode: hard}
            spec:
              replicas: 8
              selector: {matchLabels: {app: decode}}
              template:
                metadata: {labels: {app: decode}}
                spec: {containers: [{name: vllm, image: vllm, resources: {limits: {nvidia.com/gpu: "4"}}}]}
            ---
            apiVersion: apps/v1
            kind: ReplicaSet
            metadata:
              name: qwen-decode-7c9d5
              namespace: llm
              ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: qwen-decode, uid: d1, controller: true}]
            """;

    private static final String POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"generateName":"qwen-decode-7c9d5-",
             "labels":{"app":"decode","pod-template-hash":"7c9d5"},
             "annotations":{"prometheus.io/scrape":"true","kubectl.kubernetes.io/default-container":"vllm"},
             "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"qwen-decode-7c9d5","uid":"r1",
               "controller":true,"blockOwnerDeletion":true}]},
             "spec":{"schedulerName":"default-scheduler","restartPolicy":"Always","terminationGracePeriodSeconds":30,
               "dnsPolicy":"ClusterFirst","serviceAccountName":"default",
               "containers":[{"name":"vllm","image":"vllm/vllm-openai:v0.9.0","args":["--model","Qwen/Qwen3-32B","--tensor-parallel-size","4"],
                 "ports":[{"containerPort":8000,"protocol":"TCP"}],
                 "env":[{"name":"HF_HOME","value":"/models"},{"name":"VLLM_LOGGING_LEVEL","value":"INFO"}],
                 "resources":{"limits":{"nvidia.com/gpu":"4","memory":"128Gi"},"requests":{"cpu":"16","memory":"128Gi","nvidia.com/gpu":"4"}},
                 "volumeMounts":[{"name":"models","mountPath":"/models"},{"name":"shm","mountPath":"/dev/shm"}]}],
               "volumes":[{"name":"models","persistentVolumeClaim":{"claimName":"models"}},{"name":"shm","emptyDir":{"medium":"Memory"}}]}}
            """;

    private AdmissionHttpBench() {}

    /** The webhook server with its mutator and a client that trusts it; {@link #close()} stops it. */
    private record Rig(
            Vertx vertx, WebhookServer server, PodMutator mutator, SSLContext tls, HttpClient client, URI uri, int port)
            implements AutoCloseable {

        static Rig start(int port) throws Exception {
            return start(port, WORKLOADS, Fixtures.defaultSettings());
        }

        /** The rig over the workloads of a YAML text, translated with {@code settings}. */
        static Rig start(int port, String workloads, WorkloadSettings settings) throws Exception {
            System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
            var serialization = new KubernetesSerialization();
            List<HasMetadata> objects = new ArrayList<>();
            for (String doc : workloads.split("(?m)^---\\s*$")) {
                objects.add(serialization.unmarshal(doc));
            }
            var tiers = TierCatalog.of(
                    List.of(new TierCatalog.Tier(1, "nvlink"), new TierCatalog.Tier(2, "rack")), List.of());
            var mutator = new PodMutator(
                    new PodAdmission(new AdmissionSettings("volcano"), Fixtures.translator(settings)::tie),
                    new AdmissionWebhook.Context(
                            () -> tiers, new InMemoryLookup(objects), serialization, Set.of("kube-system")));

            Instant now = Instant.now();
            var ca = Certificates.newCa("bench-ca", now, Duration.ofDays(2));
            var serving =
                    Certificates.issueServing(ca, TlsSettings.serviceDnsNames("hook", "ops"), now, Duration.ofDays(1));
            var certificate =
                    new ServingCertificate(serving.certificate(), serving.key(), List.of(ca.certificate()), ca.key());
            Vertx vertx = Vertx.vertx();
            var server =
                    WebhookServerBuilder.webhookServer(vertx, List.of(mutator)).build();
            int bound = server.start("127.0.0.1", port, certificate);

            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("ca", ca.certificate());
            var factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, factory.getTrustManagers(), null);
            HttpClient client = HttpClient.newBuilder()
                    .sslContext(tls)
                    .version(HttpClient.Version.HTTP_1_1)
                    .build();
            return new Rig(
                    vertx,
                    server,
                    mutator,
                    tls,
                    client,
                    URI.create("https://127.0.0.1:" + bound + PodMutator.PATH),
                    bound);
        }

        @Override
        public void close() {
            server.stop();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** One request of a warm-up. */
    @FunctionalInterface
    interface Request {
        void send() throws Exception;
    }

    /** A warm-up ends once a block of this many requests spends less than {@link #SETTLED} of its time compiling. */
    static final int WARMUP_BLOCK = 1_000;

    static final double SETTLED = 0.02;

    /**
     * Sends at least {@code minimum} requests, then more in blocks until the JIT compilers have settled: the time
     * they spent compiling during one block (summed over their threads) is under {@link #SETTLED} of the block's
     * wall time; never more than 20 times {@code minimum}. Latencies measured while the compilers still work share
     * the cores with them: on 2 cores after 5,000 requests, 10,000 measured ones saw 2,139 compilations (686 by C2)
     * and a p99 of 2.5-2.9 ms; after 30,000, 105 compilations and 0.6 ms. Returns how many requests were sent.
     */
    static int warmUp(int minimum, Request request) throws Exception {
        var jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        int block = block(minimum);
        int sent = 0;
        while (sent < 20 * minimum) {
            long compiling = jit.getTotalCompilationTime();
            long start = System.nanoTime();
            for (int i = 0; i < block; i++) {
                request.send();
            }
            sent += block;
            double wallMillis = (System.nanoTime() - start) / 1e6;
            if (sent >= minimum && jit.getTotalCompilationTime() - compiling < SETTLED * wallMillis) {
                break;
            }
        }
        return sent;
    }

    /** The requests of one warm-up block: {@link #WARMUP_BLOCK}, or {@code minimum} if smaller. */
    static int block(int minimum) {
        return Math.min(WARMUP_BLOCK, Math.max(1, minimum));
    }

    /** Latencies in milliseconds, measured after {@code warmedUp} unmeasured requests. */
    public record Measured(double[] millis, int warmedUp) {}

    /**
     * Latencies in milliseconds of {@code n} sequential admissions over HTTPS on one keep-alive connection, after at
     * least {@code warmup} unmeasured ones and until the JIT has settled ({@link #warmUp}; the results file's
     * {@code admission_p99_ms}).
     */
    public static Measured sequentialMillis(int warmup, int n) throws Exception {
        try (Rig rig = Rig.start(0)) {
            String first = post(rig.client(), rig.uri());
            if (!first.contains("\"patch\"")) {
                throw new IllegalStateException("expected a patch, got " + first);
            }
            int warmedUp = warmUp(warmup, () -> post(rig.client(), rig.uri()));
            double[] out = new double[n];
            for (int i = 0; i < n; i++) {
                long t = System.nanoTime();
                post(rig.client(), rig.uri());
                out[i] = (System.nanoTime() - t) / 1e6;
            }
            return new Measured(out, warmedUp);
        }
    }

    /** A LeaderWorkerSet of {@code groups} groups of two GPU pods, tier nvlink. */
    private static String lws(int groups) {
        return """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata:
                  name: engine
                  namespace: llm
                  uid: l1
                  annotations: {topobridge.io/highest-tier: nvlink}
                spec:
                  replicas: %d
                  leaderWorkerTemplate:
                    size: 2
                    workerTemplate:
                      spec: {containers: [{name: vllm, image: vllm, resources: {limits: {nvidia.com/gpu: "4"}}}]}
                """.formatted(groups);
    }

    /** A review of the worker pod of one group of LWS {@code engine}, as LWS's controller creates it. */
    private static String lwsPodReview(int group) {
        String pod = """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"engine-%d-1","namespace":"llm",
                 "labels":{"leaderworkerset.sigs.k8s.io/name":"engine","leaderworkerset.sigs.k8s.io/group-index":"%d",
                   "leaderworkerset.sigs.k8s.io/worker-index":"1"},
                 "ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"engine-%d","uid":"s1",
                   "controller":true}]},
                 "spec":{"containers":[{"name":"vllm","image":"vllm","resources":{"limits":{"nvidia.com/gpu":"4"}}}]}}
                """.formatted(group, group, group);
        return """
                {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"%s",
                 "kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},
                 "namespace":"llm","operation":"CREATE","userInfo":{"username":"system:serviceaccount:lws-system:lws"},
                 "object":%s}}
                """.formatted(UUID.randomUUID(), pod);
    }

    /**
     * Latencies in milliseconds of {@code n} sequential admissions over HTTPS of worker pods of an LWS with
     * {@code groups} groups (each pod of a group in the middle of it), the bound on gangs per workload raised to let it
     * in: what admitting one pod costs against the size of its workload (the results file's
     * {@code admission_lws_100k_p99_ms}); warmed up as {@link #warmUp} does.
     */
    public static double[] lwsMillis(int groups, int warmup, int n) throws Exception {
        var settings =
                Fixtures.settings().maxGangsPerWorkload(Math.max(groups, 1)).build();
        try (Rig rig = Rig.start(0, lws(groups), settings)) {
            byte[] body = lwsPodReview(groups / 2).getBytes(StandardCharsets.UTF_8);
            String first = post(rig.client(), rig.uri(), body);
            if (!first.contains("\"patch\"")) {
                throw new IllegalStateException("expected a patch tying the pod to its group, got " + first);
            }
            warmUp(warmup, () -> post(rig.client(), rig.uri(), body));
            double[] out = new double[n];
            for (int i = 0; i < n; i++) {
                long t = System.nanoTime();
                post(rig.client(), rig.uri(), body);
                out[i] = (System.nanoTime() - t) / 1e6;
            }
            return out;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("lws")) {
            // AdmissionHttpBench lws GROUPS N: pods of an LWS of GROUPS groups against one of 2, in one run
            int groups = Integer.parseInt(args[1]);
            int n = Integer.parseInt(args[2]);
            double[] small = lwsMillis(2, n / 2, n);
            double[] huge = lwsMillis(groups, n / 2, n);
            System.out.printf(
                    "LWS pod admission over HTTPS, n=%d: 2 groups p50=%.3f p99=%.3f ms; %d groups p50=%.3f p99=%.3f ms;"
                            + " p99 ratio %.2f%n",
                    n,
                    BenchResults.median(small),
                    BenchResults.percentile(small, 0.99),
                    groups,
                    BenchResults.median(huge),
                    BenchResults.percentile(huge, 0.99),
                    BenchResults.percentile(huge, 0.99) / BenchResults.percentile(small, 0.99));
            System.exit(0);
        }
        boolean serveOnly = args.length > 0 && args[0].equals("serve");
        int n = !serveOnly && args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Rig rig = Rig.start(serveOnly ? Integer.parseInt(args[1]) : 0);
        if (serveOnly) {
            java.nio.file.Files.writeString(java.nio.file.Path.of(args[2]), review());
            System.out.println("serving on " + rig.port());
            Thread.currentThread().join();
        }
        PodMutator mutator = rig.mutator();
        SSLContext tls = rig.tls();
        HttpClient client = rig.client();
        URI uri = rig.uri();

        // sanity: the answer carries a patch that ties the pod to its gang
        String first = post(client, uri);
        if (!first.contains("\"patch\"")) {
            throw new IllegalStateException("expected a patch, got " + first);
        }
        System.out.println("answer: " + first);

        // in-process cost of the admission itself (parse, admit, diff), without HTTP and TLS
        byte[] body = review().getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 20_000; i++) {
            mutator.review(Reviews.parse(body));
        }
        long[] inProcess = new long[n];
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            mutator.review(Reviews.parse(body));
            inProcess[i] = System.nanoTime() - t;
        }
        report("in-process review (parse+admit+diff)", inProcess);

        int warmedUp = warmUp(5_000, () -> post(client, uri));
        System.out.printf("%-40s %d requests%n", "HTTPS warm-up until the JIT settled", warmedUp);
        long[] sequential = new long[n];
        long cpuBefore = processCpu();
        long serverBefore = serverCpu();
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            post(client, uri);
            sequential[i] = System.nanoTime() - t;
        }
        long cpu = processCpu() - cpuBefore;
        long serverCpu = serverCpu() - serverBefore;
        report("HTTPS, 1 client, keep-alive", sequential);
        // CPU time is what a request costs whatever else runs on the machine; wall-clock tails are not
        System.out.printf(
                "%-40s %.3f ms per request (client, server, TLS, GC and JIT)%n", "  process CPU time", cpu / 1e6 / n);
        System.out.printf(
                "%-40s %.3f ms per request (TLS, HTTP, parse, admit, diff, answer)%n",
                "  server event-loop CPU time", serverCpu / 1e6 / n);

        int clients = 4;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<long[]>> futures = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            futures.add(pool.submit(() -> {
                HttpClient own = HttpClient.newBuilder()
                        .sslContext(tls)
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
                long[] out = new long[n / clients];
                for (int i = 0; i < 1000; i++) {
                    post(own, uri);
                }
                for (int i = 0; i < out.length; i++) {
                    long t = System.nanoTime();
                    post(own, uri);
                    out[i] = System.nanoTime() - t;
                }
                return out;
            }));
        }
        long[] concurrent = new long[0];
        for (Future<long[]> f : futures) {
            long[] part = f.get();
            long[] merged = Arrays.copyOf(concurrent, concurrent.length + part.length);
            System.arraycopy(part, 0, merged, concurrent.length, part.length);
            concurrent = merged;
        }
        pool.shutdown();
        report("HTTPS, " + clients + " concurrent clients", concurrent);

        rig.close();
        System.exit(0);
    }

    /** CPU time of the Vert.x event-loop threads, where the webhook server does all of its work. */
    private static long serverCpu() {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long total = 0;
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("vert.x-eventloop-thread")) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static String review() {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\""
                + UUID.randomUUID() + "\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
                + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},\"namespace\":\"llm\","
                + "\"operation\":\"CREATE\",\"userInfo\":{\"username\":\"system:serviceaccount:kube-system:replicaset-controller\"},"
                + "\"object\":" + POD + ",\"oldObject\":null,\"dryRun\":false}}";
    }

    private static String post(HttpClient client, URI uri) throws Exception {
        return post(client, uri, review().getBytes(StandardCharsets.UTF_8));
    }

    private static String post(HttpClient client, URI uri, byte[] body) throws Exception {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(uri)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("HTTP " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private static void report(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf(
                "%-40s n=%d  p50=%.3f ms  p90=%.3f ms  p99=%.3f ms  max=%.3f ms%n",
                what,
                sorted.length,
                pct(sorted, 0.50),
                pct(sorted, 0.90),
                pct(sorted, 0.99),
                sorted[sorted.length - 1] / 1e6);
    }

    private static double pct(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
}

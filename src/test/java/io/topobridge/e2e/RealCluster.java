package io.topobridge.e2e;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.topobridge.testing.Folders;
import io.topobridge.testing.FreePort;
import io.topobridge.testing.Upstream;
import io.topobridge.tls.Certificates;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A real Kubernetes control plane on loopback for the end-to-end tier, every component built from its Go
 * module by {@code src/test/go/build.sh}: etcd, kube-apiserver (RBAC, service-account tokens, an audit log of
 * every write, and of every request, reads included, of the ServiceAccounts in {@value #BRIDGE_NAMESPACE}),
 * kube-controller-manager (Deployments, ReplicaSets, StatefulSets, garbage collection, namespaces, service accounts), Volcano's scheduler (with {@code network-topology-aware}) and its queue and
 * podgroup controllers, the LeaderWorkerSet controller (also DisaggregatedSet) with its webhooks, and the
 * AIBrix controller manager. CRDs are the ones in the fetched modules. There are no kubelets: Nodes are API
 * objects with capacity and labels, and {@link FakeKubelet} reports bound pods running.
 *
 * <p>One cluster serves every class a JVM (a fork of the test run) runs ({@link #get()}); processes stop when the
 * JVM ends and their logs stay under {@code <topobridge.e2e.run>/logs} ({@code target/e2e/run-<fork>/logs} in a
 * Maven run, {@code target/e2e/run/logs} otherwise).
 */
public final class RealCluster implements AutoCloseable {

    /** Identity of the test's own client (cluster admin). */
    public static final String ADMIN = "e2e-admin";
    /** Identity the bridge runs as unless a test gives it another (cluster admin; the chart's RBAC is tested apart). */
    public static final String BRIDGE = "topobridge";
    /** Namespace of the bridge's webhook Service and certificate Secret. */
    public static final String BRIDGE_NAMESPACE = "topobridge-system";

    public static final String VOLCANO_NAMESPACE = "volcano-system";
    public static final String SCHEDULER_CONFIGMAP = "volcano-scheduler-configmap";
    public static final String SCHEDULER_CONF_KEY = "volcano-scheduler.conf";
    static final String LWS_NAMESPACE = "lws-system";

    /**
     * Volcano's scheduler configuration for the tests: gang and sub-gang placement and the network-topology
     * plugin, so hard topology is enforced.
     */
    public static final String SCHEDULER_CONF = """
            actions: "enqueue, allocate, backfill"
            tiers:
            - plugins:
              - name: priority
              - name: gang
                enablePreemptable: false
              - name: conformance
            - plugins:
              - name: drf
                enablePreemptable: false
              - name: predicates
              - name: proportion
              - name: nodeorder
              - name: binpack
              - name: network-topology-aware
                arguments:
                  weight: 10
            """;

    /**
     * The same with GPUs bin-packed, at the node ({@code binpack}) and across HyperNodes
     * ({@code hypernode.binpack.resources}: without it Volcano ranks the domains a gang could take by CPU and memory
     * only). Chosen with {@code -Dtopobridge.e2e.schedulerGpuBinpack=true}.
     */
    public static final String SCHEDULER_CONF_GPU_BINPACK =
            SCHEDULER_CONF.replace("  - name: binpack\n", """
                      - name: binpack
                        arguments:
                          binpack.resources: nvidia.com/gpu
                          binpack.resources.nvidia.com/gpu: 10
                    """).replace("      weight: 10\n", """
                          weight: 10
                          hypernode.binpack.resources: nvidia.com/gpu
                          hypernode.binpack.resources.nvidia.com/gpu: 10
                    """);

    /** The scheduler configuration this cluster starts with. */
    public static String schedulerConf() {
        return Boolean.getBoolean("topobridge.e2e.schedulerGpuBinpack") ? SCHEDULER_CONF_GPU_BINPACK : SCHEDULER_CONF;
    }

    /**
     * Writes kube-scheduler's configuration for the peers' runs (Kueue's and the native one) into the run folder and
     * returns its path: the identity {@code user}, leader election off, and its default scores, or with
     * {@code -Dtopobridge.e2e.schedulerGpuBinpack=true} GPUs bin-packed as Volcano's are ({@code NodeResourcesFit}
     * scoring {@code MostAllocated}, GPUs weighted 10 beside CPU and memory; the native placement of a constrained
     * group scores its candidates with the same plugin).
     */
    public Path kubeSchedulerConfig(String user) {
        String conf = """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                clientConnection:
                  kubeconfig: %s
                leaderElection:
                  leaderElect: false
                """.formatted(kubeconfig(user));
        if (Boolean.getBoolean("topobridge.e2e.schedulerGpuBinpack")) {
            conf += """
                    profiles:
                    - schedulerName: default-scheduler
                      pluginConfig:
                      - name: NodeResourcesFit
                        args:
                          scoringStrategy:
                            type: MostAllocated
                            resources:
                            - {name: cpu, weight: 1}
                            - {name: memory, weight: 1}
                            - {name: nvidia.com/gpu, weight: 10}
                    """;
        }
        Path file = runDir().resolve("kube-scheduler.yaml");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, conf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    private static RealCluster instance;

    private final Path root = Path.of("target", "e2e").toAbsolutePath();
    /** Where a cluster keeps its data, logs and kubeconfigs ({@code topobridge.e2e.run}; another for a second one). */
    private final Path run;
    /** What a side cluster changes (another Kubernetes with its own scheduler); null for the tier's cluster. */
    private final Side side;

    private final Path bin = root.resolve("bin");
    private final Map<String, Component> components = new LinkedHashMap<>();
    private final Map<String, String> tokens = new LinkedHashMap<>();
    private final int apiPort = FreePort.find();
    private final int bridgeWebhookPort = FreePort.find();
    private Certificates.Issued ca;
    private String caPem;
    private KubernetesClient admin;
    private AuditLog audit;
    private FakeKubelet kubelet;
    private final LwsComponent lws = new LwsComponent(this, root);
    private final VolcanoComponent volcano = new VolcanoComponent(this, root, bin);
    private final KueueComponent kueue = new KueueComponent(this);
    private Duration startup;

    private RealCluster() {
        this(null);
    }

    private RealCluster(Side side) {
        this.side = side;
        Path main = Path.of(System.getProperty(
                        "topobridge.e2e.run", root.resolve("run").toString()))
                .toAbsolutePath();
        this.run = side == null ? main : side.run(main);
    }

    /**
     * A second cluster beside the tier's, with what {@code side} changes: its own folder, binaries and flags, and its
     * own components in place of Volcano's, LeaderWorkerSet's and AIBrix's. Started at once; stopped when the JVM
     * ends.
     */
    static RealCluster startSide(Side side) {
        RealCluster cluster = new RealCluster(side);
        try {
            cluster.start();
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "side-cluster-stop"));
        return cluster;
    }

    /**
     * What a side cluster changes: where it keeps its files, binaries taken from elsewhere, flags added to a
     * component's command line, and the components it starts in place of Volcano's, LeaderWorkerSet's and AIBrix's.
     */
    interface Side {

        /** The folder of its data and logs, given the tier's cluster's. */
        Path run(Path main);

        /** Where the binary {@code name} is taken from, if not from the tier's build. */
        Optional<Path> binary(String name);

        /** Flags added to the command line of the component {@code name}. */
        List<String> flags(String name);

        /** Starts its own components once the API server and the controller manager run. */
        void start(RealCluster cluster);
    }

    /** {@link #volcanoMinor()} when the tier runs the Volcano that {@code src/test/go/build.sh} pins. */
    public static final String PINNED_VOLCANO = VolcanoComponent.PINNED;

    /** The kube-apiserver version this tier runs ({@code -Dtopobridge.e2e.kubernetes}; docs/compatibility.md). */
    public static String kubernetesVersion() {
        return KubernetesMinor.version();
    }

    /** Whether this tier's kube-apiserver serves {@code resource.k8s.io/v1} (Kubernetes 1.34 and later). */
    public static boolean servesDra() {
        return KubernetesMinor.minorNumber() >= 34;
    }

    /** The Volcano minor this tier runs ({@code -Dtopobridge.e2e.volcano}), or {@value #PINNED_VOLCANO}. */
    public static String volcanoMinor() {
        return VolcanoComponent.minor();
    }

    /** The cluster of this test run, started on first use. */
    public static synchronized RealCluster get() {
        if (instance == null) {
            RealCluster cluster = new RealCluster();
            try {
                cluster.start();
            } catch (RuntimeException | Error e) {
                cluster.close();
                throw e;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "real-cluster-stop"));
            instance = cluster;
        }
        return instance;
    }

    // ---------------------------------------------------------------- start-up

    private void start() {
        Instant began = Instant.now();
        if (!Files.isRegularFile(bin.resolve(".complete"))) {
            throw new IllegalStateException("the real-cluster binaries are missing under " + bin
                    + ": they are built by ./mvnw verify (src/test/go/build.sh binaries target/e2e); "
                    + "pass -DskipE2E to skip the end-to-end tier");
        }
        try {
            Folders.delete(run);
            Files.createDirectories(run.resolve("logs"));
            writePki();
            writeCredentials();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        startEtcd();
        startApiServer();
        admin = clientFor(ADMIN);
        audit = new AuditLog(run.resolve("audit.log"));
        installCrds();
        createSystemObjects();
        startControllerManager();
        if (side != null) {
            startSideComponents(began);
            return;
        }
        volcano.start();
        lws.start(false);
        AibrixComponent.start(this);
        startKubelet();
        waitFor("Volcano's default queue to be open", Duration.ofSeconds(90), () -> {
            GenericKubernetesResource q = admin.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "Queue")
                    .withName("default")
                    .get();
            return q != null
                    && "Open"
                            .equals(String.valueOf(
                                    ((Map<?, ?>) q.getAdditionalProperties().getOrDefault("status", Map.of()))
                                            .get("state")));
        });
        startup = Duration.between(began, Instant.now());
        System.out.printf(
                "real cluster up in %d ms: API server https://localhost:%d, logs in %s%n",
                startup.toMillis(), apiPort, run.resolve("logs"));
    }

    /** Starts the fake kubelet and waits for the default ServiceAccount (the controller manager's first sign). */
    private void startKubelet() {
        kubelet = new FakeKubelet(admin);
        kubelet.start();
        waitFor(
                "the default ServiceAccount",
                Duration.ofSeconds(60),
                () -> admin.serviceAccounts()
                                .inNamespace("default")
                                .withName("default")
                                .get()
                        != null);
    }

    private void startSideComponents(Instant began) {
        side.start(this);
        startKubelet();
        startup = Duration.between(began, Instant.now());
        System.out.printf(
                "side cluster up in %d ms: API server https://localhost:%d, logs in %s%n",
                startup.toMillis(), apiPort, run.resolve("logs"));
    }

    private void writePki() throws IOException {
        Instant now = Instant.now();
        ca = Certificates.newCa("topobridge-e2e-ca", now, Duration.ofDays(2));
        caPem = Certificates.pem(List.of(ca.certificate()));
        var serving = Certificates.issueServing(
                ca,
                List.of(
                        "localhost",
                        "kubernetes",
                        "kubernetes.default",
                        "kubernetes.default.svc",
                        "kubernetes.default.svc.cluster.local"),
                now,
                Duration.ofDays(2));
        Files.writeString(run.resolve("ca.crt"), caPem);
        Files.writeString(run.resolve("apiserver.crt"), Certificates.pem(List.of(serving.certificate())) + caPem);
        Files.writeString(run.resolve("apiserver.key"), Certificates.keyPem(serving.key()));
        var saKey = Certificates.newCa("service-accounts", now, Duration.ofDays(2));
        Files.writeString(run.resolve("sa.key"), Certificates.keyPem(saKey.key()));
        Files.writeString(
                run.resolve("sa.pub"),
                "-----BEGIN PUBLIC KEY-----\n"
                        + java.util.Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                                .encodeToString(
                                        saKey.certificate().getPublicKey().getEncoded())
                        + "\n-----END PUBLIC KEY-----\n");
    }

    private void writeCredentials() throws IOException {
        StringBuilder csv = new StringBuilder();
        for (String user : List.of(
                ADMIN,
                BRIDGE,
                "kube-controller-manager",
                "volcano",
                "lws",
                "aibrix",
                "fake-kubelet",
                "kueue",
                "kube-scheduler")) {
            String token = UUID.randomUUID().toString();
            tokens.put(user, token);
            csv.append(token).append(',').append(user).append(',').append(user).append(",\"system:masters\"\n");
            Files.writeString(kubeconfig(user), kubeconfigText(token));
        }
        Files.writeString(run.resolve("tokens.csv"), csv);
        Files.writeString(run.resolve("audit-policy.yaml"), """
                apiVersion: audit.k8s.io/v1
                kind: Policy
                omitStages: ["RequestReceived", "ResponseStarted"]
                rules:
                - level: Metadata
                  userGroups: ["system:serviceaccounts:%s"]
                - level: None
                  verbs: ["get", "list", "watch"]
                - level: None
                  resources:
                  - group: coordination.k8s.io
                    resources: ["leases"]
                - level: RequestResponse
                  users: ["topobridge"]
                  verbs: ["patch"]
                - level: Metadata
                """.formatted(BRIDGE_NAMESPACE));
    }

    private String kubeconfigText(String token) {
        return kubeconfigText(url(), run.resolve("ca.crt"), token);
    }

    /**
     * A kubeconfig of the one cluster at {@code server} (trusting the CA file {@code ca}, unless it is null) and one
     * user with {@code token}, in namespace default.
     */
    static String kubeconfigText(String server, Path ca, String token) {
        String trust = ca == null ? "" : "    certificate-authority: " + ca + "\n";
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: e2e
                  cluster:
                    server: %s
                %susers:
                - name: user
                  user:
                    token: %s
                contexts:
                - name: e2e
                  context: {cluster: e2e, user: user, namespace: default}
                current-context: e2e
                """.formatted(server, trust, token);
    }

    private void startEtcd() {
        int client = FreePort.find();
        int peer = FreePort.find();
        String clientUrl = "http://127.0.0.1:" + client;
        String peerUrl = "http://127.0.0.1:" + peer;
        launch(
                "etcd",
                List.of(
                        binary("etcd"),
                        "--name=e2e",
                        "--data-dir=" + run.resolve("etcd"),
                        "--listen-client-urls=" + clientUrl,
                        "--advertise-client-urls=" + clientUrl,
                        "--listen-peer-urls=" + peerUrl,
                        "--initial-advertise-peer-urls=" + peerUrl,
                        "--initial-cluster=e2e=" + peerUrl,
                        "--unsafe-no-fsync=true",
                        "--log-level=warn"),
                Map.of());
        etcdUrl = clientUrl;
        waitFor("etcd", Duration.ofSeconds(30), () -> httpOk(clientUrl + "/health", null));
    }

    private String etcdUrl;

    private void startApiServer() {
        launch(
                "kube-apiserver",
                List.of(
                        binary("kube-apiserver"),
                        "--etcd-servers=" + etcdUrl,
                        "--bind-address=127.0.0.1",
                        "--secure-port=" + apiPort,
                        "--tls-cert-file=" + run.resolve("apiserver.crt"),
                        "--tls-private-key-file=" + run.resolve("apiserver.key"),
                        "--client-ca-file=" + run.resolve("ca.crt"),
                        "--token-auth-file=" + run.resolve("tokens.csv"),
                        "--authorization-mode=Node,RBAC",
                        "--service-account-issuer=https://kubernetes.default.svc",
                        "--service-account-key-file=" + run.resolve("sa.pub"),
                        "--service-account-signing-key-file=" + run.resolve("sa.key"),
                        "--api-audiences=https://kubernetes.default.svc",
                        "--service-cluster-ip-range=10.96.0.0/16",
                        "--allow-privileged=true",
                        "--audit-log-path=" + run.resolve("audit.log"),
                        "--audit-log-format=json",
                        "--audit-policy-file=" + run.resolve("audit-policy.yaml"),
                        "--audit-log-mode=blocking",
                        "--enable-priority-and-fairness=false",
                        // it taints every new Node not-ready until a kubelet reports; there are no kubelets here
                        "--disable-admission-plugins=TaintNodesByCondition",
                        "--cert-dir=" + run.resolve("apiserver-certs"),
                        "-v=1"),
                Map.of());
        waitFor("kube-apiserver", Duration.ofSeconds(120), () -> httpOk(url() + "/readyz", tokens.get(ADMIN)));
    }

    private void installCrds() {
        List<Path> files = new ArrayList<>();
        files.addAll(yamlFiles(volcano.module().resolve("config/crd/volcano/bases")));
        files.addAll(yamlFiles(Upstream.module("lws").resolve("config/crd/bases")));
        for (String kind : List.of("stormservices", "rolesets", "podsets")) {
            files.add(Upstream.module("aibrix")
                    .resolve("config/crd/orchestration/orchestration.aibrix.ai_" + kind + ".yaml"));
        }
        // AIBrix's PodAutoscaler: the bridge reads how far it may grow a gang
        files.add(
                Upstream.module("aibrix").resolve("config/crd/autoscaling/autoscaling.aibrix.ai_podautoscalers.yaml"));
        installCrds(files);
        // Volcano's HyperNode admission policy, as its chart installs it
        try (InputStream in = Files.newInputStream(
                volcano.module().resolve("installer/helm/chart/volcano/policy/hypernodes-validating.yaml"))) {
            for (HasMetadata object : admin.load(in).items()) {
                admin.resource(object).create();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates the CRDs in {@code files}, or replaces them where installed, and waits until each is established. */
    void installCrds(List<Path> files) {
        List<CustomResourceDefinition> crds = new ArrayList<>();
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                for (HasMetadata object : admin.load(in).items()) {
                    if (object instanceof CustomResourceDefinition crd) {
                        crds.add(crd);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        installCrdObjects(crds);
    }

    /** Creates the CRDs, or replaces them where installed, and waits until each is established. */
    void installCrdObjects(List<CustomResourceDefinition> crds) {
        List<String> names = new ArrayList<>();
        for (CustomResourceDefinition crd : crds) {
            // some CRDs exceed the client-side apply annotation limit: create or replace, never apply client-side
            var installed = admin.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName(crd.getMetadata().getName())
                    .get();
            if (installed == null) {
                admin.resource(crd).create();
            } else {
                crd.getMetadata().setResourceVersion(installed.getMetadata().getResourceVersion());
                admin.resource(crd).update();
            }
            names.add(crd.getMetadata().getName());
        }
        for (String name : names) {
            waitFor("CRD " + name + " established", Duration.ofSeconds(60), () -> {
                var crd = admin.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(name)
                        .get();
                return crd != null
                        && crd.getStatus() != null
                        && crd.getStatus().getConditions().stream()
                                .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
            });
        }
    }

    private void createSystemObjects() {
        for (String ns : List.of(VOLCANO_NAMESPACE, LWS_NAMESPACE, BRIDGE_NAMESPACE, "aibrix-system")) {
            admin.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .endMetadata()
                            .build())
                    .create();
        }
        admin.configMaps()
                .inNamespace(VOLCANO_NAMESPACE)
                .resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(SCHEDULER_CONFIGMAP)
                        .endMetadata()
                        .addToData(SCHEDULER_CONF_KEY, schedulerConf())
                        .build())
                .create();
        // webhook Services of in-cluster components resolve to this machine: the API server dials
        // https://localhost:<port> and still checks the certificate against <service>.<namespace>.svc
        admin.services()
                .inNamespace(LWS_NAMESPACE)
                .resource(externalName("lws-webhook-service", lws.webhookPort()))
                .create();
        // LWS's certificate rotator fills a Secret its manifests create empty
        admin.secrets()
                .inNamespace(LWS_NAMESPACE)
                .resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
                        .withNewMetadata()
                        .withName("lws-webhook-server-cert")
                        .endMetadata()
                        .build())
                .create();
    }

    /** Replaces the bridge's webhook Service by one that sends the API server's webhook calls to {@code port}. */
    public void pointWebhookServiceAt(int port) {
        var services = client().services().inNamespace(BRIDGE_NAMESPACE);
        services.withName("topobridge-webhook").delete();
        waitFor(
                "the old webhook Service to go",
                Duration.ofSeconds(30),
                () -> services.withName("topobridge-webhook").get() == null);
        services.resource(externalName("topobridge-webhook", port)).create();
    }

    /** A Service that sends the API server's webhook calls for {@code name} to this machine's {@code port}. */
    public static io.fabric8.kubernetes.api.model.Service externalName(String name, int port) {
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withType("ExternalName")
                .withExternalName("localhost")
                .addNewPort()
                .withName("https")
                .withPort(port)
                .withNewTargetPort(port)
                .endPort()
                .endSpec()
                .build();
    }

    private void startControllerManager() {
        launch(
                "kube-controller-manager",
                List.of(
                        binary("kube-controller-manager"),
                        "--kubeconfig=" + kubeconfig("kube-controller-manager"),
                        "--leader-elect=false",
                        "--controllers=deployment-controller,replicaset-controller,statefulset-controller,"
                                + "garbage-collector-controller,namespace-controller,serviceaccount-controller",
                        "--bind-address=127.0.0.1",
                        "--secure-port=" + FreePort.find(),
                        "--concurrent-gc-syncs=5",
                        "-v=1"),
                Map.of());
    }

    /**
     * Starts Volcano's own HyperNode controller (label discovery, configured by {@code volcano-controller-configmap}
     * in {@value #VOLCANO_NAMESPACE}); a running one is restarted. See {@link VolcanoComponent}.
     */
    public synchronized void startVolcanoHyperNodeController() {
        volcano.startHyperNodeController();
    }

    /** Stops Volcano's HyperNode controller, if running. */
    public synchronized void stopVolcanoHyperNodeController() {
        volcano.stopHyperNodeController();
    }

    /**
     * (Re)starts the LeaderWorkerSet controller, with or without its Volcano gang provider (which then makes a
     * PodGroup per LWS group and stamps pods with it); see {@link LwsComponent}.
     */
    public synchronized void startLws(boolean volcanoProvider) {
        lws.start(volcanoProvider);
    }

    public boolean lwsVolcanoProvider() {
        return lws.volcanoProvider();
    }

    /** Kueue with Topology-Aware Scheduling and kube-scheduler, not running until started ({@link KueueComponent}). */
    public KueueComponent kueue() {
        return kueue;
    }

    /** The LeaderWorkerSet controller, to replace its release in an upgrade test. */
    LwsComponent lws() {
        return lws;
    }

    // ---------------------------------------------------------------- the bridge

    private Bridge bridge;

    /** The run's default bridge (identity {@value #BRIDGE}, every feature on), started and ready. */
    public synchronized Bridge bridge() {
        if (bridge == null || !bridge.process().alive()) {
            if (bridge != null) {
                bridge.stop();
            }
            // the same webhook port across restarts, as a Deployment's pods keep theirs
            bridge = Bridge.on(this, "topobridge")
                    .webhookPort(bridgeWebhookPort)
                    .start()
                    .awaitReady(Duration.ofSeconds(120));
        }
        return bridge;
    }

    /**
     * Kills kube-apiserver (SIGKILL, as a crashed control-plane node) and starts it again on the same port,
     * certificates and etcd; every client has to reconnect. Returns how long it did not answer.
     */
    public Duration restartApiServer() {
        Component api = component("kube-apiserver");
        long started = System.nanoTime();
        api.kill();
        api.start();
        waitFor(
                "kube-apiserver after its restart",
                Duration.ofSeconds(120),
                () -> httpOk(url() + "/readyz", tokens.get(ADMIN)));
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /** Stops the default bridge (a test that runs bridges of its own first stops it). */
    public synchronized void stopBridge() {
        if (bridge != null) {
            bridge.stop();
            bridge = null;
        }
    }

    /**
     * Waits until {@code user} has written nothing for {@code quiet} (read from the audit log), at most
     * {@code timeout}, and returns the audit mark at that point.
     */
    public long awaitQuiet(String user, Duration quiet, Duration timeout) {
        return awaitQuiet(user, w -> w.user().equals(user), quiet, timeout);
    }

    /**
     * Waits until no write that {@code writes} accepts has been made for {@code quiet} (read from the audit log),
     * at most {@code timeout}, and returns the audit mark at that point; {@code who} names them in the failure.
     */
    public long awaitQuiet(
            String who, java.util.function.Predicate<AuditLog.Write> writes, Duration quiet, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long mark = audit.mark();
        long quietSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            sleep(Duration.ofMillis(250));
            long now = audit.mark();
            if (!audit.writesSince(mark, writes).isEmpty()) {
                quietSince = System.nanoTime();
            }
            mark = now;
            if (System.nanoTime() - quietSince >= quiet.toNanos()) {
                return mark;
            }
        }
        throw new IllegalStateException(who + " kept writing for " + timeout.toSeconds() + " s");
    }

    /**
     * Waits until Volcano's scheduler has closed {@code sessions} whole scheduling sessions that began after this
     * call (one more than that counted from now, as a session may be under way), at most {@code timeout}; returns
     * how long that took. What a negative placement assertion waits for: every pod created before the call was seen
     * by that many sessions, whatever the machine's load.
     */
    public Duration awaitSchedulingSessions(int sessions, Duration timeout) {
        long start = System.nanoTime();
        long from = volcano.sessions();
        waitFor(
                sessions + " scheduling sessions of vc-scheduler",
                timeout,
                () -> volcano.sessions() >= from + sessions + 1);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * How many scheduling sessions Volcano's scheduler has closed since it started: for a test that counts sessions
     * while it watches something else ({@link #awaitSchedulingSessions} only waits).
     */
    public long schedulingSessions() {
        return volcano.sessions();
    }

    /**
     * Volcano's controller ConfigMap turning on its own label discovery: HyperNodes of {@code type} from the node
     * labels, the top tier's first.
     */
    public static ConfigMap labelDiscovery(String type, String... nodeLabels) {
        StringBuilder conf = new StringBuilder("""
                networkTopologyDiscovery:
                - source: label
                  enabled: true
                  config:
                    networkTopologyTypes:
                """);
        conf.append("      ").append(type).append(":\n");
        for (String label : nodeLabels) {
            conf.append("      - nodeLabel: ").append(label).append('\n');
        }
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName("volcano-controller-configmap")
                .endMetadata()
                .addToData("volcano-controller.conf", conf.toString())
                .build();
    }

    /** A token of the ServiceAccount, valid for an hour. */
    public static String token(KubernetesClient admin, String namespace, String serviceAccount) {
        return admin.serviceAccounts()
                .inNamespace(namespace)
                .withName(serviceAccount)
                .tokenRequest(new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(3600L)
                        .endSpec()
                        .build())
                .getStatus()
                .getToken();
    }

    /** The cluster's nodes (without their managed fields) as one YAML file in the run folder, for {@code render}. */
    public String writeNodes(String fileName) {
        try {
            var file = runDir().resolve(fileName);
            StringBuilder out = new StringBuilder();
            for (Node n : client().nodes().list().getItems()) {
                n.getMetadata().setManagedFields(null);
                out.append("---\n").append(client().getKubernetesSerialization().asYaml(n));
            }
            java.nio.file.Files.writeString(file, out);
            return file.toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The client, once the example cluster's nodes exist and the bridge runs: where most tests start. */
    public KubernetesClient onExamples() {
        KubernetesClient client = client();
        Examples.ensureNodes(client);
        bridge();
        return client;
    }

    public static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- access

    /** {@code https://localhost:<port>} of the API server. */
    public String url() {
        return "https://localhost:" + apiPort;
    }

    /** A kubeconfig file for one of the cluster's identities. */
    public Path kubeconfig(String user) {
        return run.resolve("kubeconfig-" + user);
    }

    /**
     * Writes a kubeconfig file {@code kubeconfig-<name>} that authenticates with {@code token} (e.g. a
     * ServiceAccount's, from the TokenRequest API) and returns its path; {@code name} must not be one of the
     * cluster's own identities, whose files other tests use.
     */
    public Path writeKubeconfig(String name, String token) {
        if (tokens.containsKey(name)) {
            throw new IllegalArgumentException("kubeconfig-" + name + " belongs to the built-in identity " + name);
        }
        Path file = kubeconfig(name);
        try {
            Files.writeString(file, kubeconfigText(token));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** A bearer token that authenticates as {@code user} (every built-in identity is a cluster admin). */
    public String token(String user) {
        return tokens.get(user);
    }

    public String caPem() {
        return caPem;
    }

    /** The test's admin client. */
    public KubernetesClient client() {
        return admin;
    }

    /** Creates the namespace {@code name} opted in to the bridge ({@code topobridge.io/enabled: "true"}). */
    public void createOptedInNamespace(String name) {
        admin.namespaces()
                .resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToLabels("topobridge.io/enabled", "true")
                        .endMetadata()
                        .build())
                .create();
    }

    /** A new client authenticating with {@code token}. */
    public KubernetesClient clientWithToken(String token) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(url())
                .withOauthToken(token)
                .withCaCertData(java.util.Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.UTF_8)))
                .withNamespace("default")
                .withRequestTimeout(30_000)
                .withConnectionTimeout(10_000)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    public KubernetesClient clientFor(String user) {
        return clientWithToken(tokens.get(user));
    }

    public AuditLog audit() {
        return audit;
    }

    /** The fake kubelet of every node (it can also take a node down). */
    public FakeKubelet kubelet() {
        return kubelet;
    }

    /** The folder holding this run's logs and files. */
    public Path runDir() {
        return run;
    }

    /** The running component {@code name}, if any. */
    Optional<Component> running(String name) {
        return Optional.ofNullable(components.get(name));
    }

    /** Stops and forgets the component {@code name}, if running. */
    void stop(String name, Duration timeout) {
        Component old = components.remove(name);
        if (old != null) {
            old.stop(timeout);
        }
    }

    public Component component(String name) {
        Component c = components.get(name);
        if (c == null) {
            throw new IllegalArgumentException("no component " + name + " in " + components.keySet());
        }
        return c;
    }

    public Duration startup() {
        return startup;
    }

    /** Fails when any component has died, quoting its log. */
    public void assertHealthy() {
        components.values().forEach(Component::assertAlive);
    }

    /**
     * Versions of what was built, as recorded by the build (an older Volcano's own, another Kubernetes minor's own,
     * when one runs).
     */
    public Map<String, String> versions() {
        Map<String, String> out = new LinkedHashMap<>();
        try {
            Set<Path> dirs = new LinkedHashSet<>(List.of(bin, volcano.bin(), KubernetesMinor.bin(root, bin)));
            for (Path dir : dirs) {
                for (String line : Files.readAllLines(dir.resolve("versions.properties"))) {
                    int eq = line.indexOf('=');
                    if (eq > 0) {
                        out.put(line.substring(0, eq), line.substring(eq + 1));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** A client for a custom resource kind by its group, version and plural. */
    public static ResourceDefinitionContext context(
            String group, String version, String kind, String plural, boolean namespaced) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(namespaced)
                .build();
    }

    // ---------------------------------------------------------------- helpers

    String binary(String name) {
        if (side != null && side.binary(name).isPresent()) {
            return side.binary(name).get().toString();
        }
        return (KubernetesMinor.chooses(name) ? KubernetesMinor.bin(root, bin) : bin)
                .resolve(name)
                .toString();
    }

    Component launch(String name, List<String> command, Map<String, String> env) {
        if (side != null) {
            command = Stream.concat(command.stream(), side.flags(name).stream()).toList();
        }
        Component component =
                new Component(name, command, env, run.resolve("logs").resolve(name + ".log")).start();
        components.put(name, component);
        return component;
    }

    /** Polls {@code condition} until it holds, failing with the components' state after {@code timeout}. */
    public void waitFor(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
                last = null;
            } catch (RuntimeException e) {
                last = e;
            }
            for (Component c : components.values()) {
                if (!c.alive()) {
                    throw new IllegalStateException("waiting for " + what + ": " + c.name() + " exited; end of "
                            + c.log() + ":\n" + c.tail(40));
                }
            }
            try {
                TimeUnit.MILLISECONDS.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what
                + (last == null ? "" : " (last error: " + last + ")"));
    }

    boolean httpOk(String url, String token) {
        HttpClient http = url.startsWith("https")
                ? HttpClient.newBuilder().sslContext(sslContext()).build()
                : HttpClient.newHttpClient();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return answersOk(http, request.build());
    }

    /** Whether {@code http} gets 200 for {@code request}; an I/O failure or an interrupt is a no. */
    static boolean answersOk(HttpClient http, HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private SSLContext sslContext() {
        return trusting(ca.certificate());
    }

    /** A TLS context that trusts the one certificate authority. */
    static SSLContext trusting(java.security.cert.Certificate authority) {
        try {
            var store = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
            store.load(null, null);
            store.setCertificateEntry("ca", authority);
            var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (java.security.GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Path> yamlFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        stopBridge();
        if (kubelet != null) {
            kubelet.close();
        }
        lws.close();
        kueue.close();
        if (admin != null) {
            admin.close();
        }
        List<Component> reversed = new ArrayList<>(components.values());
        java.util.Collections.reverse(reversed);
        for (Component c : reversed) {
            c.stop(Duration.ofSeconds(5));
        }
    }
}

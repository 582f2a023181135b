package io.topobridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.topobridge.e2e.AuditLog.Request;
import io.topobridge.testing.FreePort;
import io.topobridge.testing.HelmChart;
import io.topobridge.testing.HelmChart.Rendered;
import io.topobridge.testing.PackagedApp;
import io.topobridge.testing.wrappers.DeploymentWrapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Helm chart installed on the real cluster: every object Helm's own engine renders is accepted by the API
 * server, in a release namespace that enforces Pod Security's {@code restricted} profile (the controller's and the
 * cleanup hook's pods are admitted, the same pods with a rule broken refused); the controller then runs as the chart's ServiceAccount (a token from the TokenRequest API) with the
 * chart's environment through the whole scenario — HyperNodes, PodGroups, pods tied at admission, the scheduler
 * configuration check, Events, certificate renewal, leader election, an upgrade — and the audit log shows that
 * the API server refused it nothing, and that it used every verb the chart grants. Then each rule of its
 * ClusterRole and Role is removed in turn: each time something fails (a 403 on that rule's resources), so no
 * rule is there for nothing. Last, the uninstall hook removes what the controller made, within its own RBAC.
 */
@ExtendWith(RealClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HelmInstallE2E {

    static final String RELEASE = "topobridge";
    static final String NS = RealCluster.BRIDGE_NAMESPACE;
    /** The chart's object names for release {@value #RELEASE} (its ServiceAccount, roles, Deployment). */
    static final String FULLNAME = "topobridge";

    static final String USER = "system:serviceaccount:" + NS + ":" + FULLNAME;
    static final String APPS = "helm-e2e";
    static final String OUTSIDE = "helm-e2e-out";
    /** A ServiceAccount the values bind to the chart's api-reader ClusterRole (an operator). */
    static final String READER = "helm-e2e-reader";
    /** A ServiceAccount the values bind to the chart's metrics-reader ClusterRole (a Prometheus). */
    static final String SCRAPER = "helm-e2e-prometheus";
    /** A ServiceAccount bound to nothing of the chart's (a tenant). */
    static final String OUTSIDER = "helm-e2e-outsider";

    /**
     * The values of this install: namespace opt-in (so the opt-in path and what it needs from RBAC are exercised),
     * a short certificate check interval (so a damaged Secret is repaired while the test watches), readers of the
     * HTTP port bound by the chart, and no token-free loopback: the test's own requests reach the port from 127.0.0.1,
     * as every other client's would from its own address, and are checked with the API server.
     */
    static final Map<String, Object> VALUES = Map.ofEntries(
            Map.entry("workloads.requireNamespaceOptIn", true),
            Map.entry("admission.tls.checkInterval", "2s"),
            Map.entry("httpAuth.allowLoopback", false),
            Map.entry("apiReaders[0].kind", "ServiceAccount"),
            Map.entry("apiReaders[0].name", READER),
            Map.entry("apiReaders[0].namespace", NS),
            Map.entry("metricsReaders[0].kind", "ServiceAccount"),
            Map.entry("metricsReaders[0].name", SCRAPER),
            Map.entry("metricsReaders[0].namespace", NS));

    /** Tokens of {@link #READER}, {@link #SCRAPER} and {@link #OUTSIDER}, by name. */
    private static final Map<String, String> TOKENS = new java.util.concurrent.ConcurrentHashMap<>();

    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    /**
     * How long a controller of the rule-removal loop is given to stop: a clean stop takes about a second (the webhook
     * server's drain), also when a list of a workload kind was refused (its failed start once blocked the client's
     * event loop on the caches' lock, and the process hung until killed).
     */
    private static final Duration RESTART_GRACE = Duration.ofSeconds(10);

    /** The rule the running controller of the rule-removal loop was started without, and those killed at a restart. */
    private String runningWithout = "no rule removed";

    private final List<String> killed = new ArrayList<>();
    /**
     * Grants used only when admission meets an object its cache does not hold yet (a live read of a workload, see
     * {@code ReadThrough}; {@code AdoptionE2E} exercises it): this scenario may or may not hit that moment, so
     * they are not required to appear in its audit log; a 403 on them would still fail the test. Likewise the delete of
     * a pod, made only to restart a gang whose domain was lost.
     */
    private static final Set<String> ON_DEMAND = Set.of(
            "deployments get",
            "statefulsets get",
            "replicasets get",
            "leaderworkersets get",
            "disaggregatedsets get",
            "stormservices get",
            "rolesets get",
            "podsets get",
            // a gang restarted because its domain was lost (on-domain-loss: restart; DomainLossRestartE2E)
            "pods delete");

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Bridge bridge;
    private static final int WEBHOOK_PORT = FreePort.find();

    private final RealCluster cluster;
    private final KubernetesClient admin;

    HelmInstallE2E(RealCluster cluster) {
        this.cluster = cluster;
        this.admin = cluster.client();
    }

    private static Rendered chart(Map<String, Object> extra) {
        Map<String, Object> values = new LinkedHashMap<>(VALUES);
        values.putAll(extra);
        return HelmChart.render(RELEASE, NS, values);
    }

    // ---- install ----------------------------------------------------------------------------------------

    @Test
    @Order(1)
    void everyObjectTheChartInstallsIsAcceptedByTheApiServer() {
        Rendered chart = chart(Map.of());
        PodSecurity.restrict(admin, NS);
        List<HasMetadata> applied = apply(chart);
        assertThat(applied)
                .extracting(HasMetadata::getKind)
                .contains(
                        "ServiceAccount",
                        "ClusterRole",
                        "ClusterRoleBinding",
                        "Role",
                        "RoleBinding",
                        "Service",
                        "Deployment",
                        "PodDisruptionBudget",
                        "Secret",
                        "NetworkPolicy");
        for (String account : List.of(READER, SCRAPER, OUTSIDER)) {
            admin.serviceAccounts()
                    .inNamespace(NS)
                    .resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                            .withNewMetadata()
                            .withName(account)
                            .endMetadata()
                            .build())
                    .createOr(o -> o.update());
            TOKENS.put(account, token(account, 7200));
        }
        for (HasMetadata object : applied) {
            assertThat(admin.resource(object).get())
                    .as(object.getKind() + " " + object.getMetadata().getName())
                    .isNotNull();
        }
        // the release namespace enforces Pod Security's restricted profile: the ReplicaSet controller's pods of the
        // chart's Deployment are admitted (this cluster has no default scheduler and no container runtime, so they stay
        // Pending; ContainerImageIT runs the image as OpenShift would)
        int replicas = chart.one("Deployment").path("spec").path("replicas").asInt();
        cluster.waitFor(
                "the controller's " + replicas + " pods admitted under the restricted profile",
                TIMEOUT,
                () -> admin.pods()
                                .inNamespace(NS)
                                .withLabel("app.kubernetes.io/component", "controller")
                                .list()
                                .getItems()
                                .size()
                        == replicas);
        PodSecurity.assertEnforced(admin, NS, chart.one("Deployment"));
        // what needs another operator's CRDs is off by default, and this cluster has none of them
        assertThat(chart.has("ServiceMonitor") || chart.has("Certificate") || chart.has("Issuer"))
                .isFalse();
        assertThat(admin.apiextensions().v1().customResourceDefinitions().list().getItems())
                .extracting(crd -> crd.getSpec().getGroup())
                .doesNotContain("monitoring.coreos.com", "cert-manager.io");
        Map<String, String> env = chart.controllerEnv();
        // the webhook Service and Secret the local stand-in uses are the chart's
        assertThat(env)
                .containsEntry("TOPOBRIDGE_ADMISSION_SERVICE_NAME", "topobridge-webhook")
                .containsEntry("TOPOBRIDGE_ADMISSION_SERVICE_NAMESPACE", NS)
                .containsEntry("TOPOBRIDGE_VOLCANO_SCHEDULER_CONFIG_NAMESPACE", RealCluster.VOLCANO_NAMESPACE)
                .containsEntry("TOPOBRIDGE_LEADER_ELECTION_ENABLED", "true");
    }

    /** What {@code helm upgrade} does to the release's objects: applies the new ones, deletes those no longer rendered. */
    private void upgrade(Rendered from, Rendered to) {
        apply(to);
        var serialization = admin.getKubernetesSerialization();
        Set<String> kept = new TreeSet<>();
        to.resources(serialization).forEach(o -> kept.add(key(o)));
        for (HasMetadata object : from.resources(serialization)) {
            if (!kept.contains(key(object))) {
                admin.resource(object).delete();
            }
        }
    }

    private static String key(HasMetadata object) {
        return object.getKind() + "/" + object.getMetadata().getNamespace() + "/"
                + object.getMetadata().getName();
    }

    /** Applies what {@code helm install} (or {@code upgrade}) applies: every rendered object that is not a hook. */
    private List<HasMetadata> apply(Rendered chart) {
        List<HasMetadata> out = new ArrayList<>();
        for (HasMetadata object : chart.resources(admin.getKubernetesSerialization())) {
            out.add(admin.resource(object).fieldManager("helm").forceConflicts().serverSideApply());
        }
        return out;
    }

    // ---- the scenario as the chart's ServiceAccount --------------------------------------------------------

    @Test
    @Order(2)
    void theControllerRunsTheWholeScenarioAsTheChartsServiceAccountWithoutA403() throws Exception {
        Rendered chart = chart(Map.of());
        apply(chart);
        cluster.stopBridge();
        forgetWhatTheBridgeMade(chart);
        Map<String, JsonNode> exampleHyperNodes = Examples.renderedHyperNodes(Examples.NODES.toString());
        Examples.ensureNodes(admin);
        namespace(APPS, true);
        namespace(OUTSIDE, false);
        long mark = cluster.audit().mark();

        bridge = startBridge(chart);
        // leader election: the chart runs two replicas, so the reconcilers start only once the Lease is won
        awaitLeadingAndReady(chart);

        // the HTTP port: only the health probes are open; the chart's reader roles let their subjects in
        theHttpPortAdmitsOnlyTheChartsReaders();

        // topology: the example nodes' HyperNodes, and the scheduler configuration read
        cluster.waitFor(
                "the example HyperNodes",
                TIMEOUT,
                () -> Examples.hyperNodes(admin).equals(exampleHyperNodes));
        assertThat(hardTopology()).isEqualTo("enforced");

        // admission: both webhook configurations registered, with the CA the controller made
        var mutating = mutatingHook();
        var validating = validatingHook();
        assertThat(mutating.getWebhooks())
                .allSatisfy(w -> assertThat(w.getClientConfig().getCaBundle()).isNotBlank());
        assertThat(validating.getWebhooks()).isNotEmpty();

        // workloads: an annotated Deployment in an opted-in namespace gets its PodGroup and its pods are tied to it;
        // the same Deployment in a namespace that did not opt in is left alone
        deployment(APPS, "web", 2, "leaf");
        deployment(OUTSIDE, "web", 1, "leaf");
        cluster.waitFor("the PodGroup of " + APPS + "/web", TIMEOUT, () -> podGroup(APPS, "tb-deploy-web") != null);
        cluster.waitFor("the pods of " + APPS + "/web tied to their gang and bound by Volcano", TIMEOUT, () -> {
            List<Pod> pods = admin.pods()
                    .inNamespace(APPS)
                    .withLabel("app", "web")
                    .list()
                    .getItems();
            return pods.size() == 2
                    && pods.stream()
                            .allMatch(p -> "tb-deploy-web"
                                            .equals(p.getMetadata()
                                                    .getAnnotations()
                                                    .get("scheduling.k8s.io/group-name"))
                                    && p.getSpec().getNodeName() != null);
        });
        // a workload the validating webhook must refuse
        assertThat(catchThrowable(() -> deployment(APPS, "bad", 1, "no-such-tier")))
                .hasMessageContaining("no-such-tier");
        awaitQuiet();
        assertThat(podGroup(OUTSIDE, "tb-deploy-web")).isNull();
        assertThat(admin.pods().inNamespace(OUTSIDE).list().getItems())
                .isNotEmpty()
                .allSatisfy(p ->
                        assertThat(p.getMetadata().getAnnotations()).doesNotContainKey("scheduling.k8s.io/group-name"));

        // findings become Events: the scheduler configuration without network-topology-aware, then with a
        // different plugin list (the same finding, counted up on the same Event), then repaired
        String conf = RealCluster.SCHEDULER_CONF;
        String withoutPlugin = conf.substring(0, conf.indexOf("  - name: network-topology-aware"));
        try {
            schedulerConf(withoutPlugin);
            cluster.waitFor("the NetworkTopologyPluginDisabled event", TIMEOUT, () -> pluginEventCount() == 1);
            schedulerConf(withoutPlugin.replace("  - name: binpack\n", ""));
            cluster.waitFor("the same event counted up", TIMEOUT, () -> pluginEventCount() == 2);
        } finally {
            schedulerConf(conf);
        }
        cluster.waitFor("hard topology enforced again", TIMEOUT, () -> "enforced".equals(hardTopology()));

        // a node joins with a new NVLink domain, then leaves: its HyperNode is made, then deleted
        Node tray = admin.nodes().withName("gb200-r01-t01").get();
        Nodes.Spec extra =
                Nodes.node("helm-e2e-tray").cpu("144").memory("960Gi").gpus(4);
        tray.getMetadata().getLabels().forEach((k, v) -> {
            if (!k.equals("kubernetes.io/hostname")) {
                extra.label(k, k.equals("nvidia.com/gpu.clique") ? "0f0e0d0c-0b0a-4908-8706-050403020100.1" : v);
            }
        });
        Nodes.create(admin, extra.build());
        try {
            cluster.waitFor(
                    "a HyperNode for the new NVLink domain",
                    TIMEOUT,
                    () -> Examples.hyperNodes(admin).values().stream()
                            .anyMatch(spec -> spec.toString().contains("\"helm-e2e-tray\"")));
        } finally {
            admin.nodes().withName("helm-e2e-tray").delete();
        }
        cluster.waitFor(
                "the HyperNodes of the example nodes again",
                TIMEOUT,
                () -> Examples.hyperNodes(admin).equals(exampleHyperNodes));

        // the annotation removed: the controller deletes the PodGroup it made
        admin.apps().deployments().inNamespace(APPS).withName("web").edit(d -> {
            d.getMetadata().getAnnotations().remove("topobridge.io/highest-tier");
            return d;
        });
        cluster.waitFor("the PodGroup deleted", TIMEOUT, () -> podGroup(APPS, "tb-deploy-web") == null);

        // a damaged certificate Secret: the controller issues a new CA and certificate and re-registers the CA
        String secretName = chart.controllerEnv().get("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME");
        String caBefore = mutatingCaBundle();
        admin.secrets().inNamespace(NS).withName(secretName).edit(s -> {
            s.getData().put("tls.crt", Base64.getEncoder().encodeToString("damaged".getBytes()));
            return s;
        });
        cluster.waitFor(
                "a new certificate and CA registered",
                TIMEOUT,
                () -> !mutatingCaBundle().equals(caBefore)
                        && !new String(Base64.getDecoder()
                                        .decode(admin.secrets()
                                                .inNamespace(NS)
                                                .withName(secretName)
                                                .get()
                                                .getData()
                                                .get("tls.crt")))
                                .equals("damaged"));

        // helm upgrade to one replica (no leader election), admission off and no namespace opt-in: no Role at all
        // (namespaces are still read, for the queues each may use); the controller removes its webhook configurations
        // and now
        // manages the Deployment of the namespace that did not opt in. Then back.
        Rendered upgraded =
                chart(Map.of("replicaCount", 1, "admission.enabled", false, "workloads.requireNamespaceOptIn", false));
        assertThat(upgraded.objects()).noneMatch(d -> d.path("kind").asText().equals("Role"));
        // the old pod goes before the roles shrink: a leader still renewing its Lease would be refused
        bridge.stop();
        upgrade(chart, upgraded);
        bridge = startBridge(upgraded);
        cluster.waitFor(
                "the webhook configurations removed",
                TIMEOUT,
                () -> mutatingHook() == null && validatingHook() == null);
        cluster.waitFor(
                "the PodGroup of " + OUTSIDE + "/web", TIMEOUT, () -> podGroup(OUTSIDE, "tb-deploy-web") != null);
        awaitLeadingAndReady(upgraded);
        bridge.stop();
        upgrade(upgraded, chart);
        bridge = startBridge(chart);
        cluster.waitFor(
                "the webhook configurations back", TIMEOUT, () -> mutatingHook() != null && validatingHook() != null);
        cluster.waitFor(
                "the PodGroup of " + OUTSIDE + "/web gone with the opt-in",
                TIMEOUT,
                () -> podGroup(OUTSIDE, "tb-deploy-web") == null);
        // annotated again, for the uninstall to find a PodGroup the controller made
        admin.apps().deployments().inNamespace(APPS).withName("web").edit(d -> {
            d.getMetadata().getAnnotations().put("topobridge.io/highest-tier", "leaf");
            return d;
        });
        cluster.waitFor(
                "the PodGroup of " + APPS + "/web again", TIMEOUT, () -> podGroup(APPS, "tb-deploy-web") != null);
        awaitLeadingAndReady(chart);
        awaitQuiet();
        bridge.stop(); // watches end and are audited

        List<Request> requests =
                cluster.audit().requestsSince(mark, r -> r.user().equals(USER));
        Map<String, Integer> used = new TreeMap<>();
        requests.forEach(r -> used.merge(
                r.verb() + " " + (r.group().isEmpty() ? "" : r.group() + "/") + r.resource()
                        + (r.resource().isEmpty() ? r.uri() : "") + " " + r.code(),
                1,
                Integer::sum));
        System.out.println("requests of " + USER + ":");
        used.forEach((k, v) -> System.out.println("  " + k + " ×" + v));
        assertThat(requests)
                .as("requests of the chart's ServiceAccount in the audit log")
                .hasSizeGreaterThan(20);
        assertThat(requests)
                .filteredOn(Request::forbidden)
                .as("requests RBAC refused")
                .isEmpty();
        // a Kubernetes minor without resource.k8s.io/v1 (-Dtopobridge.e2e.kubernetes): the bridge lists no claims there
        assertThat(unusedGrants(chart, requests))
                .as("granted by the chart, never used by the controller")
                .filteredOn(grant -> RealCluster.servesDra() || !grant.contains(" resource.k8s.io "))
                .isEmpty();
        // least privilege: the certificate Secret is the chart's; the controller fills and renews it, creates none
        assertThat(requests)
                .filteredOn(r -> r.resource().equals("secrets"))
                .extracting(Request::verb)
                .isNotEmpty()
                .doesNotContain("create");
        for (String kind : List.of("ClusterRole", "Role")) {
            for (JsonNode rule : chart.named(kind, FULLNAME).path("rules")) {
                if (contains(rule.path("resources"), "secrets")) {
                    assertThat(rule.path("resourceNames").isEmpty())
                            .as(kind + " grants on Secrets are limited by name: " + rule)
                            .isFalse();
                    assertThat(rule.path("verbs").toString()).doesNotContain("create");
                }
            }
        }
    }

    /**
     * On the real API server, as the chart installs it: no token is 401; a ServiceAccount the chart's roles do not
     * name is 403 (though the API server's own system:discovery role lets it get /api/*: the bridge asks about
     * /topobridge/api/*); the api-reader reads the API, the page and the metrics; the metrics-reader scrapes the
     * metrics and nothing else.
     */
    private void theHttpPortAdmitsOnlyTheChartsReaders() {
        String outsider = "system:serviceaccount:" + NS + ":" + OUTSIDER;
        assertThat(nonResourceAllowed(outsider, "/api/podgroups"))
                .as("every authenticated user may get /api/* on the API server")
                .isTrue();
        assertThat(nonResourceAllowed(outsider, "/topobridge/api/podgroups")).isFalse();
        assertThat(get("/q/health/ready", null).statusCode()).isEqualTo(200);
        for (String path : List.of("/api/podgroups", "/api/status", "/topology", "/q/metrics")) {
            var anonymous = get(path, null);
            assertThat(anonymous.statusCode()).as("no token: " + path).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"topobridge\"");
            assertThat(get(path, "not-a-token").statusCode())
                    .as("a forged token: " + path)
                    .isEqualTo(401);
            var tenant = get(path, TOKENS.get(OUTSIDER));
            assertThat(tenant.statusCode()).as("a tenant's token: " + path).isEqualTo(403);
            assertThat(tenant.body()).contains(outsider, "/topobridge" + path);
            assertThat(get(path, TOKENS.get(READER)).statusCode())
                    .as("the api-reader: " + path)
                    .isEqualTo(200);
        }
        var scrape = get("/q/metrics", TOKENS.get(SCRAPER));
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body()).contains("topobridge_http_auth_reviews_total");
        assertThat(get("/api/podgroups", TOKENS.get(SCRAPER)).statusCode()).isEqualTo(403);
        // four scrapes more cost no review: the token and the decision are cached
        String before = reviewCounts();
        for (int i = 0; i < 4; i++) {
            assertThat(get("/q/metrics", TOKENS.get(SCRAPER)).statusCode()).isEqualTo(200);
        }
        String after = reviewCounts();
        System.out.println("reviews sent by the bridge before and after 4 more scrapes: " + before + " / " + after);
        assertThat(after).isEqualTo(before);
    }

    private String reviewCounts() {
        return get("/q/metrics", TOKENS.get(READER))
                .body()
                .lines()
                .filter(l -> l.startsWith("topobridge_http_auth_reviews_total"))
                .sorted()
                .toList()
                .toString();
    }

    private boolean nonResourceAllowed(String user, String path) {
        var review = new SubjectAccessReviewBuilder()
                .withNewSpec()
                .withUser(user)
                .withGroups("system:serviceaccounts", "system:serviceaccounts:" + NS, "system:authenticated")
                .withNewNonResourceAttributes()
                .withPath(path)
                .withVerb("get")
                .endNonResourceAttributes()
                .endSpec()
                .build();
        return allowed(review);
    }

    /** The API server's answer to {@code review}. */
    private boolean allowed(SubjectAccessReview review) {
        return admin.authorization()
                .v1()
                .subjectAccessReview()
                .create(review)
                .getStatus()
                .getAllowed();
    }

    /** A GET on the controller's HTTP port with {@code token} as bearer token (none when null). */
    private static java.net.http.HttpResponse<String> get(String path, String token) {
        var request = java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + bridge.httpPort() + path))
                .timeout(Duration.ofSeconds(10));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            return java.net.http.HttpClient.newHttpClient()
                    .send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String token(String account, long seconds) {
        return admin.serviceAccounts()
                .inNamespace(NS)
                .withName(account)
                .tokenRequest(new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(seconds)
                        .endSpec()
                        .build())
                .getStatus()
                .getToken();
    }

    /** Every (rule, resource, verb) the chart's ClusterRole and Role grant that no request used. */
    private static List<String> unusedGrants(Rendered chart, List<Request> requests) {
        List<String> unused = new ArrayList<>();
        for (String kind : List.of("ClusterRole", "Role")) {
            for (JsonNode rule : chart.named(kind, FULLNAME).path("rules")) {
                for (JsonNode resource : rule.path("resources")) {
                    for (JsonNode verb : rule.path("verbs")) {
                        // a server-side apply that made the object (201) was authorized as create too
                        boolean seen = requests.stream()
                                .anyMatch(r -> !r.forbidden()
                                        && contains(rule.path("apiGroups"), r.group())
                                        && resource.asText()
                                                .equals(r.resource()
                                                        + (r.subresource().isEmpty() ? "" : "/" + r.subresource()))
                                        && (verb.asText().equals(r.verb())
                                                || verb.asText().equals("create")
                                                        && r.verb().equals("patch")
                                                        && r.code() == 201)
                                        && (kind.equals("ClusterRole") || NS.equals(r.namespace())));
                        if (!seen && !ON_DEMAND.contains(resource.asText() + " " + verb.asText())) {
                            unused.add(kind + " " + text(rule.path("apiGroups")) + " " + resource.asText() + " "
                                    + verb.asText());
                        }
                    }
                }
            }
        }
        return unused;
    }

    // ---- least privilege: each rule removed in turn --------------------------------------------------------

    @Test
    @Order(3)
    void removingAnyRuleOfTheChartsRolesMakesSomethingFail() {
        Rendered chart = chart(Map.of());
        assertThat(bridge).as("the scenario ran").isNotNull();
        Map<String, List<PolicyRule>> original = new LinkedHashMap<>();
        original.put(
                "ClusterRole",
                admin.rbac().clusterRoles().withName(FULLNAME).get().getRules());
        original.put(
                "Role",
                admin.rbac().roles().inNamespace(NS).withName(FULLNAME).get().getRules());
        // every start has something to record (a finding) and something to create (the certificate Secret and the
        // Lease), as on a fresh install
        String conf = RealCluster.SCHEDULER_CONF;
        schedulerConf(conf.substring(0, conf.indexOf("  - name: network-topology-aware")));
        Map<String, String> table = new LinkedHashMap<>();
        List<String> unnecessary = new ArrayList<>();
        // a Prometheus scrapes every second, as it would every 15 s: each fresh start reviews its token
        var scraping = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread scraper = new Thread(() -> {
            while (scraping.get()) {
                try {
                    get("/q/metrics", TOKENS.get(SCRAPER));
                } catch (RuntimeException e) {
                    // the controller is restarting
                }
                RealCluster.sleep(Duration.ofSeconds(1));
            }
        });
        scraper.setDaemon(true);
        scraper.start();
        try {
            for (var entry : original.entrySet()) {
                String kind = entry.getKey();
                for (int i = 0; i < entry.getValue().size(); i++) {
                    PolicyRule removed = entry.getValue().get(i);
                    String name = kind + " " + describe(removed);
                    List<PolicyRule> rules = new ArrayList<>(entry.getValue());
                    rules.remove(i);
                    long mark = restartFresh(chart, kind, rules, original, removed);
                    long started = System.nanoTime();
                    Predicate<Request> refusedByRule =
                            r -> r.user().equals(USER) && r.forbidden() && covers(removed, r);
                    try {
                        cluster.waitFor(
                                "a 403 without " + name,
                                Duration.ofSeconds(40),
                                () -> !cluster.audit()
                                        .requestsSince(mark, refusedByRule)
                                        .isEmpty());
                    } catch (IllegalStateException e) {
                        unnecessary.add(name);
                    }
                    long elapsed = (System.nanoTime() - started) / 1_000_000;
                    RealCluster.sleep(Duration.ofMillis(500));
                    Set<String> refused = new TreeSet<>();
                    cluster.audit()
                            .requestsSince(mark, r -> r.user().equals(USER) && r.forbidden())
                            .forEach(r -> refused.add((covers(removed, r) ? "" : "UNEXPECTED ") + r.verb() + " "
                                    + (r.group().isEmpty() ? "" : r.group() + "/") + r.resource()));
                    table.put(name, "403 " + refused + " within " + elapsed + " ms of the start; " + health());
                    assertThat(refused)
                            .as("403s of other rules without " + name)
                            .noneMatch(r -> r.startsWith("UNEXPECTED"));
                }
            }
            // the control: all rules back, the same fresh start refuses nothing
            long mark = restartFresh(chart, "Role", original.get("Role"), original, null);
            awaitLeadingAndReady(chart);
            awaitQuiet();
            assertThat(cluster.audit().requestsSince(mark, r -> r.user().equals(USER) && r.forbidden()))
                    .as("403s with every rule in place")
                    .isEmpty();
        } finally {
            scraping.set(false);
            bridge.stop();
            original.forEach(this::setRules);
            schedulerConf(conf);
            System.out.println("each rule of the chart's roles removed in turn:");
            table.forEach((rule, outcome) -> System.out.println("  " + rule + " | " + outcome));
        }
        assertThat(unnecessary)
                .as("rules whose removal made nothing fail")
                .filteredOn(rule -> RealCluster.servesDra() || !rule.contains(" resource.k8s.io "))
                .isEmpty();
        // the operator SDK's start-up waits for its CustomResourceDefinition informer, and SIGTERM is heard only once
        // it has ended: only a controller refused that list may need the kill
        assertThat(killed)
                .as("controllers killed after %s of SIGTERM, by the rule they ran without", RESTART_GRACE)
                .allMatch(rule -> rule.contains("customresourcedefinitions"));
    }

    /**
     * Stops the controller, gives {@code kind} the rules {@code rules} (the others as in {@code original}), deletes the
     * objects it creates by POST, waits until the API server's authorizer agrees, and starts the controller again;
     * returns the audit mark of the start.
     */
    private long restartFresh(
            Rendered chart,
            String kind,
            List<PolicyRule> rules,
            Map<String, List<PolicyRule>> original,
            PolicyRule removed) {
        if (!bridge.stop(RESTART_GRACE)) {
            killed.add(runningWithout);
        }
        runningWithout = removed == null ? "no rule removed" : kind + " " + describe(removed);
        original.forEach((k, r) -> setRules(k, k.equals(kind) ? rules : r));
        Map<String, String> env = chart.controllerEnv();
        emptyCertificateSecret(chart);
        admin.leases()
                .inNamespace(NS)
                .withName(env.get("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME"))
                .delete();
        cluster.waitFor("RBAC to reflect the change", Duration.ofSeconds(30), () -> {
            for (var entry : original.entrySet()) {
                for (PolicyRule rule : entry.getValue()) {
                    if (allowed(rule, entry.getKey().equals("Role") ? NS : null) == (rule == removed)) {
                        return false;
                    }
                }
            }
            return true;
        });
        long mark = cluster.audit().mark();
        bridge.restart();
        return mark;
    }

    /** Whether {@code rule} is what would allow {@code request}. */
    private static boolean covers(PolicyRule rule, Request request) {
        return (rule.getApiGroups().contains(request.group())
                        || rule.getApiGroups().contains("*"))
                && rule.getResources()
                        .contains(request.resource()
                                + (request.subresource().isEmpty() ? "" : "/" + request.subresource()))
                && rule.getVerbs().contains(request.verb())
                && (rule.getResourceNames() == null
                        || rule.getResourceNames().isEmpty()
                        || rule.getResourceNames().contains(request.name()));
    }

    private String health() {
        try {
            var ready = get("/q/health/ready", null);
            JsonNode data = JSON.readTree(ready.body()).path("checks").path(0).path("data");
            List<String> notReady = new ArrayList<>();
            data.fields().forEachRemaining(f -> {
                if (f.getKey().endsWith(".ready") && !f.getValue().asBoolean()) {
                    notReady.add(f.getKey().replace(".ready", ""));
                }
            });
            return "readiness " + ready.statusCode() + (notReady.isEmpty() ? "" : " (not ready: " + notReady + ")")
                    + ", role " + status().path("role").asText();
        } catch (IOException | RuntimeException e) {
            return "no HTTP answer yet (start-up not finished)";
        }
    }

    private void setRules(String kind, List<PolicyRule> rules) {
        if (kind.equals("ClusterRole")) {
            admin.rbac().clusterRoles().withName(FULLNAME).edit(r -> {
                r.setRules(rules);
                return r;
            });
        } else {
            admin.rbac().roles().inNamespace(NS).withName(FULLNAME).edit(r -> {
                r.setRules(rules);
                return r;
            });
        }
    }

    private boolean allowed(PolicyRule rule, String namespace) {
        var review = new SubjectAccessReviewBuilder()
                .withNewSpec()
                .withUser(USER)
                .withGroups("system:serviceaccounts", "system:serviceaccounts:" + NS, "system:authenticated")
                .withNewResourceAttributes()
                .withGroup(rule.getApiGroups().get(0))
                .withResource(rule.getResources().get(0))
                .withVerb(rule.getVerbs().get(0))
                .withNamespace(namespace)
                .withName(
                        rule.getResourceNames() == null
                                        || rule.getResourceNames().isEmpty()
                                ? null
                                : rule.getResourceNames().get(0))
                .endResourceAttributes()
                .endSpec()
                .build();
        return allowed(review);
    }

    private static String describe(PolicyRule rule) {
        return String.join(
                        ",",
                        rule.getApiGroups().stream()
                                .map(g -> g.isEmpty() ? "core" : g)
                                .toList()) + " "
                + rule.getResources()
                + (rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
                        ? ""
                        : " " + rule.getResourceNames())
                + " " + rule.getVerbs();
    }

    // ---- uninstall -------------------------------------------------------------------------------------------

    @Test
    @Order(4)
    void uninstallRemovesWhatTheControllerMadeWithinTheHooksRbacAndLeavesNothing() throws Exception {
        Rendered chart = chart(Map.of());
        if (bridge != null) {
            bridge.stop();
        }
        List<JsonNode> hook = chart.hooks("pre-delete");
        List<HasMetadata> hookObjects = new ArrayList<>();
        for (JsonNode doc : hook) {
            HasMetadata object = admin.getKubernetesSerialization().convertValue(doc, HasMetadata.class);
            hookObjects.add(admin.resource(object).create());
        }
        JsonNode job = chart.one("Job");
        // the hook's pod, as the Job controller (not run here) would create it, in the restricted namespace
        PodSecurity.admit(admin, NS, job, "cleanup-admitted");
        PodSecurity.assertEnforced(admin, NS, job);
        String account = job.path("spec")
                .path("template")
                .path("spec")
                .path("serviceAccountName")
                .asText();
        String token = admin.serviceAccounts()
                .inNamespace(NS)
                .withName(account)
                .tokenRequest(new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(600L)
                        .endSpec()
                        .build())
                .getStatus()
                .getToken();
        Path kubeconfig = cluster.writeKubeconfig("serviceaccount-" + account, token);
        var madeByTheController = List.of(
                admin.genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode")
                        .withLabel("app.kubernetes.io/managed-by", "topobridge"),
                admin.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                        .inAnyNamespace()
                        .withLabel("app.kubernetes.io/managed-by", "topobridge"));
        assertThat(madeByTheController)
                .allSatisfy(objects -> assertThat(objects.list().getItems()).isNotEmpty());
        long mark = cluster.audit().mark();

        List<String> command = new ArrayList<>(
                List.of(PackagedApp.java(), "-jar", PackagedApp.jar().toString()));
        chart.container(job).path("args").forEach(a -> command.add(a.asText()));
        Path log = cluster.runDir().resolve("logs").resolve(account + ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(Rendered.env(chart.container(job)));
        builder.environment().put("POD_NAMESPACE", NS);
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        Process process = builder.start();
        assertThat(process.waitFor(180, TimeUnit.SECONDS))
                .as("cleanup finished")
                .isTrue();
        assertThat(process.exitValue()).as(Files.readString(log)).isZero();

        String hookUser = "system:serviceaccount:" + NS + ":" + account;
        List<Request> requests =
                cluster.audit().requestsSince(mark, r -> r.user().equals(hookUser));
        assertThat(requests).as("requests of the hook's ServiceAccount").isNotEmpty();
        assertThat(requests)
                .filteredOn(Request::forbidden)
                .as("requests RBAC refused the hook")
                .isEmpty();
        Map<String, String> env = chart.controllerEnv();
        assertThat(mutatingHook()).isNull();
        assertThat(validatingHook()).isNull();
        assertThat(admin.secrets()
                        .inNamespace(NS)
                        .withName(env.get("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME"))
                        .get())
                .isNull();
        assertThat(admin.leases()
                        .inNamespace(NS)
                        .withName(env.get("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME"))
                        .get())
                .isNull();
        assertThat(madeByTheController)
                .allSatisfy(objects -> assertThat(objects.list().getItems()).isEmpty());
        assertThat(admin.apps()
                        .deployments()
                        .inNamespace(NS)
                        .withName(FULLNAME)
                        .get()
                        .getSpec()
                        .getReplicas())
                .isZero();

        // hook-succeeded: Helm deletes the hook's objects, then the release's own
        for (HasMetadata object : hookObjects) {
            admin.resource(object).delete();
        }
        for (HasMetadata object : chart.resources(admin.getKubernetesSerialization())) {
            admin.resource(object).delete();
        }
        for (HasMetadata object : hookObjects) {
            cluster.waitFor(
                    object.getKind() + " " + object.getMetadata().getName() + " gone",
                    TIMEOUT,
                    () -> admin.resource(object).get() == null);
        }
        for (HasMetadata object : chart.resources(admin.getKubernetesSerialization())) {
            cluster.waitFor(
                    object.getKind() + " " + object.getMetadata().getName() + " gone",
                    TIMEOUT,
                    () -> admin.resource(object).get() == null);
        }
        admin.namespaces().withName(APPS).delete();
        admin.namespaces().withName(OUTSIDE).delete();
    }

    /** The release namespace is the fork's: the next class finds it without Pod Security labels. */
    @AfterAll
    static void releaseTheNamespace() {
        PodSecurity.release(RealCluster.get().client(), NS);
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    /**
     * Starts the packaged controller as the chart's ServiceAccount (a token from the TokenRequest API), with the
     * chart's environment; only where the webhook server listens differs (loopback and a free port, which the
     * stand-in for the chart's webhook Service points at), as the process's own settings show.
     */
    private Bridge startBridge(Rendered chart) {
        if (bridge != null) {
            bridge.stop();
        }
        String token = RealCluster.token(admin, NS, FULLNAME);
        Path kubeconfig = cluster.writeKubeconfig("serviceaccount-" + FULLNAME, token);
        Bridge.Builder builder =
                Bridge.on(cluster, "topobridge-chart").kubeconfig(kubeconfig).webhookPort(WEBHOOK_PORT);
        Map<String, String> env = chart.controllerEnv();
        env.forEach(builder::env);
        Bridge started = builder.start();
        for (String option : started.process().command()) {
            if (option.startsWith("-Dtopobridge.")) {
                String key = option.substring(2, option.indexOf('='));
                String variable = key.toUpperCase(Locale.ROOT).replaceAll("[.-]", "_");
                assertThat(Set.of(
                                                "TOPOBRIDGE_ADMISSION_HOST",
                                                "TOPOBRIDGE_ADMISSION_PORT",
                                                "TOPOBRIDGE_ADMISSION_SERVICE_PORT")
                                        .contains(variable)
                                || option.substring(option.indexOf('=') + 1).equals(env.get(variable)))
                        .as("the chart's %s overridden by %s", variable, option)
                        .isTrue();
            }
        }
        return started;
    }

    /** The state a fresh install starts from: nothing the bridge makes exists yet. */
    private void forgetWhatTheBridgeMade(Rendered chart) {
        Map<String, String> env = chart.controllerEnv();
        String name = env.get("TOPOBRIDGE_ADMISSION_CONFIGURATION_NAME");
        admin.admissionRegistration()
                .v1()
                .mutatingWebhookConfigurations()
                .withName(name)
                .delete();
        admin.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withName(name)
                .delete();
        emptyCertificateSecret(chart);
        admin.leases()
                .inNamespace(NS)
                .withName(env.get("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME"))
                .delete();
        var hyperNodes = admin.genericKubernetesResources("topology.volcano.sh/v1alpha1", "HyperNode");
        hyperNodes.withLabel("volcano.sh/network-topology-source", "topobridge").delete();
        cluster.waitFor(
                "no HyperNodes of the bridge",
                TIMEOUT,
                () -> hyperNodes
                        .withLabel("volcano.sh/network-topology-source", "topobridge")
                        .list()
                        .getItems()
                        .isEmpty());
    }

    /** The certificate Secret as a fresh install leaves it: the chart's, empty. */
    private void emptyCertificateSecret(Rendered chart) {
        String name = chart.controllerEnv().get("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME");
        admin.secrets().inNamespace(NS).withName(name).delete();
        cluster.waitFor(
                "the old certificate Secret gone",
                TIMEOUT,
                () -> admin.secrets().inNamespace(NS).withName(name).get() == null);
        for (HasMetadata object : chart.resources(admin.getKubernetesSerialization())) {
            if (object.getKind().equals("Secret")) {
                admin.resource(object).fieldManager("helm").forceConflicts().serverSideApply();
            }
        }
    }

    /** Waits until the controller holds the Lease (when the chart elects a leader) and is ready. */
    private void awaitLeadingAndReady(Rendered chart) {
        Map<String, String> env = chart.controllerEnv();
        boolean election = Boolean.parseBoolean(env.get("TOPOBRIDGE_LEADER_ELECTION_ENABLED"));
        cluster.waitFor("the controller leading and ready", TIMEOUT, () -> {
            bridge.process().assertAlive();
            if (election) {
                var lease = admin.leases()
                        .inNamespace(NS)
                        .withName(env.get("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME"))
                        .get();
                if (lease == null
                        || lease.getSpec().getHolderIdentity() == null
                        || !lease.getSpec().getHolderIdentity().startsWith(bridge.name() + "-")) {
                    return false;
                }
            }
            return bridge.get("/q/health/ready").statusCode() == 200;
        });
    }

    /** The scheduler-configuration check's verdict, as {@code /api/status} reports it. */
    private String hardTopology() {
        JsonNode value = status().findValue("hardTopology");
        return value == null ? null : value.asText();
    }

    private void awaitQuiet() {
        cluster.awaitQuiet(
                USER, w -> w.user().equals(USER) && !w.resource().equals("leases"), Duration.ofSeconds(3), TIMEOUT);
    }

    private JsonNode status() {
        try {
            return JSON.readTree(get("/api/status", TOKENS.get(READER)).body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void namespace(String name, boolean optedIn) {
        var builder = new NamespaceBuilder().withNewMetadata().withName(name);
        if (optedIn) {
            builder.addToLabels("topobridge.io/enabled", "true");
        }
        admin.namespaces().resource(builder.endMetadata().build()).create();
        cluster.waitFor(
                "the default ServiceAccount in " + name,
                TIMEOUT,
                () -> admin.serviceAccounts()
                                .inNamespace(name)
                                .withName("default")
                                .get()
                        != null);
    }

    private void deployment(String namespace, String name, int replicas, String tier) {
        admin.apps()
                .deployments()
                .inNamespace(namespace)
                .resource(DeploymentWrapper.make(name, null)
                        .highestTier(tier)
                        .replicas(replicas)
                        .cpu("1")
                        // no scheduler named: the pods keep Kubernetes' default one
                        .schedulerName(null)
                        .obj())
                .create();
    }

    private GenericKubernetesResource podGroup(String namespace, String name) {
        return PodGroups.get(admin, namespace, name);
    }

    private void schedulerConf(String conf) {
        admin.configMaps()
                .inNamespace(RealCluster.VOLCANO_NAMESPACE)
                .withName(RealCluster.SCHEDULER_CONFIGMAP)
                .edit(c -> {
                    c.getData().put(RealCluster.SCHEDULER_CONF_KEY, conf);
                    return c;
                });
    }

    private int pluginEventCount() {
        return admin.v1().events().inNamespace(RealCluster.VOLCANO_NAMESPACE).list().getItems().stream()
                .filter(e -> "NetworkTopologyPluginDisabled".equals(e.getReason())
                        && RealCluster.SCHEDULER_CONFIGMAP.equals(
                                e.getInvolvedObject().getName()))
                .mapToInt(e -> e.getCount() == null ? 1 : e.getCount())
                .sum();
    }

    /** The chart's mutating webhook configuration, null when there is none. */
    private MutatingWebhookConfiguration mutatingHook() {
        return admin.admissionRegistration()
                .v1()
                .mutatingWebhookConfigurations()
                .withName(FULLNAME)
                .get();
    }

    /** The chart's validating webhook configuration, null when there is none. */
    private ValidatingWebhookConfiguration validatingHook() {
        return admin.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withName(FULLNAME)
                .get();
    }

    private String mutatingCaBundle() {
        return mutatingHook().getWebhooks().get(0).getClientConfig().getCaBundle();
    }

    private static boolean contains(JsonNode list, String value) {
        for (JsonNode item : list) {
            if (item.asText().equals(value) || item.asText().equals("*")) {
                return true;
            }
        }
        return false;
    }

    private static String text(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(i -> out.add(i.asText().isEmpty() ? "core" : i.asText()));
        return String.join(",", out);
    }
}

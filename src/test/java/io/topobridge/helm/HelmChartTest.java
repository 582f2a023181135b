package io.topobridge.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.config.EnvironmentConfig;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.testing.ConfigKeys;
import io.topobridge.testing.HelmChart;
import io.topobridge.testing.HelmChart.Rendered;
import io.topobridge.tls.TlsSettings;
import io.topobridge.webhook.WebhookConfigurations;
import io.topobridge.webhook.WebhookSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart in helm/ lints, renders with Helm's own engine, validates its values against its schema, and stays in
 * step with the configuration keys, the APIs used, the webhook configurations the controller makes and the
 * cleanup command.
 */
class HelmChartTest {

    private static final Path CHART = HelmChart.CHART;
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final String NS = "topobridge-system";

    private static Rendered render(Map<String, ?> values) {
        return HelmChart.render("tb", NS, values);
    }

    private static Rendered render() {
        return render(Map.of());
    }

    @Test
    void lintsCleanly() {
        var result = new Helm(CHART).lint().strict().call();
        assertThat(result.isFailed())
                .as(String.join("\n", result.getMessages()))
                .isFalse();
    }

    @Test
    void everyEnvironmentVariableIsAConfigurationKey() {
        Set<String> keys = ConfigKeys.all();
        Set<String> envKeys = new TreeSet<>();
        keys.forEach(k -> envKeys.add(envName(k)));

        Rendered chart = render();
        JsonNode container = chart.container(chart.one("Deployment"));
        List<String> unknown = new ArrayList<>();
        for (JsonNode env : container.path("env")) {
            String name = env.path("name").asText();
            if (name.startsWith("TOPOBRIDGE_") && !envKeys.contains(name)) {
                unknown.add(name);
            }
        }
        assertThat(unknown)
                .as("chart env vars that match no topobridge.* key " + keys)
                .isEmpty();
        assertThat(container.path("readinessProbe").path("httpGet").path("path").asText())
                .isEqualTo("/q/health/ready");
        assertThat(container.path("livenessProbe").path("httpGet").path("path").asText())
                .isEqualTo("/q/health/live");
        assertThat(container.path("startupProbe").path("httpGet").path("path").asText())
                .isEqualTo("/q/health/started");
    }

    private static String envName(String key) {
        return key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    @Test
    void theChartSetsEveryConfigurationKeyExceptDevModeOnes() {
        Rendered chart = render(Map.of("topology.tiers[0]", "example.com/rack=rack"));
        Map<String, String> env = chart.controllerEnv();
        List<String> missing = ConfigKeys.all().stream()
                .filter(k -> !k.startsWith("topobridge.dev-cluster."))
                .filter(k -> !env.containsKey(envName(k)))
                .toList();
        assertThat(missing).as("configuration keys the chart does not set").isEmpty();
    }

    @Test
    void theChartsEnvironmentIsAValidConfigurationForTheController() {
        for (Map<String, ?> values : List.of(
                Map.<String, Object>of(),
                Map.of("certManager.enabled", true, "replicaCount", 1),
                Map.of(
                        "topology.tiers[0]",
                        "nvidia.com/gpu.clique=nvlink",
                        "workloads.requireNamespaceOptIn",
                        true,
                        "admission.timeout",
                        "10s",
                        "admission.podFailurePolicy",
                        "Fail"))) {
            Rendered chart = render(values);
            var settings = EnvironmentConfig.validated(chart.controllerEnv());
            WebhookSettings webhook = settings.webhook(NS);
            assertThat(webhook.serviceName())
                    .isEqualTo(chart.named("Service", "tb-topobridge-webhook")
                            .path("metadata")
                            .path("name")
                            .asText());
            assertThat(webhook.namespace()).isEqualTo(NS);
        }
    }

    @Test
    void theChartsDefaultWorkloadSettingsAreTheControllersOwn() {
        var chart = EnvironmentConfig.validated(render().controllerEnv()).workloads();
        var own = EnvironmentConfig.validated(Map.of()).workloads();
        assertThat(chart).isEqualTo(own);
        // highest-tier: auto waits for room 5 minutes before it turns soft, installed by the chart or not
        assertThat(chart.autoWaitForRoom()).isEqualTo(java.time.Duration.ofMinutes(5));
    }

    @Test
    void theChartsDefaultFindingAndEventLimitsAreTheControllersOwnAndValuesChangeThem() {
        assertThat(EnvironmentConfig.validated(render().controllerEnv()).findings())
                .isEqualTo(EnvironmentConfig.validated(Map.of()).findings());
        var set = EnvironmentConfig.validated(render(Map.of(
                                "findings.maxPerObject", 20,
                                "events.qps", 2.5,
                                "events.burst", 5,
                                "events.perObjectQps", 0.1,
                                "events.perObjectBurst", 3,
                                "events.queueSize", 100))
                        .controllerEnv())
                .findings();
        assertThat(set).isEqualTo(new io.topobridge.findings.FindingsSettings(20, 2.5, 5, 0.1, 3, 100));
    }

    @Test
    void valuesChangeTheirConfigurationKeys() {
        Map<String, String> env = render(Map.of(
                        "topology.preset",
                        "gke",
                        "workloads.defaultQueue",
                        "inference",
                        "admission.namespaceLabel",
                        "example.com/llm",
                        "admission.tls.validity",
                        "90d",
                        "logLevel",
                        "DEBUG",
                        "volcano.schedulerConfigKey",
                        "scheduler.yaml",
                        "leaderElection.leaseDuration",
                        "30s",
                        "extraEnv.QUARKUS_LOG_LEVEL",
                        "DEBUG"))
                .controllerEnv();
        assertThat(env)
                .containsEntry("TOPOBRIDGE_TOPOLOGY_PRESET", "gke")
                .containsEntry("TOPOBRIDGE_WORKLOADS_DEFAULT_QUEUE", "inference")
                .containsEntry("TOPOBRIDGE_ADMISSION_NAMESPACE_LABEL", "example.com/llm")
                .containsEntry("TOPOBRIDGE_ADMISSION_TLS_VALIDITY", "90d")
                .containsEntry("QUARKUS_LOG_CATEGORY__IO_TOPOBRIDGE__LEVEL", "DEBUG")
                .containsEntry("TOPOBRIDGE_VOLCANO_SCHEDULER_CONFIG_KEY", "scheduler.yaml")
                .containsEntry("TOPOBRIDGE_LEADER_ELECTION_LEASE_DURATION", "30s")
                .containsEntry("QUARKUS_LOG_LEVEL", "DEBUG");
    }

    @Test
    void webhookServiceReachesTheWebhookServer() {
        Rendered chart = render();
        JsonNode service = chart.named("Service", "tb-topobridge-webhook");
        JsonNode deployment = chart.one("Deployment");
        JsonNode container = chart.container(deployment);
        assertThat(service.path("spec").path("ports").get(0).path("port").asInt())
                .isEqualTo(443);
        String target =
                service.path("spec").path("ports").get(0).path("targetPort").asText();
        int webhookPort = -1;
        for (JsonNode port : container.path("ports")) {
            if (port.path("name").asText().equals(target)) {
                webhookPort = port.path("containerPort").asInt();
            }
        }
        assertThat(webhookPort).as("container port named " + target).isEqualTo(8443);
        Map<String, String> env = chart.controllerEnv();
        assertThat(env.get("TOPOBRIDGE_ADMISSION_SERVICE_NAME"))
                .isEqualTo(service.path("metadata").path("name").asText());
        assertThat(env.get("TOPOBRIDGE_ADMISSION_SERVICE_NAMESPACE")).isEqualTo(NS);
        assertThat(env.get("TOPOBRIDGE_ADMISSION_PORT")).isEqualTo(String.valueOf(webhookPort));
        // the bridge's own pods carry the label its webhook excludes
        String[] kv = env.get("TOPOBRIDGE_ADMISSION_SELF_POD_LABEL").split("=", 2);
        JsonNode podLabels =
                deployment.path("spec").path("template").path("metadata").path("labels");
        assertThat(podLabels.path(kv[0]).asText()).isEqualTo(kv[1]);
        // the Services select the controller's pods and never the cleanup Job's
        JsonNode jobPodLabels =
                chart.one("Job").path("spec").path("template").path("metadata").path("labels");
        for (JsonNode svc : chart.all("Service")) {
            assertThat(selects(svc.path("spec").path("selector"), podLabels))
                    .as(svc.path("metadata").path("name").asText())
                    .isTrue();
            assertThat(selects(svc.path("spec").path("selector"), jobPodLabels)).isFalse();
        }
        assertThat(selects(deployment.path("spec").path("selector").path("matchLabels"), podLabels))
                .isTrue();
    }

    private static boolean selects(JsonNode selector, JsonNode labels) {
        assertThat(selector.size()).as("an empty selector selects everything").isPositive();
        for (var it = selector.fields(); it.hasNext(); ) {
            var entry = it.next();
            if (!entry.getValue().asText().equals(labels.path(entry.getKey()).asText(null))) {
                return false;
            }
        }
        return true;
    }

    @Test
    void explicitTiersBecomeOneVariable() {
        Map<String, String> env = render(Map.of(
                        "topology.tiers[0]",
                        "nvidia.com/gpu.clique=nvlink",
                        "topology.tiers[1]",
                        "example.com/rack=rack"))
                .controllerEnv();
        assertThat(env.get("TOPOBRIDGE_TOPOLOGY_TIERS"))
                .isEqualTo("nvidia.com/gpu.clique=nvlink,example.com/rack=rack");
    }

    @Test
    void clusterRoleCoversEveryApiTheControllerReads() {
        JsonNode role = render().named("ClusterRole", "tb-topobridge");
        List<String> missing = new ArrayList<>();
        for (WorkloadKind kind : WorkloadKind.values()) {
            if (!allows(role, kind.group(), kind.plural(), "watch")) {
                missing.add(kind.group() + "/" + kind.plural());
            }
        }
        for (String[] api : new String[][] {
            {"", "nodes", "watch"},
            {"", "pods", "delete"},
            {"topology.volcano.sh", "hypernodes", "patch"},
            {"topology.volcano.sh", "hypernodes", "delete"},
            {"scheduling.volcano.sh", "podgroups", "patch"},
            {"scheduling.volcano.sh", "podgroups", "delete"},
            {"scheduling.volcano.sh", "queues", "watch"},
            {"apiextensions.k8s.io", "customresourcedefinitions", "watch"},
            {"", "events", "create"},
            {"", "configmaps", "watch"},
            {"", "resourcequotas", "watch"},
            {"autoscaling", "horizontalpodautoscalers", "watch"},
            {"autoscaling.aibrix.ai", "podautoscalers", "watch"},
            {"resource.k8s.io", "resourceclaimtemplates", "watch"},
            {"resource.k8s.io", "resourceclaims", "watch"}
        }) {
            if (!allows(role, api[0], api[1], api[2])) {
                missing.add(api[0] + "/" + api[1] + ":" + api[2]);
            }
        }
        assertThat(missing).isEmpty();
    }

    static Stream<Arguments> rbacCases() {
        String webhooks =
                "ClusterRole admissionregistration.k8s.io/mutatingwebhookconfigurations[%s] get,create,patch,delete";
        String secret = "Role core/secrets[%s] get,update";
        String secretRead = "Role core/secrets[%s] get";
        String secretCreate = "Role core/secrets create";
        String lease = "Role coordination.k8s.io/leases[%s] get,patch";
        String leaseCreate = "Role coordination.k8s.io/leases create";
        String namespaces = "ClusterRole core/namespaces list,watch";
        String tokenReviews = "ClusterRole authentication.k8s.io/tokenreviews create";
        String accessReviews = "ClusterRole authorization.k8s.io/subjectaccessreviews create";
        return Stream.of(
                Arguments.of(
                        "defaults (namespaces opt in): the Secret is the chart's, filled and renewed, never created",
                        Map.of(),
                        List.of(webhooks, secret, lease, leaseCreate, namespaces, tokenReviews, accessReviews),
                        List.of(secretRead, secretCreate)),
                Arguments.of(
                        "an open HTTP port reviews no tokens",
                        Map.of("httpAuth.mode", "none"),
                        List.of(secret),
                        List.of(tokenReviews, accessReviews, secretCreate)),
                Arguments.of(
                        "namespaces are read for their queues without opt-in too",
                        Map.of("workloads.requireNamespaceOptIn", false),
                        List.of(namespaces),
                        List.of()),
                Arguments.of(
                        "cert-manager: the Secret is read, the configurations are the chart's",
                        Map.of("certManager.enabled", true),
                        List.of(secretRead, lease),
                        List.of(webhooks, secret, secretCreate)),
                Arguments.of(
                        "a Secret kept by someone else is only read",
                        Map.of("admission.tls.mode", "secret"),
                        List.of(webhooks, secretRead),
                        List.of(secret, secretCreate)),
                Arguments.of(
                        "one replica elects no leader",
                        Map.of("replicaCount", 1),
                        List.of(webhooks, secret),
                        List.of(lease, leaseCreate, secretCreate)),
                Arguments.of(
                        "one replica without admission needs no Role, but removes the configurations",
                        Map.of("replicaCount", 1, "admission.enabled", false),
                        List.of(webhooks),
                        List.of(secret, secretRead, secretCreate, lease, leaseCreate)),
                Arguments.of(
                        "renamed",
                        Map.of(
                                "fullnameOverride",
                                "bridge",
                                "admission.tls.secretName",
                                "bridge-tls",
                                "volcano.schedulerConfigName",
                                "scheduler"),
                        List.of(webhooks, secret, lease),
                        List.of(secretCreate)),
                Arguments.of(
                        "Volcano installed as release vc: its controller ConfigMap is read too",
                        Map.of("volcano.schedulerConfigName", "vc-scheduler-configmap"),
                        List.of(webhooks, secret, lease),
                        List.of(secretCreate)));
    }

    /**
     * What the controller is granted follows the values: only what it uses with them (HelmInstallE2E measures the
     * defaults and the one-replica, admission-off, no-opt-in case on a real API server), and the names it is limited
     * to are the ones its environment names.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("rbacCases")
    void theControllersRbacFollowsTheValues(
            String name, Map<String, Object> values, List<String> present, List<String> absent) {
        Rendered chart = render(values);
        Map<String, String> env = chart.controllerEnv();
        Set<String> grants = grants(chart);
        for (String grant : present) {
            String limitedTo = !grant.contains("%s")
                    ? ""
                    : grant.contains("webhookconfigurations")
                            ? env.get("TOPOBRIDGE_ADMISSION_CONFIGURATION_NAME")
                            : grant.contains("secrets")
                                    ? env.get("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME")
                                    : env.get("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME");
            assertThat(grants).contains(grant.formatted(limitedTo));
        }
        for (String grant : absent) {
            assertThat(grants.stream().map(HelmChartTest::unnamed)).doesNotContain(unnamed(grant));
        }
        // the scheduler's ConfigMap and the controller ConfigMaps the doctor reads (<release>-controller-configmap)
        String schedulerConfig = env.get("TOPOBRIDGE_VOLCANO_SCHEDULER_CONFIG_NAME");
        assertThat(grants)
                .contains("ClusterRole core/configmaps[" + schedulerConfig + ","
                        + String.join(
                                ",", io.topobridge.diagnosis.DoctorGatherer.controllerConfigNames(schedulerConfig))
                        + "] get,list,watch");
        boolean role = grants.stream().anyMatch(g -> g.startsWith("Role "));
        String account = serviceAccount(chart);
        assertThat(chart.objects().stream()
                        .filter(d -> Set.of("Role", "RoleBinding")
                                        .contains(d.path("kind").asText())
                                && d.path("metadata").path("name").asText().equals(account)))
                .as("a Role and its binding exactly when there is something to grant")
                .hasSize(role ? 2 : 0);
    }

    /** The service account the controller's pods run as. */
    private static String serviceAccount(Rendered chart) {
        return chart.one("Deployment")
                .path("spec")
                .path("template")
                .path("spec")
                .path("serviceAccountName")
                .asText();
    }

    private static String unnamed(String grant) {
        return grant.replaceAll("\\[[^]]*]", "");
    }

    /** The controller's grants, one per resource: {@code <Role|ClusterRole> <group>/<resource>[<names>] <verbs>}. */
    private static Set<String> grants(Rendered chart) {
        String account = serviceAccount(chart);
        Set<String> out = new TreeSet<>();
        for (JsonNode role : chart.objects()) {
            String kind = role.path("kind").asText();
            if (!Set.of("Role", "ClusterRole").contains(kind)
                    || !role.path("metadata").path("name").asText().equals(account)) {
                continue;
            }
            for (JsonNode rule : role.path("rules")) {
                String names = rule.has("resourceNames")
                        ? "[" + String.join(",", texts(rule.path("resourceNames"))) + "]"
                        : "";
                for (String group : texts(rule.path("apiGroups"))) {
                    for (String resource : texts(rule.path("resources"))) {
                        out.add(kind + " " + (group.isEmpty() ? "core" : group) + "/" + resource + names + " "
                                + String.join(",", texts(rule.path("verbs"))));
                    }
                }
            }
        }
        return out;
    }

    private static boolean allows(JsonNode role, String group, String resource, String verb) {
        for (JsonNode rule : role.path("rules")) {
            if (contains(rule.path("apiGroups"), group)
                    && contains(rule.path("resources"), resource)
                    && contains(rule.path("verbs"), verb)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(JsonNode list, String value) {
        for (JsonNode item : list) {
            if (item.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    // ---- values and their schema -----------------------------------------------------------------------

    @Test
    void everyValueIsTypedAndDescribedInTheSchema() throws IOException {
        JsonNode values = YAML.readTree(CHART.resolve("values.yaml").toFile());
        JsonNode schema = JSON.readTree(CHART.resolve("values.schema.json").toFile());
        List<String> problems = new ArrayList<>();
        checkTyped("", values, schema, problems);
        assertThat(problems).isEmpty();
    }

    /** Walks the values; every key down to a leaf or a free-form object has a schema entry with a type and a description. */
    private static void checkTyped(String path, JsonNode value, JsonNode schema, List<String> problems) {
        if (!schema.has("description") || schema.path("description").asText().isBlank()) {
            problems.add((path.isEmpty() ? "(root)" : path) + ": no description");
        }
        if (!schema.has("type") && !schema.has("oneOf")) {
            problems.add(path + ": no type");
        }
        if (value.isObject() && schema.has("properties")) {
            for (var it = value.fields(); it.hasNext(); ) {
                var field = it.next();
                JsonNode child = schema.path("properties").path(field.getKey());
                if (child.isMissingNode()) {
                    problems.add(path + "." + field.getKey() + ": not in the schema");
                } else {
                    checkTyped(
                            path.isEmpty() ? field.getKey() : path + "." + field.getKey(),
                            field.getValue(),
                            child,
                            problems);
                }
            }
        }
    }

    static Stream<Arguments> wrongValues() {
        return Stream.of(
                Arguments.of("replicaCount is a number", Map.of("replicaCount", "two")),
                Arguments.of("replicaCount is at least 1", Map.of("replicaCount", 0)),
                Arguments.of("a preset that does not exist", Map.of("topology.preset", "slurm")),
                Arguments.of("a boolean as a word", Map.of("topology.enabled", "yes")),
                Arguments.of("a duration without a unit", Map.of("workloads.resync", "ten minutes")),
                Arguments.of("a webhook timeout over 30s", Map.of("admission.timeout", "45s")),
                Arguments.of("a failure policy that does not exist", Map.of("admission.podFailurePolicy", "Retry")),
                Arguments.of("keep or delete, nothing else", Map.of("cleanup.managedObjects", "maybe")),
                Arguments.of("a digest is sha256:<64 hex>", Map.of("image.digest", "latest")),
                Arguments.of("a misspelled key", Map.of("replicas", 3)),
                Arguments.of("a misspelled nested key", Map.of("admission.failurePolicy", "Fail")),
                Arguments.of("tiers is a list", Map.of("topology.tiers", "example.com/rack")),
                Arguments.of("spread is preferred, required or none", Map.of("spreadAcrossNodes", "always")),
                Arguments.of("an Event rate above 0", Map.of("events.qps", 0)),
                Arguments.of("an Event rate is a number", Map.of("events.perObjectQps", "often")),
                Arguments.of("an Event queue of at least 1", Map.of("events.queueSize", 0)),
                Arguments.of("at least 2 findings per object", Map.of("findings.maxPerObject", 1)),
                Arguments.of("an accelerator is <domain>/<name>", Map.of("workloads.acceleratorResources[0]", "gpu")),
                Arguments.of(
                        "the policy's actions are Deny, Warn or Audit",
                        Map.of("nodeLabelPolicy.validationActions[0]", "Block")),
                Arguments.of("the policy's switch is a boolean", Map.of("nodeLabelPolicy.enabled", "on")),
                Arguments.of("a body size as Kubernetes writes it", Map.of("admission.limits.maxBodySize", "3MB")),
                Arguments.of("reviews in flight are at least one", Map.of("admission.limits.maxConcurrentReviews", 0)),
                Arguments.of("kubernetes or none", Map.of("httpAuth.mode", "basic")),
                Arguments.of("a reader is a subject", Map.of("metricsReaders[0].name", "prometheus")));
    }

    // ---- accelerators and the node label policy ----------------------------------------------------------

    @Test
    void theChartsDefaultAcceleratorsAreTheControllersOwnAndAValueChangesThem() {
        assertThat(EnvironmentConfig.validated(render().controllerEnv()).accelerators())
                .isEqualTo(io.topobridge.core.node.Accelerators.DEFAULT)
                .isEqualTo(EnvironmentConfig.validated(Map.of()).accelerators());
        var chosen = EnvironmentConfig.validated(render(Map.of(
                                "workloads.acceleratorResources[0]", "amd.com/gpu",
                                "workloads.acceleratorResources[1]", "example.com/npu"))
                        .controllerEnv())
                .accelerators();
        assertThat(chosen.resources()).containsExactly("amd.com/gpu", "example.com/npu");
    }

    @Test
    void theNodeLabelPolicyIsOffByDefault() {
        Rendered chart = render();
        assertThat(chart.has("ValidatingAdmissionPolicy")).isFalse();
        assertThat(chart.has("ValidatingAdmissionPolicyBinding")).isFalse();
    }

    private static List<String> strings(String json) throws IOException {
        List<String> out = new ArrayList<>();
        JSON.readTree(json).forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Map<String, String> variables(JsonNode policy) {
        Map<String, String> out = new LinkedHashMap<>();
        policy.path("spec")
                .path("variables")
                .forEach(v ->
                        out.put(v.path("name").asText(), v.path("expression").asText()));
        return out;
    }

    /** On, it refuses nodes any change of every key the built-in presets read, and its binding denies. */
    @Test
    void theNodeLabelPolicyProtectsEveryKeyTheTiersRead() throws IOException {
        Rendered chart = render(Map.of("nodeLabelPolicy.enabled", true));
        JsonNode policy = chart.one("ValidatingAdmissionPolicy");
        JsonNode binding = chart.one("ValidatingAdmissionPolicyBinding");
        assertThat(policy.path("apiVersion").asText()).isEqualTo("admissionregistration.k8s.io/v1");
        assertThat(binding.path("spec").path("policyName").asText())
                .isEqualTo(policy.path("metadata").path("name").asText())
                .isEqualTo("tb-topobridge-node-topology-labels");
        assertThat(binding.path("spec").path("validationActions").toString()).isEqualTo("[\"Deny\"]");
        assertThat(policy.path("spec").path("failurePolicy").asText()).isEqualTo("Fail");
        JsonNode rule = policy.path("spec")
                .path("matchConstraints")
                .path("resourceRules")
                .get(0);
        assertThat(rule.path("resources").toString()).isEqualTo("[\"nodes\"]");
        assertThat(rule.path("operations").toString()).isEqualTo("[\"UPDATE\"]");
        assertThat(policy.path("spec")
                        .path("matchConditions")
                        .get(0)
                        .path("expression")
                        .asText())
                .isEqualTo("request.userInfo.username.startsWith(\"system:node:\")");
        Map<String, String> variables = variables(policy);
        assertThat(strings(variables.get("keys")))
                .as("the keys every built-in preset reads")
                .containsExactlyElementsOf(io.topobridge.core.topology.PresetKeys.keysRead());
        assertThat(strings(variables.get("prefixes")))
                .containsExactlyElementsOf(io.topobridge.core.topology.PresetKeys.prefixesRead());
        assertThat(policy.path("spec")
                        .path("validations")
                        .get(0)
                        .path("expression")
                        .asText())
                .isEqualTo("size(variables.changed) == 0");
    }

    @Test
    void theNodeLabelPolicyTakesTheConfiguredTiersKeysAndActions() throws IOException {
        Rendered chart = render(Map.of(
                "nodeLabelPolicy.enabled", true,
                "nodeLabelPolicy.labelKeys[0]", "example.com/pod",
                "nodeLabelPolicy.refuseOnCreate", true,
                "nodeLabelPolicy.validationActions[0]", "Warn",
                "nodeLabelPolicy.validationActions[1]", "Audit",
                "topology.tiers[0]", "example.com/rack=rack",
                "topology.tiers[1]", "example.com/pod"));
        JsonNode policy = chart.one("ValidatingAdmissionPolicy");
        Map<String, String> variables = variables(policy);
        assertThat(strings(variables.get("keys"))).containsExactly("example.com/pod", "example.com/rack");
        assertThat(strings(variables.get("prefixes"))).isEmpty();
        assertThat(policy.path("spec")
                        .path("matchConstraints")
                        .path("resourceRules")
                        .get(0)
                        .path("operations")
                        .toString())
                .isEqualTo("[\"CREATE\",\"UPDATE\"]");
        assertThat(chart.one("ValidatingAdmissionPolicyBinding")
                        .path("spec")
                        .path("validationActions")
                        .toString())
                .isEqualTo("[\"Warn\",\"Audit\"]");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongValues")
    void wrongValuesFailTheInstall(String name, Map<String, Object> values) {
        assertThat(HelmChart.failure(values)).contains("values don't meet the specifications of the schema");
    }

    // ---- replicas, image, scheduling --------------------------------------------------------------------

    @Test
    void twoReplicasByDefaultWithLeaderElectionADisruptionBudgetAndASpreadAcrossNodes() {
        Rendered chart = render();
        JsonNode deployment = chart.one("Deployment");
        assertThat(deployment.path("spec").path("replicas").asInt()).isEqualTo(2);
        assertThat(chart.controllerEnv())
                .containsEntry("TOPOBRIDGE_LEADER_ELECTION_ENABLED", "true")
                .containsEntry("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME", "tb-topobridge-leader")
                .containsEntry("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAMESPACE", NS);
        JsonNode podLabels =
                deployment.path("spec").path("template").path("metadata").path("labels");
        JsonNode pdb = chart.one("PodDisruptionBudget");
        assertThat(pdb.path("spec").path("minAvailable").asInt()).isEqualTo(1);
        assertThat(selects(pdb.path("spec").path("selector").path("matchLabels"), podLabels))
                .isTrue();
        JsonNode spread = deployment
                .path("spec")
                .path("template")
                .path("spec")
                .path("topologySpreadConstraints")
                .get(0);
        assertThat(spread.path("topologyKey").asText()).isEqualTo("kubernetes.io/hostname");
        assertThat(spread.path("whenUnsatisfiable").asText()).isEqualTo("ScheduleAnyway");
        assertThat(selects(spread.path("labelSelector").path("matchLabels"), podLabels))
                .isTrue();

        JsonNode required = render(Map.of("spreadAcrossNodes", "required")).one("Deployment");
        assertThat(required.path("spec")
                        .path("template")
                        .path("spec")
                        .path("topologySpreadConstraints")
                        .get(0)
                        .path("whenUnsatisfiable")
                        .asText())
                .isEqualTo("DoNotSchedule");
    }

    @Test
    void thePodsRunOnAmd64NodesOffGpuNodesByDefaultAndAnyAffinityReplacesThat() {
        Rendered chart = render();
        JsonNode controller = chart.one("Deployment")
                .path("spec")
                .path("template")
                .path("spec")
                .path("affinity");
        JsonNode cleanup = chart.hooks("pre-delete").stream()
                .filter(d -> d.path("kind").asText().equals("Job"))
                .findFirst()
                .orElseThrow()
                .path("spec")
                .path("template")
                .path("spec")
                .path("affinity");
        for (JsonNode affinity : List.of(controller, cleanup)) {
            JsonNode required = affinity.path("nodeAffinity")
                    .path("requiredDuringSchedulingIgnoredDuringExecution")
                    .path("nodeSelectorTerms")
                    .get(0)
                    .path("matchExpressions")
                    .get(0);
            assertThat(required.path("key").asText()).isEqualTo("kubernetes.io/arch");
            assertThat(required.path("values").toString()).isEqualTo("[\"amd64\",\"arm64\"]");
            JsonNode preferred = affinity.path("nodeAffinity")
                    .path("preferredDuringSchedulingIgnoredDuringExecution")
                    .get(0)
                    .path("preference")
                    .path("matchExpressions")
                    .get(0);
            assertThat(preferred.path("key").asText()).isEqualTo("nvidia.com/gpu.present");
            assertThat(preferred.path("operator").asText()).isEqualTo("NotIn");
        }
        assertThat(render(Map.of("affinity", "null"))
                        .one("Deployment")
                        .path("spec")
                        .path("template")
                        .path("spec")
                        .has("affinity"))
                .as("affinity=null places the pods anywhere")
                .isFalse();
    }

    @Test
    void oneReplicaHasNoBudgetNoSpreadAndNoElection() {
        Rendered chart = render(Map.of("replicaCount", 1));
        assertThat(chart.has("PodDisruptionBudget"))
                .as("a budget of 1 for 1 pod would block every drain")
                .isFalse();
        assertThat(chart.one("Deployment")
                        .path("spec")
                        .path("template")
                        .path("spec")
                        .has("topologySpreadConstraints"))
                .isFalse();
        assertThat(chart.controllerEnv()).containsEntry("TOPOBRIDGE_LEADER_ELECTION_ENABLED", "false");
        assertThat(render(Map.of("replicaCount", 1, "leaderElection.enabled", true))
                        .controllerEnv())
                .containsEntry("TOPOBRIDGE_LEADER_ELECTION_ENABLED", "true");
    }

    @Test
    void imageByTagOrDigestAndTheDefaultTagIsTheVersionTheBuildGivesTheImage() throws IOException {
        JsonNode chartYaml = YAML.readTree(CHART.resolve("Chart.yaml").toFile());
        String version = System.getProperty("build.project.version");
        assertThat(version).as("the build passes the project version").isNotBlank();
        assertThat(chartYaml.path("appVersion").asText())
                .as("Chart.yaml appVersion = pom version")
                .isEqualTo(version);

        Rendered chart = render();
        assertThat(chart.container(chart.one("Deployment")).path("image").asText())
                .isEqualTo("topobridge:" + version);
        assertThat(chart.container(chart.one("Job")).path("image").asText()).isEqualTo("topobridge:" + version);

        String digest = "sha256:" + "ab".repeat(32);
        Rendered pinned = render(Map.of(
                "image.repository", "registry.example/llm/topobridge", "image.tag", "1.2.3", "image.digest", digest));
        assertThat(pinned.container(pinned.one("Deployment")).path("image").asText())
                .isEqualTo("registry.example/llm/topobridge@" + digest);
        assertThat(pinned.container(pinned.one("Job")).path("image").asText())
                .isEqualTo("registry.example/llm/topobridge@" + digest);
        Rendered tagged = render(Map.of("image.tag", "1.2.3"));
        assertThat(tagged.container(tagged.one("Deployment")).path("image").asText())
                .isEqualTo("topobridge:1.2.3");
    }

    @Test
    void priorityClassResourcesAndProbesComeFromValues() {
        Rendered chart = render(Map.of(
                "priorityClassName",
                "system-cluster-critical",
                "resources.limits.memory",
                "1Gi",
                "probes.readiness.periodSeconds",
                7));
        JsonNode pod = chart.one("Deployment").path("spec").path("template").path("spec");
        assertThat(pod.path("priorityClassName").asText()).isEqualTo("system-cluster-critical");
        assertThat(chart.one("Job")
                        .path("spec")
                        .path("template")
                        .path("spec")
                        .path("priorityClassName")
                        .asText())
                .isEqualTo("system-cluster-critical");
        JsonNode container = pod.path("containers").get(0);
        assertThat(container.path("resources").path("limits").path("memory").asText())
                .isEqualTo("1Gi");
        assertThat(container.path("readinessProbe").path("periodSeconds").asInt())
                .isEqualTo(7);
        assertThat(render().one("Deployment")
                        .path("spec")
                        .path("template")
                        .path("spec")
                        .has("priorityClassName"))
                .isFalse();
    }

    @Test
    void serviceMonitorScrapesTheMetricsServiceWhenAsked() {
        assertThat(render().has("ServiceMonitor")).isFalse();
        Rendered chart = render(Map.of("serviceMonitor.enabled", true, "serviceMonitor.labels.release", "prometheus"));
        JsonNode monitor = chart.one("ServiceMonitor");
        assertThat(monitor.path("metadata").path("labels").path("release").asText())
                .isEqualTo("prometheus");
        List<JsonNode> scraped = chart.all("Service").stream()
                .filter(s -> selects(
                        monitor.path("spec").path("selector").path("matchLabels"),
                        s.path("metadata").path("labels")))
                .toList();
        assertThat(scraped).hasSize(1);
        JsonNode endpoint = monitor.path("spec").path("endpoints").get(0);
        assertThat(endpoint.path("path").asText()).isEqualTo("/q/metrics");
        JsonNode port = scraped.get(0).path("spec").path("ports").get(0);
        assertThat(port.path("name").asText()).isEqualTo(endpoint.path("port").asText());
        assertThat(port.path("targetPort").asText()).isEqualTo("http");
        assertThat(endpoint.path("bearerTokenFile").asText())
                .as("Prometheus' own ServiceAccount token, which the metrics-reader ClusterRole lets in")
                .isEqualTo("/var/run/secrets/kubernetes.io/serviceaccount/token");
        assertThat(render(Map.of("serviceMonitor.enabled", true, "httpAuth.mode", "none"))
                        .one("ServiceMonitor")
                        .path("spec")
                        .path("endpoints")
                        .get(0)
                        .has("bearerTokenFile"))
                .isFalse();
    }

    // ---- TLS: the controller's own CA, or cert-manager ----------------------------------------------------

    @Test
    void withoutCertManagerTheControllerMakesItsCertificateAndConfigurations() {
        Rendered chart = render();
        assertThat(chart.has("Certificate")).isFalse();
        assertThat(chart.has("MutatingWebhookConfiguration")).isFalse();
        assertThat(chart.controllerEnv())
                .containsEntry("TOPOBRIDGE_ADMISSION_TLS_MODE", "generate")
                .containsEntry("TOPOBRIDGE_ADMISSION_MANAGE_CONFIGURATIONS", "true")
                .containsEntry("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME", "tb-topobridge-webhook-tls")
                .containsEntry("TOPOBRIDGE_ADMISSION_CONFIGURATION_NAME", "tb-topobridge");
    }

    static Stream<Arguments> certManagerCases() {
        return Stream.of(
                Arguments.of("defaults", Map.of()),
                Arguments.of(
                        "opt-in for workloads, Fail, 10s",
                        Map.of(
                                "workloads.requireNamespaceOptIn",
                                true,
                                "admission.podFailurePolicy",
                                "Fail",
                                "admission.workloadFailurePolicy",
                                "Fail",
                                "admission.timeout",
                                "10s",
                                "admission.namespaceLabel",
                                "example.com/llm")),
                Arguments.of("no workload validation", Map.of("admission.validateWorkloads", false)),
                Arguments.of("renamed", Map.of("nameOverride", "bridge", "admission.tls.secretName", "bridge-tls")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("certManagerCases")
    void withCertManagerTheChartRendersTheSameWebhookConfigurationsTheControllerWould(
            String name, Map<String, Object> extra) {
        Map<String, Object> values = new LinkedHashMap<>(extra);
        values.put("certManager.enabled", true);
        Rendered chart = render(values);
        Map<String, String> env = chart.controllerEnv();
        assertThat(env)
                .containsEntry("TOPOBRIDGE_ADMISSION_TLS_MODE", "secret")
                .containsEntry("TOPOBRIDGE_ADMISSION_MANAGE_CONFIGURATIONS", "false");
        WebhookSettings settings = EnvironmentConfig.validated(env).webhook(NS);

        JsonNode certificate = chart.one("Certificate");
        assertThat(certificate.path("spec").path("secretName").asText())
                .isEqualTo(settings.tls().secretName());
        assertThat(texts(certificate.path("spec").path("dnsNames")))
                .containsExactlyInAnyOrderElementsOf(TlsSettings.serviceDnsNames(settings.serviceName(), NS));
        assertThat(certificate.path("spec").path("issuerRef").path("name").asText())
                .isEqualTo(chart.one("Issuer").path("metadata").path("name").asText());
        String inject = NS + "/" + certificate.path("metadata").path("name").asText();

        JsonNode mutating = chart.one("MutatingWebhookConfiguration");
        assertThat(mutating.path("metadata").path("name").asText()).isEqualTo(settings.configurationName());
        assertThat(mutating.path("metadata")
                        .path("annotations")
                        .path("cert-manager.io/inject-ca-from")
                        .asText())
                .isEqualTo(inject);
        assertThat(mutating.path("metadata")
                        .path("labels")
                        .path("app.kubernetes.io/managed-by")
                        .asText())
                .as("Helm's, so the cleanup hook leaves it to Helm")
                .isEqualTo("Helm");
        assertThat(withoutCaBundle(mutating.path("webhooks")))
                .isEqualTo(withoutCaBundle(SERIALIZATION
                        .convertValue(WebhookConfigurations.mutating(settings, "ca"), JsonNode.class)
                        .path("webhooks")));
        if (settings.validateWorkloads()) {
            JsonNode validating = chart.one("ValidatingWebhookConfiguration");
            assertThat(validating
                            .path("metadata")
                            .path("annotations")
                            .path("cert-manager.io/inject-ca-from")
                            .asText())
                    .isEqualTo(inject);
            assertThat(withoutCaBundle(validating.path("webhooks")))
                    .isEqualTo(withoutCaBundle(SERIALIZATION
                            .convertValue(WebhookConfigurations.validating(settings, "ca"), JsonNode.class)
                            .path("webhooks")));
        } else {
            assertThat(chart.has("ValidatingWebhookConfiguration")).isFalse();
        }
    }

    @Test
    void anIssuerOfYourOwnReplacesTheSelfSignedOne() {
        Rendered chart = render(Map.of(
                "certManager.enabled",
                true,
                "certManager.issuerRef.name",
                "corp-ca",
                "certManager.issuerRef.kind",
                "ClusterIssuer"));
        assertThat(chart.has("Issuer")).isFalse();
        JsonNode issuer = chart.one("Certificate").path("spec").path("issuerRef");
        assertThat(issuer.path("name").asText()).isEqualTo("corp-ca");
        assertThat(issuer.path("kind").asText()).isEqualTo("ClusterIssuer");
    }

    static JsonNode withoutCaBundle(JsonNode webhooks) {
        JsonNode copy = webhooks.deepCopy();
        copy.forEach(w -> ((com.fasterxml.jackson.databind.node.ObjectNode) w.path("clientConfig")).remove("caBundle"));
        return copy;
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    // ---- uninstall: the pre-delete cleanup hook ---------------------------------------------------------

    @Test
    void thePreDeleteHookRunsCleanupWithTheControllersConfigurationAndItsOwnRbac() {
        Rendered chart = render();
        List<JsonNode> hook = chart.hooks("pre-delete");
        assertThat(hook)
                .extracting(d -> d.path("kind").asText())
                .containsExactly("ServiceAccount", "ClusterRole", "Role", "ClusterRoleBinding", "RoleBinding", "Job");
        assertThat(chart.objects())
                .noneMatch(d -> d.path("metadata").path("name").asText().endsWith("-cleanup"));

        JsonNode job = chart.one("Job");
        JsonNode container = chart.container(job);
        assertThat(texts(container.path("args")))
                .containsExactly(
                        "cleanup",
                        "--managed-objects=delete",
                        "--stop-deployment="
                                + chart.one("Deployment")
                                        .path("metadata")
                                        .path("name")
                                        .asText(),
                        "--wait=120");
        assertThat(Rendered.env(container))
                .as("the same configuration, so it finds what the controller made")
                .isEqualTo(chart.controllerEnv());
        String account = job.path("spec")
                .path("template")
                .path("spec")
                .path("serviceAccountName")
                .asText();
        assertThat(account)
                .isEqualTo("tb-topobridge-cleanup")
                .isNotEqualTo(chart.one("Deployment")
                        .path("spec")
                        .path("template")
                        .path("spec")
                        .path("serviceAccountName")
                        .asText());
        for (String binding : List.of("ClusterRoleBinding", "RoleBinding")) {
            JsonNode bound = chart.named(binding, account);
            assertThat(bound.path("subjects").get(0).path("name").asText()).isEqualTo(account);
            assertThat(bound.path("roleRef").path("name").asText()).isEqualTo(account);
        }

        Map<String, String> env = chart.controllerEnv();
        JsonNode clusterRole = chart.named("ClusterRole", account);
        assertThat(rule(clusterRole, "mutatingwebhookconfigurations")
                        .path("resourceNames")
                        .get(0)
                        .asText())
                .isEqualTo(env.get("TOPOBRIDGE_ADMISSION_CONFIGURATION_NAME"));
        assertThat(allows(clusterRole, "topology.volcano.sh", "hypernodes", "delete"))
                .isTrue();
        assertThat(allows(clusterRole, "scheduling.volcano.sh", "podgroups", "delete"))
                .isTrue();
        JsonNode role = chart.named("Role", account);
        assertThat(rule(role, "secrets").path("resourceNames").get(0).asText())
                .isEqualTo(env.get("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME"));
        assertThat(rule(role, "leases").path("resourceNames").get(0).asText())
                .isEqualTo(env.get("TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME"));
        assertThat(rule(role, "deployments").path("resourceNames").get(0).asText())
                .isEqualTo("tb-topobridge");
        assertThat(texts(rule(role, "deployments").path("verbs"))).containsExactly("get", "patch");
    }

    @Test
    void keepingManagedObjectsAlsoDropsTheRightToDeleteThem() {
        Rendered chart = render(Map.of("cleanup.managedObjects", "keep"));
        assertThat(texts(chart.container(chart.one("Job")).path("args"))).contains("--managed-objects=keep");
        JsonNode clusterRole = chart.named("ClusterRole", "tb-topobridge-cleanup");
        assertThat(allows(clusterRole, "topology.volcano.sh", "hypernodes", "delete"))
                .isFalse();
        assertThat(allows(clusterRole, "scheduling.volcano.sh", "podgroups", "delete"))
                .isFalse();
        assertThat(render(Map.of("cleanup.enabled", false)).hooks("pre-delete")).isEmpty();
    }

    static JsonNode rule(JsonNode role, String resource) {
        for (JsonNode rule : role.path("rules")) {
            if (contains(rule.path("resources"), resource)) {
                return rule;
            }
        }
        throw new AssertionError("no rule for " + resource + " in " + role);
    }

    @Test
    void notesTellTheNextSteps() {
        var release = new Helm(CHART)
                .install()
                .withName("tb")
                .withNamespace(NS)
                .withKubeVersion(HelmChart.KUBE_VERSION)
                .dryRun()
                .clientOnly()
                .call();
        assertThat(release.getOutput())
                .contains(
                        "kubectl label namespace <namespace> topobridge.io/enabled=true",
                        "rollout status deployment/tb-topobridge",
                        "/q/health/ready",
                        "/api/findings",
                        "deletes the HyperNodes and PodGroups it made",
                        "runs the image topobridge:",
                        "which no registry serves");
        var pushed = new Helm(CHART)
                .install()
                .withName("tb")
                .withNamespace(NS)
                .withKubeVersion(HelmChart.KUBE_VERSION)
                .set("image.repository", "registry.example.com/ml/topobridge")
                .set("image.tag", "0.2.0")
                .dryRun()
                .clientOnly()
                .call();
        assertThat(pushed.getOutput())
                .contains("runs the image registry.example.com/ml/topobridge:0.2.0")
                .doesNotContain("which no registry serves");
    }

    @Test
    void everyTemplateRendersWithEveryOptionOn() throws IOException {
        Rendered chart = render(pairs(
                "certManager.enabled",
                true,
                "serviceMonitor.enabled",
                true,
                "topologySpreadConstraints[0].maxSkew",
                1,
                "topologySpreadConstraints[0].topologyKey",
                "topology.kubernetes.io/zone",
                "topologySpreadConstraints[0].whenUnsatisfiable",
                "ScheduleAnyway",
                "podLabels.team",
                "llm",
                "nodeLabelPolicy.enabled",
                true,
                "networkPolicy.httpFrom[0].namespaceSelector.matchLabels.team",
                "monitoring",
                "apiReaders[0].kind",
                "Group",
                "apiReaders[0].name",
                "sre",
                "apiReaders[0].apiGroup",
                "rbac.authorization.k8s.io"));
        Set<String> kinds = new TreeSet<>();
        chart.documents().forEach(d -> kinds.add(d.path("kind").asText()));
        assertThat(kinds)
                .contains(
                        "Certificate",
                        "Issuer",
                        "ServiceMonitor",
                        "PodDisruptionBudget",
                        "MutatingWebhookConfiguration",
                        "ValidatingWebhookConfiguration",
                        "ValidatingAdmissionPolicy",
                        "ValidatingAdmissionPolicyBinding",
                        "Job",
                        "NetworkPolicy",
                        "ClusterRoleBinding");
        try (var templates = Files.list(CHART.resolve("templates"))) {
            assertThat(templates.filter(t -> t.toString().endsWith(".yaml")).count())
                    .as("a template without a rendered object here or in theChartMakesTheEmptyCertificateSecret...: "
                            + "add its option above")
                    .isEqualTo(13);
        }
        assertThat(chart.one("Deployment")
                        .path("spec")
                        .path("template")
                        .path("spec")
                        .path("topologySpreadConstraints"))
                .hasSize(2);
        for (JsonNode doc : chart.documents()) {
            Iterator<String> names = doc.path("metadata").path("labels").fieldNames();
            List<String> labels = new ArrayList<>();
            names.forEachRemaining(labels::add);
            assertThat(labels)
                    .as(doc.path("kind") + " " + doc.path("metadata").path("name"))
                    .contains("app.kubernetes.io/name", "app.kubernetes.io/instance", "app.kubernetes.io/component");
        }
    }

    // ---- least privilege, the HTTP port's readers and the network policy ---------------------------------

    @Test
    void theChartMakesTheEmptyCertificateSecretTheControllerFillsOnlyInGenerateMode() {
        Rendered chart = render();
        JsonNode secret = chart.one("Secret");
        Map<String, String> env = chart.controllerEnv();
        assertThat(secret.path("metadata").path("name").asText())
                .isEqualTo(env.get("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME"));
        assertThat(secret.path("metadata").path("namespace").asText()).isEqualTo(NS);
        assertThat(secret.path("metadata")
                        .path("labels")
                        .path("app.kubernetes.io/managed-by")
                        .asText())
                .as("the controller writes only a Secret labelled as its own")
                .isEqualTo("topobridge");
        assertThat(secret.has("data") || secret.has("stringData") || secret.has("type"))
                .as("nothing an upgrade or kubectl apply could reset, nor a type an adopted Secret could differ in")
                .isFalse();
        assertThat(render(Map.of("certManager.enabled", true)).has("Secret")).isFalse();
        assertThat(render(Map.of("admission.tls.mode", "secret")).has("Secret")).isFalse();
        assertThat(render(Map.of("admission.enabled", false)).has("Secret")).isFalse();
    }

    @Test
    void theWebhooksNeverInterceptTheReleaseNamespace() {
        Rendered chart = render(Map.of("certManager.enabled", true));
        for (JsonNode webhook : chart.one("MutatingWebhookConfiguration").path("webhooks")) {
            assertThat(webhook.path("namespaceSelector").toString())
                    .as(webhook.path("name").asText())
                    .contains("\"values\":[\"kube-system\",\"" + NS + "\"]");
        }
        JsonNode inKubeSystem = HelmChart.render("tb", "kube-system", Map.of("certManager.enabled", true))
                .one("MutatingWebhookConfiguration");
        assertThat(inKubeSystem
                        .path("webhooks")
                        .get(0)
                        .path("namespaceSelector")
                        .toString())
                .contains("\"values\":[\"kube-system\"]");
    }

    @Test
    void readersGetNonResourceUrlsUnderThePrefixAndBindingsOnlyWhenAsked() {
        Rendered chart = render();
        JsonNode api = chart.named("ClusterRole", "tb-topobridge-api-reader");
        JsonNode metrics = chart.named("ClusterRole", "tb-topobridge-metrics-reader");
        assertThat(texts(api.path("rules").get(0).path("nonResourceURLs")))
                .containsExactly("/topobridge/api/*", "/topobridge/topology", "/topobridge/q/metrics");
        assertThat(texts(metrics.path("rules").get(0).path("nonResourceURLs")))
                .containsExactly("/topobridge/q/metrics");
        for (JsonNode role : List.of(api, metrics)) {
            assertThat(texts(role.path("rules").get(0).path("verbs"))).containsExactly("get");
            assertThat(role.path("rules").get(0).has("resources")).isFalse();
        }
        assertThat(chart.all("ClusterRoleBinding"))
                .noneMatch(b -> b.path("roleRef").path("name").asText().endsWith("-reader"));

        Rendered bound = render(Map.of(
                "metricsReaders[0].kind", "ServiceAccount",
                "metricsReaders[0].name", "prometheus-k8s",
                "metricsReaders[0].namespace", "monitoring"));
        JsonNode binding = bound.named("ClusterRoleBinding", "tb-topobridge-metrics-reader");
        assertThat(binding.path("roleRef").path("name").asText()).isEqualTo("tb-topobridge-metrics-reader");
        assertThat(binding.path("subjects").get(0).path("name").asText()).isEqualTo("prometheus-k8s");
        assertThat(binding.path("subjects").get(0).path("namespace").asText()).isEqualTo("monitoring");
        assertThat(render(Map.of("httpAuth.mode", "none")).all("ClusterRole"))
                .noneMatch(r -> r.path("metadata").path("name").asText().endsWith("-reader"));
    }

    @Test
    void theNetworkPolicyAdmitsOnlyTheWebhookAndHttpPortsFromTheirPeers() {
        Rendered chart = render();
        JsonNode policy = chart.one("NetworkPolicy").path("spec");
        JsonNode podLabels = chart.one("Deployment")
                .path("spec")
                .path("template")
                .path("metadata")
                .path("labels");
        assertThat(selects(policy.path("podSelector").path("matchLabels"), podLabels))
                .isTrue();
        JsonNode jobPodLabels =
                chart.one("Job").path("spec").path("template").path("metadata").path("labels");
        assertThat(selects(policy.path("podSelector").path("matchLabels"), jobPodLabels))
                .isFalse();
        assertThat(texts(policy.path("policyTypes"))).containsExactly("Ingress");
        // by default: the webhook port from any source (the API server's address is the platform's), nothing else
        assertThat(policy.path("ingress")).hasSize(1);
        JsonNode webhook = policy.path("ingress").get(0);
        assertThat(webhook.path("ports").get(0).path("port").asText()).isEqualTo("webhook");
        assertThat(webhook.has("from")).isFalse();
        JsonNode container = chart.container(chart.one("Deployment"));
        assertThat(container.path("ports").findValuesAsText("name")).contains("webhook", "http");

        Rendered narrowed = render(Map.of(
                "networkPolicy.webhookFrom[0].ipBlock.cidr",
                "10.0.0.0/24",
                "networkPolicy.httpFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name",
                "monitoring"));
        JsonNode ingress = narrowed.one("NetworkPolicy").path("spec").path("ingress");
        assertThat(ingress).hasSize(2);
        assertThat(ingress.get(0)
                        .path("from")
                        .get(0)
                        .path("ipBlock")
                        .path("cidr")
                        .asText())
                .isEqualTo("10.0.0.0/24");
        assertThat(ingress.get(1).path("ports").get(0).path("port").asText()).isEqualTo("http");
        assertThat(ingress.get(1)
                        .path("from")
                        .get(0)
                        .path("namespaceSelector")
                        .path("matchLabels")
                        .path("kubernetes.io/metadata.name")
                        .asText())
                .isEqualTo("monitoring");

        JsonNode closed =
                render(Map.of("admission.enabled", false)).one("NetworkPolicy").path("spec");
        assertThat(closed.path("ingress").isArray() && closed.path("ingress").isEmpty())
                .as("no webhook, no HTTP peers: no ingress but the node's")
                .isTrue();
        assertThat(render(Map.of("networkPolicy.enabled", false)).has("NetworkPolicy"))
                .isFalse();
    }

    /** Chart values from alternating keys and values (more than {@code Map.of} takes). */
    private static Map<String, Object> pairs(Object... keysAndValues) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return values;
    }
}

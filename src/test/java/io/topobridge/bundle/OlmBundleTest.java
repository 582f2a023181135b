package io.topobridge.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.topobridge.config.EnvironmentConfig;
import io.topobridge.testing.GeneratedFiles;
import io.topobridge.testing.HelmChart;
import io.topobridge.tls.TlsSettings;
import io.topobridge.webhook.WebhookSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The committed OLM bundle is what the chart says ({@code -Dbundle.update=true} rewrites it), and what it says is the
 * chart's default install but for the settings OLM decides: the certificate, the webhook registration and the
 * namespace.
 */
class OlmBundleTest {

    private static final Path ROOT = Path.of("");
    private static JsonNode csv;
    private static HelmChart.Rendered byDefault;
    /** The rendering the bundle is built from. */
    private static HelmChart.Rendered forOlm;

    /** The generated files; the first test checks that they are the committed ones. */
    private static SortedMap<Path, String> files;

    @BeforeAll
    static void generate() throws IOException {
        files = OlmBundle.files(ROOT);
        csv = new YAMLMapper().readTree(files.get(Path.of("manifests", "topobridge.clusterserviceversion.yaml")));
        byDefault = HelmChart.render(BundleManifests.RELEASE, BundleManifests.NAMESPACE, Map.of());
        forOlm = HelmChart.render(
                BundleManifests.RELEASE, BundleManifests.NAMESPACE, BundleManifests.values(BundleManifests.RELEASE));
    }

    @Test
    void theCommittedBundleEqualsWhatTheGeneratorProducesFromTheChart() {
        GeneratedFiles.assertCurrent(
                OlmBundle::check, ROOT, "bundle.update", "bundle/ (with the chart)", OlmBundle.UPDATE_COMMAND);
    }

    @Test
    void theDeploymentIsTheChartsDefaultButForTheSettingsOlmDecides() {
        JsonNode deployment = csv.at("/spec/install/spec/deployments/0");
        JsonNode chart = byDefault.one("Deployment");
        assertThat(deployment.path("name").asText())
                .isEqualTo(chart.at("/metadata/name").asText());
        ObjectNode bundled = deployment.path("spec").deepCopy();
        ObjectNode rendered = chart.path("spec").deepCopy();
        Map<String, String> bundledEnv = HelmChart.Rendered.env(bundled.at("/template/spec/containers/0"));
        Map<String, String> chartEnv = HelmChart.Rendered.env(rendered.at("/template/spec/containers/0"));
        Set<String> changed = new TreeSet<>();
        chartEnv.forEach((name, value) -> {
            if (!value.equals(bundledEnv.get(name))) {
                changed.add(name);
            }
        });
        assertThat(changed)
                .containsExactlyInAnyOrder(
                        "TOPOBRIDGE_ADMISSION_MANAGE_CONFIGURATIONS",
                        "TOPOBRIDGE_ADMISSION_TLS_MODE",
                        "TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME",
                        "TOPOBRIDGE_ADMISSION_SERVICE_NAME",
                        "TOPOBRIDGE_ADMISSION_SERVICE_NAMESPACE",
                        "TOPOBRIDGE_LEADER_ELECTION_LEASE_NAMESPACE",
                        "TOPOBRIDGE_WORKLOADS_REQUIRE_NAMESPACE_OPT_IN");
        assertThat(bundledEnv)
                .containsEntry("TOPOBRIDGE_ADMISSION_TLS_MODE", "secret")
                .containsEntry("TOPOBRIDGE_ADMISSION_MANAGE_CONFIGURATIONS", "false")
                .containsEntry("TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME", "topobridge-service-cert")
                .containsEntry("TOPOBRIDGE_ADMISSION_SERVICE_NAME", "topobridge-service")
                .doesNotContainKeys(
                        "TOPOBRIDGE_ADMISSION_SERVICE_NAMESPACE", "TOPOBRIDGE_LEADER_ELECTION_LEASE_NAMESPACE");
        assertThat(envVar(bundled, "TOPOBRIDGE_ADMISSION_SERVICE_NAMESPACE")
                        .at("/valueFrom/fieldRef/fieldPath")
                        .asText())
                .isEqualTo("metadata.namespace");
        // everything else in the Deployment is the chart's, field by field
        ((ObjectNode) bundled.at("/template/spec/containers/0")).remove("env");
        ((ObjectNode) rendered.at("/template/spec/containers/0")).remove("env");
        assertThat(bundled).isEqualTo(rendered);
        assertThat(deployment.path("label").has("helm.sh/chart")).isFalse();
    }

    @Test
    void theBundledEnvironmentPassesTheControllersStartUpValidationWhereverOlmInstallsIt() {
        JsonNode container = csv.at("/spec/install/spec/deployments/0/spec/template/spec/containers/0");
        Map<String, String> environment = new LinkedHashMap<>();
        for (JsonNode variable : container.path("env")) {
            // what the kubelet resolves: the only field the bundle reads from the pod is its namespace
            String value = variable.has("value")
                    ? variable.path("value").asText()
                    : variable.at("/valueFrom/fieldRef/fieldPath").asText().equals("metadata.namespace")
                            ? "operators"
                            : null;
            assertThat(value).as(variable.toString()).isNotNull();
            environment.put(variable.path("name").asText(), value);
        }
        WebhookSettings webhook = EnvironmentConfig.validated(environment).webhook("operators");
        assertThat(webhook.namespace()).isEqualTo("operators");
        assertThat(webhook.serviceName()).isEqualTo("topobridge-service");
        assertThat(webhook.manageConfigurations()).isFalse();
        assertThat(webhook.tls().mode()).isEqualTo(TlsSettings.Mode.SECRET);
        assertThat(webhook.tls().secretName()).isEqualTo("topobridge-service-cert");
        assertThat(webhook.workloadsRequireOptIn()).isFalse();
        // OLM's serving certificate names <service>.<namespace>.svc, one of the names the bridge answers to
        assertThat(webhook.tls().dnsNames()).contains("topobridge-service.operators.svc");
    }

    @Test
    void theRulesAreTheChartsButForTheWebhookConfigurationsAndCertificateOlmKeeps() {
        List<JsonNode> clusterRules = list(csv.at("/spec/install/spec/clusterPermissions/0/rules"));
        List<JsonNode> chartClusterRules =
                list(byDefault.named("ClusterRole", "topobridge").path("rules"));
        List<JsonNode> onlyInChart = new ArrayList<>(chartClusterRules);
        onlyInChart.removeAll(clusterRules);
        assertThat(onlyInChart)
                .singleElement()
                .satisfies(rule ->
                        assertThat(rule.path("apiGroups").get(0).asText()).isEqualTo("admissionregistration.k8s.io"));
        assertThat(chartClusterRules).containsAll(clusterRules);
        assertThat(csv.at("/spec/install/spec/clusterPermissions/0/serviceAccountName")
                        .asText())
                .isEqualTo(byDefault
                        .one("Deployment")
                        .at("/spec/template/spec/serviceAccountName")
                        .asText());
        // the lease rules as the chart's; the Secret only read, and it is OLM's
        List<JsonNode> rules = list(csv.at("/spec/install/spec/permissions/0/rules"));
        assertThat(rules).hasSize(byDefault.one("Role").path("rules").size());
        assertThat(rules.get(0).path("resourceNames").get(0).asText()).isEqualTo("topobridge-service-cert");
        assertThat(rules.get(0).path("verbs").toString()).isEqualTo("[\"get\"]");
        assertThat(rules.subList(1, rules.size()))
                .isEqualTo(list(byDefault.one("Role").path("rules")).subList(1, rules.size()));
    }

    @Test
    void everyChartWebhookIsADefinitionCalledThroughOlmsService() {
        List<JsonNode> chartWebhooks = new ArrayList<>();
        forOlm.all("MutatingWebhookConfiguration")
                .forEach(c -> c.path("webhooks").forEach(chartWebhooks::add));
        forOlm.all("ValidatingWebhookConfiguration")
                .forEach(c -> c.path("webhooks").forEach(chartWebhooks::add));
        JsonNode definitions = csv.at("/spec/webhookdefinitions");
        assertThat(definitions).hasSize(chartWebhooks.size()).hasSize(3);
        for (int i = 0; i < chartWebhooks.size(); i++) {
            JsonNode webhook = chartWebhooks.get(i);
            JsonNode definition = definitions.get(i);
            assertThat(definition.path("generateName").asText())
                    .isEqualTo(webhook.path("name").asText());
            assertThat(definition.path("rules")).isEqualTo(webhook.path("rules"));
            assertThat(definition.path("objectSelector")).isEqualTo(webhook.path("objectSelector"));
            assertThat(definition.path("failurePolicy")).isEqualTo(webhook.path("failurePolicy"));
            assertThat(definition.path("webhookPath").asText())
                    .isEqualTo(webhook.at("/clientConfig/service/path").asText());
            assertThat(definition.path("deploymentName").asText()).isEqualTo("topobridge");
            assertThat(definition.path("containerPort").asInt()).isEqualTo(443);
            assertThat(definition.path("targetPort").asInt()).isEqualTo(8443);
        }
        assertThat(definitions.findValuesAsText("type"))
                .containsExactly("MutatingAdmissionWebhook", "MutatingAdmissionWebhook", "ValidatingAdmissionWebhook");
    }

    @Test
    void itInstallsClusterWideAndNeedsTheVolcanoKindsOfCrds() {
        assertThat(csv.at("/spec/installModes"))
                .allSatisfy(mode -> assertThat(mode.path("supported").asBoolean())
                        .as(mode.toString())
                        .isEqualTo(mode.path("type").asText().equals("AllNamespaces")));
        assertThat(csv.at("/spec/nativeAPIs").toString())
                .isEqualTo("[{\"group\":\"scheduling.volcano.sh\",\"version\":\"v1beta1\",\"kind\":\"PodGroup\"},"
                        + "{\"group\":\"scheduling.volcano.sh\",\"version\":\"v1beta1\",\"kind\":\"Queue\"},"
                        + "{\"group\":\"topology.volcano.sh\",\"version\":\"v1alpha1\",\"kind\":\"HyperNode\"}]");
        assertThat(csv.at("/spec/customresourcedefinitions").isMissingNode()).isTrue();
        Chart chart = Chart.read(HelmChart.CHART.resolve("Chart.yaml"));
        assertThat(csv.at("/spec/version").asText()).isEqualTo(chart.version());
        assertThat(csv.at("/metadata/name").asText()).isEqualTo("topobridge.v" + chart.version());
        assertThat(csv.at("/spec/install/spec/deployments/0/spec/template/spec/containers/0/image")
                        .asText())
                .isEqualTo("topobridge:" + chart.appVersion());
        assertThat(csv.at("/spec/minKubeVersion").asText()).matches("1\\.\\d+\\.\\d+");
        // the architectures the chart's pods may run on (its required node affinity), as OLM's catalogs label them
        assertThat(csv.at("/metadata/labels").toString())
                .isEqualTo("{\"operatorframework.io/arch.amd64\":\"supported\","
                        + "\"operatorframework.io/arch.arm64\":\"supported\","
                        + "\"operatorframework.io/os.linux\":\"supported\"}");
    }

    @Test
    void theOtherManifestsAreTheChartsObjectsWithoutNamespaceOrHelmLabels() throws IOException {
        assertThat(files.keySet().stream()
                        .filter(p -> p.startsWith("manifests"))
                        .map(p -> p.getFileName().toString()))
                .containsExactly(
                        "topobridge-api-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml",
                        "topobridge-metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml",
                        "topobridge-metrics_v1_service.yaml",
                        "topobridge.clusterserviceversion.yaml",
                        "topobridge_policy_v1_poddisruptionbudget.yaml");
        JsonNode service =
                new YAMLMapper().readTree(files.get(Path.of("manifests", "topobridge-metrics_v1_service.yaml")));
        assertThat(service.path("spec"))
                .isEqualTo(byDefault.named("Service", "topobridge-metrics").path("spec"));
        assertThat(service.at("/metadata/namespace").isMissingNode()).isTrue();
        assertThat(service.at("/metadata/labels").has("app.kubernetes.io/managed-by"))
                .isFalse();
    }

    @Test
    void aWebhookFieldTheCsvCannotCarryFailsTheGenerationNamingIt() {
        ObjectNode copy =
                forOlm.named("MutatingWebhookConfiguration", "topobridge").deepCopy();
        ((ObjectNode) copy.path("webhooks").get(0)).putObject("matchConditions");
        assertThatThrownBy(() -> WebhookDefinitions.from(
                        List.of(copy), forOlm.named("Service", "topobridge-webhook"), forOlm.one("Deployment")))
                .hasMessageContaining("pods.topobridge.io")
                .hasMessageContaining("matchConditions");
    }

    private static JsonNode envVar(JsonNode spec, String name) {
        for (JsonNode env : spec.at("/template/spec/containers/0/env")) {
            if (env.path("name").asText().equals(name)) {
                return env;
            }
        }
        throw new AssertionError("no " + name);
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        ((ArrayNode) array).forEach(out::add);
        return out;
    }
}

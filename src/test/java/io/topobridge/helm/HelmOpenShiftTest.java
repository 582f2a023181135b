package io.topobridge.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topobridge.config.EnvironmentConfig;
import io.topobridge.testing.HelmChart;
import io.topobridge.testing.HelmChart.Rendered;
import io.topobridge.tls.TlsSettings;
import io.topobridge.webhook.WebhookConfigurations;
import io.topobridge.webhook.WebhookSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart as OpenShift runs it: every pod it makes fits Pod Security's {@code restricted} profile without a fixed
 * UID (so the {@code restricted-v2} SCC can assign one), and {@code admission.tls.mode=openshift-service-ca} hands the
 * certificate to the service-CA operator: the Service asks for the Secret, the webhook configurations for the
 * caBundle, and the controller only reads the Secret. HelmInstallE2E and ServiceCaE2E check the same on a real API
 * server.
 */
class HelmOpenShiftTest {

    private static final String NS = "topobridge-system";
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final String SERVICE_CA = "openshift-service-ca";
    private static final String SERVING_CERT_SECRET = "service.beta.openshift.io/serving-cert-secret-name";
    private static final String INJECT_CABUNDLE = "service.beta.openshift.io/inject-cabundle";
    /** The volume types the restricted profile allows. */
    private static final Set<String> RESTRICTED_VOLUMES = Set.of(
            "configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret");

    private static Rendered render(Map<String, ?> values) {
        return HelmChart.render("tb", NS, values);
    }

    static Stream<Arguments> installs() {
        return Stream.of(
                Arguments.of("defaults", Map.of()),
                Arguments.of("service-CA certificates", Map.of("admission.tls.mode", SERVICE_CA)),
                Arguments.of("cert-manager, one replica", Map.of("certManager.enabled", true, "replicaCount", 1)),
                Arguments.of(
                        "admission off, objects kept",
                        Map.of("admission.enabled", false, "cleanup.managedObjects", "keep")));
    }

    /** The restricted profile's checks (Kubernetes' Pod Security Standards, latest) on each pod template the chart renders. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("installs")
    void everyPodTheChartMakesFitsTheRestrictedProfileWithoutAFixedUid(String name, Map<String, Object> values) {
        Rendered chart = render(values);
        List<JsonNode> workloads = new ArrayList<>(chart.all("Deployment"));
        workloads.addAll(chart.all("Job"));
        assertThat(workloads).extracting(w -> w.path("kind").asText()).containsExactly("Deployment", "Job");
        for (JsonNode workload : workloads) {
            String what = workload.path("kind").asText() + " "
                    + workload.path("metadata").path("name").asText();
            List<String> violations =
                    restrictedViolations(workload.path("spec").path("template").path("spec"));
            assertThat(violations).as(what).isEmpty();
        }
    }

    @Test
    void theChecksFindWhatTheProfileRefuses() throws Exception {
        JsonNode pod = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree("""
                securityContext: {runAsUser: 1000}
                volumes: [{name: host, hostPath: {path: /var}}]
                containers:
                  - name: app
                    securityContext: {capabilities: {add: [SYS_ADMIN]}}
                """);
        assertThat(restrictedViolations(pod))
                .containsExactly(
                        "volume host of type hostPath",
                        "a fixed pod runAsUser (OpenShift assigns one)",
                        "container app: allowPrivilegeEscalation is not false",
                        "container app: capabilities do not drop ALL",
                        "container app: capabilities add [SYS_ADMIN]",
                        "container app: runAsNonRoot is not true",
                        "container app: seccompProfile is unset",
                        "container app: the root filesystem is writable",
                        "container app: no emptyDir at /tmp (the JVM and Vert.x write there)");
    }

    /** What Pod Security's restricted profile refuses in a pod spec, one line per violation. */
    static List<String> restrictedViolations(JsonNode pod) {
        List<String> out = new ArrayList<>();
        JsonNode podContext = pod.path("securityContext");
        for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            if (pod.path(host).asBoolean(false)) {
                out.add(host);
            }
        }
        pod.path("volumes")
                .forEach(volume -> volume.fieldNames().forEachRemaining(field -> {
                    if (!field.equals("name") && !RESTRICTED_VOLUMES.contains(field)) {
                        out.add("volume " + volume.path("name").asText() + " of type " + field);
                    }
                }));
        if (podContext.has("runAsUser")) {
            out.add("a fixed pod runAsUser (OpenShift assigns one)");
        }
        List<JsonNode> containers = new ArrayList<>();
        pod.path("initContainers").forEach(containers::add);
        pod.path("containers").forEach(containers::add);
        for (JsonNode container : containers) {
            String name = "container " + container.path("name").asText() + ": ";
            JsonNode context = container.path("securityContext");
            if (context.path("privileged").asBoolean(false)) {
                out.add(name + "privileged");
            }
            if (!context.path("allowPrivilegeEscalation").isBoolean()
                    || context.path("allowPrivilegeEscalation").asBoolean()) {
                out.add(name + "allowPrivilegeEscalation is not false");
            }
            if (!HelmChartTest.texts(context.path("capabilities").path("drop")).contains("ALL")) {
                out.add(name + "capabilities do not drop ALL");
            }
            List<String> added =
                    HelmChartTest.texts(context.path("capabilities").path("add"));
            if (!added.isEmpty() && !added.equals(List.of("NET_BIND_SERVICE"))) {
                out.add(name + "capabilities add " + added);
            }
            if (!context.path("runAsNonRoot")
                    .asBoolean(podContext.path("runAsNonRoot").asBoolean(false))) {
                out.add(name + "runAsNonRoot is not true");
            }
            if (context.has("runAsUser")) {
                out.add(name + "a fixed runAsUser (OpenShift assigns one)");
            }
            String seccomp = context.path("seccompProfile")
                    .path("type")
                    .asText(podContext.path("seccompProfile").path("type").asText(""));
            if (!Set.of("RuntimeDefault", "Localhost").contains(seccomp)) {
                out.add(name + "seccompProfile is " + (seccomp.isEmpty() ? "unset" : seccomp));
            }
            container.path("ports").forEach(port -> {
                if (port.has("hostPort")) {
                    out.add(name + "hostPort " + port.path("hostPort").asInt());
                }
            });
            // beyond the profile: what OpenShift's restricted-v2 and an arbitrary UID need of this image
            if (!context.path("readOnlyRootFilesystem").asBoolean(false)) {
                out.add(name + "the root filesystem is writable");
            }
            if (!mountsEmptyDir(pod, container, "/tmp")) {
                out.add(name + "no emptyDir at /tmp (the JVM and Vert.x write there)");
            }
        }
        return out;
    }

    private static boolean mountsEmptyDir(JsonNode pod, JsonNode container, String path) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("mountPath").asText().equals(path)) {
                for (JsonNode volume : pod.path("volumes")) {
                    if (volume.path("name").asText().equals(mount.path("name").asText())) {
                        return volume.has("emptyDir");
                    }
                }
            }
        }
        return false;
    }

    // ---- admission.tls.mode=openshift-service-ca ----------------------------------------------------------

    static Stream<Arguments> serviceCaCases() {
        return Stream.of(
                Arguments.of("defaults", Map.of()),
                Arguments.of(
                        "Secret renamed, no workload validation",
                        Map.of(
                                "admission.tls.secretName",
                                "bridge-serving-cert",
                                "admission.validateWorkloads",
                                false)),
                Arguments.of(
                        "Fail, 10s",
                        Map.of(
                                "admission.podFailurePolicy",
                                "Fail",
                                "admission.workloadFailurePolicy",
                                "Fail",
                                "admission.timeout",
                                "10s")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serviceCaCases")
    void theServiceCaModeAsksTheOperatorForTheSecretAndTheCaBundleAndTheControllerOnlyReads(
            String name, Map<String, Object> extra) {
        Map<String, Object> values = new LinkedHashMap<>(extra);
        values.put("admission.tls.mode", SERVICE_CA);
        Rendered chart = render(values);
        Map<String, String> env = chart.controllerEnv();
        assertThat(env)
                .containsEntry("TOPOBRIDGE_ADMISSION_TLS_MODE", SERVICE_CA)
                .containsEntry("TOPOBRIDGE_ADMISSION_MANAGE_CONFIGURATIONS", "false");
        WebhookSettings settings = EnvironmentConfig.validated(env).webhook(NS);
        assertThat(settings.tls().mode()).isEqualTo(TlsSettings.Mode.OPENSHIFT_SERVICE_CA);
        assertThat(settings.manageConfigurations()).isFalse();

        // the Service names the Secret the operator writes: the one the controller reads
        JsonNode service = chart.named("Service", settings.serviceName());
        assertThat(service.path("metadata")
                        .path("annotations")
                        .path(SERVING_CERT_SECRET)
                        .asText())
                .isEqualTo(settings.tls().secretName());
        assertThat(chart.named("Service", "tb-topobridge-metrics")
                        .path("metadata")
                        .has("annotations"))
                .isFalse();
        // the operator makes the Secret: the chart renders none, nor anything of cert-manager's
        assertThat(chart.has("Secret") || chart.has("Certificate") || chart.has("Issuer"))
                .isFalse();

        // both configurations are the chart's, as the controller would make them, with the injection asked for
        JsonNode mutating = chart.one("MutatingWebhookConfiguration");
        assertThat(annotations(mutating)).containsExactly(Map.entry(INJECT_CABUNDLE, "true"));
        assertThat(mutating.path("metadata").path("name").asText()).isEqualTo(settings.configurationName());
        assertThat(mutating.path("webhooks"))
                .allSatisfy(w -> assertThat(w.path("clientConfig").has("caBundle"))
                        .as("no caBundle the injector and Helm would fight over")
                        .isFalse());
        assertThat(mutating.path("webhooks"))
                .isEqualTo(HelmChartTest.withoutCaBundle(SERIALIZATION
                        .convertValue(WebhookConfigurations.mutating(settings, "ca"), JsonNode.class)
                        .path("webhooks")));
        if (settings.validateWorkloads()) {
            JsonNode validating = chart.one("ValidatingWebhookConfiguration");
            assertThat(annotations(validating)).containsExactly(Map.entry(INJECT_CABUNDLE, "true"));
            assertThat(validating.path("webhooks"))
                    .isEqualTo(HelmChartTest.withoutCaBundle(SERIALIZATION
                            .convertValue(WebhookConfigurations.validating(settings, "ca"), JsonNode.class)
                            .path("webhooks")));
        } else {
            assertThat(chart.has("ValidatingWebhookConfiguration")).isFalse();
        }

        // RBAC: the controller may only get its Secret and the two configurations (the doctor reads them), by name
        JsonNode secrets = HelmChartTest.rule(chart.named("Role", "tb-topobridge"), "secrets");
        assertThat(HelmChartTest.texts(secrets.path("resourceNames")))
                .containsExactly(settings.tls().secretName());
        assertThat(HelmChartTest.texts(secrets.path("verbs"))).containsExactly("get");
        JsonNode configurations =
                HelmChartTest.rule(chart.named("ClusterRole", "tb-topobridge"), "mutatingwebhookconfigurations");
        assertThat(HelmChartTest.texts(configurations.path("resources")))
                .containsExactly("mutatingwebhookconfigurations", "validatingwebhookconfigurations");
        assertThat(HelmChartTest.texts(configurations.path("resourceNames")))
                .containsExactly(settings.configurationName());
        assertThat(HelmChartTest.texts(configurations.path("verbs"))).containsExactly("get");
    }

    @Test
    void certManagerAndTheServiceCaCannotBothIssueTheCertificate() {
        assertThat(HelmChart.failure(Map.of("certManager.enabled", true, "admission.tls.mode", SERVICE_CA)))
                .contains("certManager.enabled and admission.tls.mode=openshift-service-ca both issue");
        assertThat(HelmChart.failure(Map.of("admission.tls.mode", "service-ca")))
                .contains("values don't meet the specifications of the schema");
    }

    @Test
    void onlyTheServiceCaModeAsksTheOperatorAndItsNotesSayWhereTheCertificateIs() {
        assertThat(render(Map.of()).all("Service"))
                .allSatisfy(s -> assertThat(annotations(s)).doesNotContainKey(SERVING_CERT_SECRET));
        assertThat(annotations(render(Map.of("certManager.enabled", true)).one("MutatingWebhookConfiguration")))
                .containsOnlyKeys("cert-manager.io/inject-ca-from");
        var release = new Helm(HelmChart.CHART)
                .install()
                .withName("tb")
                .withNamespace(NS)
                .withKubeVersion(HelmChart.KUBE_VERSION)
                .set("admission.tls.mode", SERVICE_CA)
                .dryRun()
                .clientOnly()
                .call();
        assertThat(release.getOutput())
                .contains(
                        "from OpenShift's service-CA operator (Secret tb-topobridge-webhook-tls",
                        "get mutatingwebhookconfiguration tb-topobridge");
    }

    private static Map<String, String> annotations(JsonNode object) {
        Map<String, String> out = new LinkedHashMap<>();
        object.path("metadata")
                .path("annotations")
                .fields()
                .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}

package io.topobridge.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.node.Accelerators;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.testing.RecordingDispatcher;
import io.topobridge.testing.VolcanoConfigs;
import io.topobridge.webhook.WebhookSettings;
import io.topobridge.webhook.WebhookSettingsTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the doctor reads from the API server, on the mock API server's request log. */
class DoctorGathererTest {

    private static DoctorGatherer.Sources empty() {
        return new DoctorGatherer.Sources(List::of, List::of, Map::of, Map::of, false, Map::of);
    }

    private static DoctorGatherer gatherer(MockCluster cluster, boolean admission) {
        return gatherer(cluster, admission, "volcano-scheduler-configmap");
    }

    private static DoctorGatherer gatherer(MockCluster cluster, boolean admission, String schedulerConfigName) {
        WebhookSettings webhook = WebhookSettings.from(
                WebhookSettingsTest.config(Map.of("enabled", admission)), true, "topobridge-system");
        return new DoctorGatherer(
                cluster.client(),
                new DoctorGatherer.Settings(
                        TopologySettings.parse(TopologySettings.AUTO, List.of()),
                        "volcano-system",
                        schedulerConfigName,
                        "volcano-scheduler.conf",
                        "default",
                        webhook,
                        Accelerators.DEFAULT));
    }

    private static List<String> paths(MockCluster cluster, String fragment) {
        return RecordingDispatcher.of(cluster).requests(r -> r.path().contains(fragment)).stream()
                .map(RecordingDispatcher.Request::path)
                .toList();
    }

    @Test
    void withAdmissionOffTheCertificateSecretAndWebhookConfigurationsAreNotRead() {
        try (MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds()) {
            RecordingDispatcher.of(cluster).clearLog();
            var inputs = gatherer(cluster, false).gather(empty());

            assertThat(inputs.webhooks().expected()).isFalse();
            // the chart grants no Role on Secrets with admission off: a read would be refused (403)
            assertThat(paths(cluster, "/secrets")).isEmpty();
            assertThat(paths(cluster, "webhookconfigurations")).isEmpty();
            assertThat(paths(cluster, "/configmaps/volcano-scheduler-configmap"))
                    .as("the rest is still read")
                    .isNotEmpty();
        }
    }

    @Test
    void withAdmissionOnTheSecretIsReadForTheCurrentCa() {
        try (MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds()) {
            RecordingDispatcher.of(cluster).clearLog();
            var inputs = gatherer(cluster, true).gather(empty());

            assertThat(inputs.webhooks().expected()).isTrue();
            assertThat(paths(cluster, "/namespaces/topobridge-system/secrets/")).hasSize(1);
            assertThat(paths(cluster, "mutatingwebhookconfigurations")).hasSize(1);
        }
    }

    @Test
    void webhookConfigurationsTheBridgeMayNotReadAreReportedNotThrown() {
        // under OLM the configurations are OLM's, named by it, and the bridge is granted no access to them
        var server = new io.fabric8.kubernetes.client.server.mock.KubernetesMockServer(false);
        server.init();
        try {
            server.expect()
                    .get()
                    .withPath("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/topobridge")
                    .andReturn(
                            403,
                            new io.fabric8.kubernetes.api.model.StatusBuilder()
                                    .withCode(403)
                                    .withReason("Forbidden")
                                    .build())
                    .always();
            WebhookSettings webhook = WebhookSettings.from(
                    WebhookSettingsTest.config(
                            Map.of("enabled", true, "manage-configurations", false, "tls.mode", "secret")),
                    true,
                    "topobridge-system");
            var inputs = new DoctorGatherer(
                            server.createClient(),
                            new DoctorGatherer.Settings(
                                    TopologySettings.parse(TopologySettings.AUTO, List.of()),
                                    "volcano-system",
                                    "volcano-scheduler-configmap",
                                    "volcano-scheduler.conf",
                                    "default",
                                    webhook,
                                    Accelerators.DEFAULT))
                    .gather(empty());

            assertThat(inputs.webhooks().expected()).isTrue();
            assertThat(inputs.webhooks().ours()).isFalse();
            assertThat(inputs.webhooks().unreadable()).isEqualTo("HTTP 403 Forbidden");
            assertThat(inputs.webhooks().found()).isEmpty();
        } finally {
            server.destroy();
        }
    }

    /** Label discovery over topograph's fabric labels, as a Volcano controller ConfigMap holds it. */
    private static final String DISCOVERY = VolcanoConfigs.labelDiscovery(
            "fabric", "fabric.topograph.run/tier-2", "fabric.topograph.run/tier-1", "kubernetes.io/hostname");

    private static void configMap(MockCluster cluster, String name, Map<String, String> data) {
        cluster.client()
                .resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace("volcano-system")
                        .endMetadata()
                        .withData(data)
                        .build())
                .create();
    }

    private static io.topobridge.core.diagnosis.DoctorCheck labelDiscovery(
            io.topobridge.core.diagnosis.DoctorInputs inputs) {
        return io.topobridge.core.diagnosis.Doctor.run(inputs).stream()
                .filter(c -> c.name().equals("label-discovery"))
                .findFirst()
                .orElseThrow();
    }

    /**
     * Volcano's HyperNode controller reads {@code <release>-controller-configmap} (the chart's release name): for a
     * release named vc that is {@code vc-controller-configmap}, next to {@code vc-scheduler-configmap}.
     */
    @Test
    void theControllerConfigMapOfTheSchedulersReleaseIsRead() {
        try (MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds()) {
            configMap(cluster, "vc-scheduler-configmap", Map.of("volcano-scheduler.conf", "actions: enqueue"));
            configMap(cluster, "vc-controller-configmap", Map.of("volcano-controller.conf", DISCOVERY));
            RecordingDispatcher.of(cluster).clearLog();

            var check = labelDiscovery(
                    gatherer(cluster, false, "vc-scheduler-configmap").gather(empty()));

            assertThat(check.status())
                    .as(check.line())
                    .isEqualTo(io.topobridge.core.diagnosis.DoctorCheck.Status.FAILURE);
            assertThat(check.message())
                    .contains("(ConfigMap volcano-system/vc-controller-configmap) makes HyperNodes from"
                            + " fabric.topograph.run/tier-1, fabric.topograph.run/tier-2");
            assertThat(paths(cluster, "/configmaps"))
                    .as("the running controller reads only the names the chart grants, one by one")
                    .allSatisfy(p -> assertThat(p)
                            .containsAnyOf(
                                    "/configmaps/vc-scheduler-configmap",
                                    "/configmaps/vc-controller-configmap",
                                    "/configmaps/volcano-controller-configmap"));
        }
    }

    @Test
    void theDoctorCommandListsControllerConfigMapsOfAnyReleaseName() {
        try (MockCluster cluster = RecordingDispatcher.start().installVolcanoCrds()) {
            configMap(cluster, "other-controller-configmap", Map.of("volcano-controller.conf", DISCOVERY));
            configMap(cluster, "unrelated", Map.of("volcano-controller.conf", DISCOVERY));
            var gatherer = gatherer(cluster, false);

            var controller = labelDiscovery(gatherer.gather(empty()));
            assertThat(controller.status())
                    .as("the running controller may not list the namespace: " + controller.line())
                    .isEqualTo(io.topobridge.core.diagnosis.DoctorCheck.Status.OK);

            var command =
                    gatherer.gather(new DoctorGatherer.Sources(List::of, List::of, Map::of, Map::of, true, Map::of));
            assertThat(command.controllerConfigs())
                    .extracting(c -> c.ref().name())
                    .containsExactly("other-controller-configmap");
            assertThat(labelDiscovery(command).message())
                    .contains("ConfigMap volcano-system/other-controller-configmap");
        }
    }
}

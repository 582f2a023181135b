package io.topobridge.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import io.topobridge.core.topology.TopologySettings;
import io.topobridge.devcluster.ApplyingCrudDispatcher;
import io.topobridge.devcluster.MockCluster;
import io.topobridge.webhook.WebhookSettings;
import io.topobridge.webhook.WebhookSettingsTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the doctor reads from the API server, on the mock API server's request log. */
class DoctorGathererTest {

    private static DoctorGatherer.Sources empty() {
        return new DoctorGatherer.Sources(List::of, List::of, Map::of, Map::of);
    }

    private static DoctorGatherer gatherer(MockCluster cluster, boolean admission) {
        WebhookSettings webhook = WebhookSettings.from(
                WebhookSettingsTest.config(Map.of("enabled", admission)), true, "topobridge-system");
        return new DoctorGatherer(
                cluster.client(),
                new DoctorGatherer.Settings(
                        TopologySettings.parse(TopologySettings.AUTO, List.of()),
                        "volcano-system",
                        "volcano-scheduler-configmap",
                        "volcano-scheduler.conf",
                        "default",
                        webhook));
    }

    private static List<String> paths(MockCluster cluster, String fragment) {
        return cluster.dispatcher().requests(r -> r.path().contains(fragment)).stream()
                .map(ApplyingCrudDispatcher.Request::path)
                .toList();
    }

    @Test
    void withAdmissionOffTheCertificateSecretAndWebhookConfigurationsAreNotRead() {
        try (MockCluster cluster = MockCluster.start().installVolcanoCrds()) {
            cluster.dispatcher().clearLog();
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
        try (MockCluster cluster = MockCluster.start().installVolcanoCrds()) {
            cluster.dispatcher().clearLog();
            var inputs = gatherer(cluster, true).gather(empty());

            assertThat(inputs.webhooks().expected()).isTrue();
            assertThat(paths(cluster, "/namespaces/topobridge-system/secrets/")).hasSize(1);
            assertThat(paths(cluster, "mutatingwebhookconfigurations")).hasSize(1);
        }
    }
}

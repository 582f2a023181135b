package io.topobridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.topobridge.testing.MockApiServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * With admission disabled the controller serves no webhook, makes no certificate, and removes the webhook
 * configurations an earlier run of the bridge left (but never someone else's of the same name).
 */
@QuarkusTest
@TestProfile(AdmissionDisabledTest.Profile.class)
@QuarkusTestResource(MockApiServer.class)
class AdmissionDisabledTest {

    /** Admission off. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("topobridge.admission.enabled", "false");
        }
    }

    @Inject
    AdmissionServer controller;

    @Inject
    KubernetesClient client;

    @Test
    void noWebhookIsServedAndOnlyTheBridgesOwnConfigurationIsRemoved() {
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(controller::ready);
        var registration = client.admissionRegistration().v1();
        assertThat(registration
                        .mutatingWebhookConfigurations()
                        .withName("topobridge")
                        .get())
                .isNull();
        // configurations an earlier, enabled run of the bridge left, and a foreign one of the same name
        client.resource(new MutatingWebhookConfigurationBuilder()
                        .withNewMetadata()
                        .withName("topobridge")
                        .addToLabels("app.kubernetes.io/managed-by", "topobridge")
                        .endMetadata()
                        .build())
                .create();
        client.resource(new ValidatingWebhookConfigurationBuilder()
                        .withNewMetadata()
                        .withName("topobridge")
                        .addToLabels("app.kubernetes.io/managed-by", "someone-else")
                        .endMetadata()
                        .build())
                .create();

        controller.start(); // what the lifecycle runs at start-up
        assertThat(controller.ready()).isTrue();
        assertThat(registration
                        .mutatingWebhookConfigurations()
                        .withName("topobridge")
                        .get())
                .isNull();
        assertThat(registration
                        .validatingWebhookConfigurations()
                        .withName("topobridge")
                        .get())
                .as("a configuration without the bridge's label is not the bridge's to delete")
                .isNotNull();
        assertThat(AdmissionServers.port(controller)).isEqualTo(-1);
        assertThat(client.secrets()
                        .inNamespace("default")
                        .withName("topobridge-webhook-tls")
                        .get())
                .isNull();
    }
}

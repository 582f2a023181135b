package io.topobridge.e2e;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;

/**
 * The serving part of a controller-runtime Configuration that the tier's LeaderWorkerSet and Kueue share, and the
 * check that its self-managed certificates reached the webhook configurations.
 */
final class ControllerServing {

    private ControllerServing() {}

    /**
     * Self-managed webhook certificates in {@code certDir}, the webhook server on 127.0.0.1:{@code webhookPort}, no
     * metrics listener and the health probes on 127.0.0.1:{@code probe}, as YAML lines without a final line break.
     */
    static String yaml(int webhookPort, Path certDir, int probe) {
        return """
                internalCertManagement:
                  enable: true
                webhook:
                  port: %d
                  host: 127.0.0.1
                  certDir: %s
                metrics:
                  bindAddress: "0"
                health:
                  healthProbeBindAddress: 127.0.0.1:%d""".formatted(webhookPort, certDir, probe);
    }

    /**
     * Whether the webhook configurations {@code mutatingName} and {@code validatingName} exist and each of their
     * webhooks has the CA bundle the controller injects.
     */
    static boolean caInjected(KubernetesClient client, String mutatingName, String validatingName) {
        var admission = client.admissionRegistration().v1();
        var mutating =
                admission.mutatingWebhookConfigurations().withName(mutatingName).get();
        var validating = admission
                .validatingWebhookConfigurations()
                .withName(validatingName)
                .get();
        return mutating != null
                && validating != null
                && mutating.getWebhooks().stream()
                        .allMatch(w -> w.getClientConfig().getCaBundle() != null)
                && validating.getWebhooks().stream()
                        .allMatch(w -> w.getClientConfig().getCaBundle() != null);
    }
}

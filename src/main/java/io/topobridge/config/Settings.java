package io.topobridge.config;

import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.webhook.WebhookSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** Maps the {@code topobridge.*} configuration once into the core's immutable settings records. */
@ApplicationScoped
public class Settings {

    @Inject
    TopobridgeConfig config;

    public TopologySettings topology() {
        return topology(null, null);
    }

    /** Topology settings with optional command-line overrides; an invalid value throws with one message. */
    public TopologySettings topology(String presetOverride, List<String> tiersOverride) {
        List<String> tiers = tiersOverride != null && !tiersOverride.isEmpty() ? tiersOverride
                : presetOverride != null ? List.of() : config.topology().tiers().orElse(List.of());
        String preset = presetOverride != null ? presetOverride : config.topology().preset();
        return TopologySettings.parse(preset, tiers);
    }

    public WorkloadSettings workloads() {
        return new WorkloadSettings(config.workloads().defaultQueue());
    }

    public AdmissionSettings admission() {
        return new AdmissionSettings(config.admission().schedulerName());
    }

    /** Webhook server, registration and TLS settings; {@code namespace} is where the controller runs. */
    public WebhookSettings webhook(String namespace) {
        return WebhookSettings.from(config.admission(), config.workloads().requireNamespaceOptIn(), namespace);
    }

    public TopobridgeConfig raw() {
        return config;
    }
}

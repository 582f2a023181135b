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
        if (tiersOverride != null && !tiersOverride.isEmpty()) {
            // command-line tiers replace the configured preset; a preset given next to them is still an error
            return TopologySettings.parse(presetOverride == null ? TopologySettings.AUTO : presetOverride, tiersOverride);
        }
        if (presetOverride != null) {
            return TopologySettings.parse(presetOverride, List.of());
        }
        return TopologySettings.parse(config.topology().preset(), config.topology().tiers().orElse(List.of()));
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

package io.topobridge.core.topology;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether the Volcano scheduler enforces hard network topology: only when its configuration
 * ({@code volcano-scheduler.conf}: {@code tiers[].plugins[].name}) lists {@code network-topology-aware};
 * Volcano's default configuration does not, and then hard mode silently enforces nothing.
 */
public final class SchedulerConfig {

    /** What the scheduler configuration says about hard topology. */
    public enum HardTopology {
        /** The plugin is listed: hard mode is enforced. */
        ENFORCED,
        /** The configuration is readable and lacks the plugin. */
        PLUGIN_MISSING,
        /** The ConfigMap does not exist. */
        CONFIG_MISSING,
        /** The ConfigMap exists but cannot be read or parsed. */
        CONFIG_UNREADABLE
    }

    /** The state and, unless enforced, one finding on the ConfigMap. */
    public record Check(HardTopology state, List<Finding> findings) {
        public Check {
            findings = List.copyOf(findings);
        }
    }

    private static final YAMLMapper YAML = new YAMLMapper();

    private SchedulerConfig() {}

    public static ObjectRef configMapRef(String namespace, String name) {
        return new ObjectRef("v1", "ConfigMap", namespace, name, null);
    }

    /**
     * Checks the ConfigMap's data ({@code null}: the ConfigMap does not exist).
     *
     * @param key the data key holding the scheduler configuration (normally {@code volcano-scheduler.conf})
     */
    public static Check check(ObjectRef configMap, String key, Map<String, String> data) {
        if (data == null) {
            return new Check(
                    HardTopology.CONFIG_MISSING,
                    List.of(Finding.warning(
                            TopologyReason.SCHEDULER_CONFIG_MISSING,
                            configMap,
                            "the Volcano scheduler configuration was not found, so whether hard network topology is"
                                    + " enforced is unknown; Volcano enforces it only when its configuration lists the "
                                    + VolcanoApi.NETWORK_TOPOLOGY_PLUGIN
                                    + " plugin (set topobridge.volcano.scheduler-config-"
                                    + "namespace and -name to where it lives)")));
        }
        String conf = data.get(key);
        if (conf == null || conf.isBlank()) {
            return unreadable(configMap, "it has no '" + key + "' key");
        }
        JsonNode root;
        try {
            root = YAML.readTree(conf);
        } catch (JsonProcessingException e) {
            return unreadable(configMap, "'" + key + "' is not YAML: " + UserText.excerpt(e.getOriginalMessage()));
        }
        if (root == null || !root.isObject()) {
            return unreadable(configMap, "'" + key + "' is not a YAML mapping");
        }
        if (!root.path("tiers").isArray()) {
            return unreadable(configMap, "'" + key + "' has no tiers list");
        }
        List<String> plugins = new ArrayList<>();
        for (JsonNode tier : root.path("tiers")) {
            for (JsonNode plugin : tier.path("plugins")) {
                String name = plugin.path("name").asText("");
                if (!name.isEmpty()) {
                    plugins.add(name);
                }
            }
        }
        if (plugins.contains(VolcanoApi.NETWORK_TOPOLOGY_PLUGIN)) {
            return new Check(HardTopology.ENFORCED, List.of());
        }
        return new Check(
                HardTopology.PLUGIN_MISSING,
                List.of(Finding.warning(
                        TopologyReason.NETWORK_TOPOLOGY_PLUGIN_DISABLED,
                        configMap,
                        "the Volcano scheduler configuration does not list the " + VolcanoApi.NETWORK_TOPOLOGY_PLUGIN
                                + " plugin (it lists "
                                + (plugins.isEmpty() ? "none" : UserText.excerpt(String.join(", ", plugins)))
                                + "): hard network topology is not enforced; add it to a tier's plugins")));
    }

    /** The ConfigMap could not be read at all (e.g. no permission). */
    public static Check unreadable(ObjectRef configMap, String why) {
        return new Check(
                HardTopology.CONFIG_UNREADABLE,
                List.of(Finding.warning(
                        TopologyReason.SCHEDULER_CONFIG_UNREADABLE,
                        configMap,
                        "cannot tell whether hard network topology is enforced: " + why)));
    }
}

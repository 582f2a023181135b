package io.topobridge.core.topology;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Whether the Volcano scheduler enforces hard network topology: only when its configuration
 * ({@code volcano-scheduler.conf}: {@code tiers[].plugins[].name}) lists {@code network-topology-aware};
 * Volcano's default configuration does not, and then hard mode silently enforces nothing. With the plugin listed, it
 * also tells whether the plugin bin-packs the cluster's accelerators across HyperNodes ({@code hypernode.binpack.resources}
 * naming each accelerator resource the nodes offer, e.g. {@code nvidia.com/gpu}, with a weight other than 0): without
 * that, Volcano ranks the domains a gang could take by CPU and memory only.
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

    /**
     * The state, whether GPUs are bin-packed across HyperNodes (false unless enforced), and the findings on the
     * ConfigMap: one unless enforced; with GPU nodes and no GPU bin-packing, one (info) saying so.
     */
    public record Check(HardTopology state, boolean gpuBinPacked, List<Finding> findings) {
        public Check {
            findings = List.copyOf(findings);
        }
    }

    /** The plugin argument listing the extra resources bin-packed across HyperNodes. */
    static final String HYPERNODE_BINPACK_RESOURCES = "hypernode.binpack.resources";

    private static final String GPU = "nvidia.com/gpu";

    private static final YAMLMapper YAML = new YAMLMapper();

    public static ObjectRef configMapRef(String namespace, String name) {
        return new ObjectRef("v1", "ConfigMap", namespace, name, null);
    }

    /**
     * Checks the ConfigMap's data ({@code null}: the ConfigMap does not exist).
     *
     * @param key the data key holding the scheduler configuration (normally {@code volcano-scheduler.conf})
     * @param accelerators the accelerator resources the cluster's nodes offer, so a configuration that does not
     *     bin-pack each of them across HyperNodes is reported
     */
    public static Check check(
            ObjectRef configMap, String key, Map<String, String> data, java.util.Collection<String> accelerators) {
        if (data == null) {
            return reporting(
                    HardTopology.CONFIG_MISSING,
                    Finding.warning(
                            TopologyReason.SCHEDULER_CONFIG_MISSING,
                            configMap,
                            "the Volcano scheduler configuration was not found, so whether hard network topology is"
                                    + " enforced is unknown; Volcano enforces it only when its configuration lists the "
                                    + VolcanoApi.NETWORK_TOPOLOGY_PLUGIN
                                    + " plugin (set topobridge.volcano.scheduler-config-"
                                    + "namespace and -name to where it lives)"));
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
        JsonNode topologyPlugin = null;
        for (JsonNode tier : root.path("tiers")) {
            for (JsonNode plugin : tier.path("plugins")) {
                String name = plugin.path("name").asText("");
                if (!name.isEmpty()) {
                    plugins.add(name);
                }
                if (name.equals(VolcanoApi.NETWORK_TOPOLOGY_PLUGIN) && topologyPlugin == null) {
                    topologyPlugin = plugin;
                }
            }
        }
        if (topologyPlugin != null) {
            JsonNode arguments = topologyPlugin.path("arguments");
            List<String> unpacked = new java.util.TreeSet<>(accelerators)
                    .stream().filter(r -> !binPacked(arguments, r)).toList();
            boolean packed = !accelerators.isEmpty() && unpacked.isEmpty()
                    || accelerators.isEmpty() && binPacked(arguments, GPU);
            if (unpacked.isEmpty()) {
                return new Check(HardTopology.ENFORCED, packed, List.of());
            }
            String names = String.join(", ", unpacked);
            return reporting(
                    HardTopology.ENFORCED,
                    Finding.info(
                            TopologyReason.GPU_NOT_BIN_PACKED,
                            configMap,
                            "the " + VolcanoApi.NETWORK_TOPOLOGY_PLUGIN + " plugin does not bin-pack the nodes'"
                                    + " accelerators across HyperNodes (its " + HYPERNODE_BINPACK_RESOURCES
                                    + " argument does not name " + names + " with a weight other than 0): Volcano ranks"
                                    + " the domains a gang could take by CPU and memory only, so a small accelerator"
                                    + " gang goes to the domain its CPU requests fill best, not the one its"
                                    + " accelerators do, and the widest gangs wait longer for a whole NVLink partition;"
                                    + " add '" + HYPERNODE_BINPACK_RESOURCES + ": " + String.join(",", unpacked)
                                    + "' to its arguments"));
        }
        return reporting(
                HardTopology.PLUGIN_MISSING,
                Finding.warning(
                        TopologyReason.NETWORK_TOPOLOGY_PLUGIN_DISABLED,
                        configMap,
                        "the Volcano scheduler configuration does not list the " + VolcanoApi.NETWORK_TOPOLOGY_PLUGIN
                                + " plugin (it lists "
                                + (plugins.isEmpty() ? "none" : UserText.excerpt(String.join(", ", plugins)))
                                + "): hard network topology is not enforced; add it to a tier's plugins"));
    }

    /**
     * Whether the plugin's arguments bin-pack {@code resource} across HyperNodes, as Volcano reads them: the
     * resource named in the comma-separated string {@code hypernode.binpack.resources}, and its weight
     * ({@code hypernode.binpack.resources.<name>}) not 0 — an integer; anything else leaves Volcano's default, 1, and a
     * negative weight is read as 1 too.
     */
    static boolean binPacked(JsonNode arguments, String resource) {
        JsonNode listed = arguments.path(HYPERNODE_BINPACK_RESOURCES);
        if (!listed.isTextual()) {
            return false;
        }
        boolean named =
                Arrays.stream(listed.asText().split(",")).anyMatch(r -> r.trim().equals(resource));
        JsonNode weight = arguments.path(HYPERNODE_BINPACK_RESOURCES + "." + resource);
        return named && !(weight.isIntegralNumber() && weight.asLong() == 0);
    }

    /** A check that reports one finding; the accelerators are not known to be bin-packed. */
    private static Check reporting(HardTopology hard, Finding finding) {
        return new Check(hard, false, List.of(finding));
    }

    /** The ConfigMap could not be read at all (e.g. no permission). */
    public static Check unreadable(ObjectRef configMap, String why) {
        return reporting(
                HardTopology.CONFIG_UNREADABLE,
                Finding.warning(
                        TopologyReason.SCHEDULER_CONFIG_UNREADABLE,
                        configMap,
                        "cannot tell whether hard network topology is enforced: " + why));
    }
}

package io.topobridge.core.diagnosis;

import com.fasterxml.jackson.databind.JsonNode;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The doctor's {@code scheduler-config} check: the scheduler plugins that enforce topology and sub-gangs. */
final class SchedulerConfigCheck {

    static final String GANG_PLUGIN = "gang";

    static DoctorCheck.Result check(DoctorInputs in) {
        ObjectRef ref = in.schedulerConfigMap();
        String where = "ConfigMap " + ref.namespace() + "/" + ref.name();
        if (in.schedulerError() != null || in.schedulerData() == null) {
            String why = in.schedulerError() != null
                    ? "cannot be read: " + UserText.excerpt(in.schedulerError())
                    : "does not exist";
            return DoctorCheck.problem(
                    DoctorCheck.Status.WARNING,
                    DoctorReason.SCHEDULER_CONFIG_UNKNOWN,
                    ref,
                    "the Volcano scheduler " + where + " " + why + "; whether hard topology is enforced is unknown");
        }
        JsonNode root = in.schedulerRoot();
        if (root == null || !root.path("tiers").isArray()) {
            return DoctorCheck.problem(
                    DoctorCheck.Status.WARNING,
                    DoctorReason.SCHEDULER_CONFIG_UNKNOWN,
                    ref,
                    where + " key '" + in.schedulerConfigKey() + "' holds no scheduler configuration with tiers");
        }
        Map<String, JsonNode> plugins = new TreeMap<>();
        for (JsonNode tier : root.path("tiers")) {
            for (JsonNode plugin : tier.path("plugins")) {
                plugins.putIfAbsent(plugin.path("name").asText(""), plugin);
            }
        }
        List<String> problems = new ArrayList<>();
        if (!plugins.containsKey(VolcanoApi.NETWORK_TOPOLOGY_PLUGIN)) {
            problems.add("the " + VolcanoApi.NETWORK_TOPOLOGY_PLUGIN + " plugin is not enabled, so hard topology is not"
                    + " enforced");
        } else if (plugins.get(VolcanoApi.NETWORK_TOPOLOGY_PLUGIN)
                .path("enabledHyperNodeGradient")
                .asText("")
                .equals("false")) {
            problems.add(VolcanoApi.NETWORK_TOPOLOGY_PLUGIN + " has enabledHyperNodeGradient: false, so gangs are not"
                    + " steered into HyperNodes");
        }
        if (!plugins.containsKey(GANG_PLUGIN)) {
            problems.add("the gang plugin is not enabled, so gangs and subgroups are not placed all-or-nothing");
        }
        if (problems.isEmpty()) {
            return DoctorCheck.ok(where + " enables " + VolcanoApi.NETWORK_TOPOLOGY_PLUGIN + " and " + GANG_PLUGIN);
        }
        return DoctorCheck.problem(
                DoctorCheck.Status.FAILURE,
                DoctorReason.SCHEDULER_PLUGIN_MISSING,
                ref,
                where + ": " + String.join("; ", problems));
    }
}

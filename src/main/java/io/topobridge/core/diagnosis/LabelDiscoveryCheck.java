package io.topobridge.core.diagnosis;

import com.fasterxml.jackson.databind.JsonNode;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The doctor's {@code label-discovery} check: Volcano's own label discovery not fighting the bridge over nodes. */
final class LabelDiscoveryCheck {

    static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

    static DoctorCheck.Result check(DoctorInputs in) {
        List<String> read = new ArrayList<>();
        Set<String> theirs = new TreeSet<>();
        List<String> overlaps = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        for (DoctorInputs.ConfigMapData cm : in.controllerConfigs()) {
            ObjectRef ref = cm.ref();
            String where = "ConfigMap " + ref.namespace() + "/" + ref.name();
            String conf = cm.data().get(in.controllerConfigKey());
            if (conf == null || conf.isBlank()) {
                continue;
            }
            read.add(where);
            JsonNode root = DoctorInputs.yaml(conf);
            if (root == null) {
                continue; // not YAML: Volcano reads no discovery from it either
            }
            Set<String> ours = new TreeSet<>();
            for (JsonNode source : root.path("networkTopologyDiscovery")) {
                if (!"label".equals(source.path("source").asText())
                        || !source.path("enabled").asBoolean(false)) {
                    continue;
                }
                source.path("config")
                        .path("networkTopologyTypes")
                        .forEach(type -> type.forEach(level -> {
                            String key = level.path("nodeLabel").asText("");
                            if (!key.isEmpty() && !HOSTNAME_LABEL.equals(key)) {
                                theirs.add(UserText.excerpt(key));
                                if (in.readsLabel().test(key)) {
                                    ours.add(key);
                                }
                            }
                        }));
            }
            if (!ours.isEmpty()) {
                String message = "Volcano's label discovery (" + where + ") makes HyperNodes from "
                        + DoctorCheck.named(List.copyOf(ours))
                        + ", which the bridge reads too: nodes get two parents and"
                        + " Volcano stops placing topology-aware gangs; turn one of them off";
                overlaps.add(message);
                findings.add(Finding.warning(DoctorReason.LABEL_DISCOVERY_OVERLAP, ref, message));
            }
        }
        if (!overlaps.isEmpty()) {
            return DoctorCheck.failure(overlaps, findings);
        }
        if (read.isEmpty()) {
            return DoctorCheck.ok("Volcano's HyperNode label discovery is not configured");
        }
        if (theirs.isEmpty()) {
            return DoctorCheck.ok("Volcano's HyperNode label discovery is off (" + String.join(", ", read) + ")");
        }
        return DoctorCheck.ok("Volcano's label discovery reads " + DoctorCheck.named(List.copyOf(theirs))
                + ", none of which the bridge's tiers read");
    }
}

package io.topobridge.core.diagnosis;

import com.fasterxml.jackson.databind.JsonNode;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import java.util.ArrayList;
import java.util.List;

/** The doctor's {@code volcano-crds} check: Volcano's CRDs new enough for every field the bridge writes. */
final class VolcanoCrdsCheck {

    /** The Volcano release that introduced every field the bridge writes. */
    static final String VOLCANO_NEEDED = "v1.14";

    static DoctorCheck.Result check(DoctorInputs in) {
        List<Finding> findings = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        requireFields(
                in,
                VolcanoApi.PODGROUP_CRD,
                List.of("spec.networkTopology", "spec.subGroupPolicy"),
                findings,
                problems);
        requireFields(in, VolcanoApi.HYPERNODE_CRD, List.of("spec.tierName"), findings, problems);
        if (problems.isEmpty()) {
            return DoctorCheck.ok("PodGroup and HyperNode CRDs have networkTopology, subGroupPolicy and"
                    + " tierName (Volcano " + VOLCANO_NEEDED + " or later)");
        }
        return new DoctorCheck.Result(
                DoctorCheck.Status.FAILURE,
                String.join("; ", problems) + ": Volcano " + VOLCANO_NEEDED + " or later is needed",
                findings);
    }

    private static void requireFields(
            DoctorInputs in, String crd, List<String> paths, List<Finding> findings, List<String> problems) {
        ObjectRef ref = ObjectRef.cluster("CustomResourceDefinition", crd);
        JsonNode schema = in.crdSchemas().get(crd);
        if (schema == null) {
            problems.add(crd + " is not installed");
            findings.add(Finding.warning(
                    DoctorReason.VOLCANO_CRD_MISSING,
                    ref,
                    "Volcano's CRD " + crd + " is not installed; Volcano " + VOLCANO_NEEDED + " or later is needed"));
            return;
        }
        List<String> missing = new ArrayList<>();
        for (String path : paths) {
            JsonNode at = schema;
            for (String part : path.split("\\.")) {
                at = at.path("properties").path(part);
            }
            if (at.isMissingNode()) {
                missing.add(path);
            }
        }
        if (!missing.isEmpty()) {
            problems.add(crd + " lacks " + String.join(", ", missing));
            findings.add(Finding.warning(
                    DoctorReason.VOLCANO_CRD_TOO_OLD,
                    ref,
                    "Volcano's CRD " + crd + " lacks "
                            + String.join(", ", missing)
                            + ", which the bridge writes: the API server drops them, so topology is"
                            + " silently lost; Volcano " + VOLCANO_NEEDED + " or later is needed"));
        }
    }
}

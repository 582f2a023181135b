package io.topobridge.core;

import java.util.List;

/**
 * A Kubernetes API that the bridge or its chart uses where the cluster serves it, with what is off where it does not
 * (an older minor, or the API turned off): the bridge then says so in one line and {@code doctor} warns.
 */
public enum OptionalApi {
    /** Dynamic Resource Allocation's claims, read to count the devices a gang's pods claim. */
    DRA(
            "resource.k8s.io/v1",
            List.of("resourceclaims", "resourceclaimtemplates"),
            "1.34",
            "ResourceClaims and ResourceClaimTemplates are not cached, so the devices gangs claim through DRA are not"
                    + " counted (finding DraDevicesNotCounted)"),
    /** The chart's node label policy. */
    VALIDATING_ADMISSION_POLICY(
            "admissionregistration.k8s.io/v1",
            List.of("validatingadmissionpolicies", "validatingadmissionpolicybindings"),
            "1.30",
            "the chart's nodeLabelPolicy (a ValidatingAdmissionPolicy) cannot be installed, so nodes may change the"
                    + " labels the topology tiers read");

    private final String groupVersion;
    private final List<String> resources;
    private final String since;
    private final String off;

    OptionalApi(String groupVersion, List<String> resources, String since, String off) {
        this.groupVersion = groupVersion;
        this.resources = resources;
        this.since = since;
        this.off = off;
    }

    public String groupVersion() {
        return groupVersion;
    }

    /** The resources (plurals) of that group version the bridge or chart uses; all must be served. */
    public List<String> resources() {
        return resources;
    }

    /** That the API is not served, and since which Kubernetes minor it is. */
    public String notServed() {
        return groupVersion + " " + String.join(" and ", resources) + " not served (Kubernetes " + since
                + " and later serve them)";
    }

    /** The API and what is off without it, in one line (the log, {@code doctor}). */
    public String missing() {
        return notServed() + ": " + off;
    }
}

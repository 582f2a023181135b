package io.topobridge.core.render.expand;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The label and annotation keys the workload controllers write (AIBrix v0.7.0, LWS v0.9.0, Kubernetes v1.35), and
 * small readers they share.
 */
public final class Keys {

    private Keys() {}

    // AIBrix (pkg/controller/constants)
    public static final String AIBRIX_STORM_SERVICE = WorkloadLabels.AIBRIX_STORM_SERVICE;
    public static final String AIBRIX_REVISION_LABEL = "storm-service-revision";
    public static final String AIBRIX_ROLE_SET = WorkloadLabels.AIBRIX_ROLE_SET;
    public static final String AIBRIX_ROLE = WorkloadLabels.AIBRIX_ROLE;
    public static final String AIBRIX_TEMPLATE_HASH = "role-template-hash";
    public static final String AIBRIX_ROLE_REPLICA_INDEX = "stormservice.orchestration.aibrix.ai/role-replica-index";
    public static final String AIBRIX_POD_SET = WorkloadLabels.AIBRIX_POD_SET;
    public static final String AIBRIX_POD_GROUP_INDEX = "stormservice.orchestration.aibrix.ai/pod-group-index";
    public static final String AIBRIX_ROLE_REVISION = "stormservice.orchestration.aibrix.ai/role-revision";
    public static final String AIBRIX_ROLE_REVISION_NAME = "stormservice.orchestration.aibrix.ai/role-revision-name";
    public static final String AIBRIX_ROLE_SET_INDEX = "stormservice.orchestration.aibrix.ai/roleset-index";
    public static final String AIBRIX_REVISION_ANNOTATION = "stormservice.orchestration.aibrix.ai/revision";
    public static final String GODEL_POD_GROUP = "godel.bytedance.com/pod-group-name";
    public static final String COSCHEDULING_POD_GROUP = "scheduling.x-k8s.io/pod-group";
    public static final String VOLCANO_POD_GROUP = "scheduling.k8s.io/group-name";

    // LeaderWorkerSet (api/leaderworkerset/v1)
    public static final String LWS_NAME = WorkloadLabels.LWS_NAME;
    public static final String LWS_GROUP_INDEX = WorkloadLabels.LWS_GROUP_INDEX;
    public static final String LWS_WORKER_INDEX = WorkloadLabels.LWS_WORKER_INDEX;
    public static final String LWS_REVISION = WorkloadLabels.LWS_REVISION;
    public static final String LWS_GROUP_KEY = "leaderworkerset.sigs.k8s.io/group-key";
    public static final String LWS_SUBGROUP_INDEX = WorkloadLabels.LWS_SUBGROUP_INDEX;
    public static final String LWS_SUBGROUP_KEY = "leaderworkerset.sigs.k8s.io/subgroup-key";
    public static final String LWS_SIZE = "leaderworkerset.sigs.k8s.io/size";
    public static final String LWS_REPLICAS = "leaderworkerset.sigs.k8s.io/replicas";
    public static final String LWS_LEADER_NAME = "leaderworkerset.sigs.k8s.io/leader-name";
    public static final String LWS_EXCLUSIVE = "leaderworkerset.sigs.k8s.io/exclusive-topology";
    public static final String LWS_SUBGROUP_EXCLUSIVE = "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology";
    public static final String LWS_SUBGROUP_SIZE = "leaderworkerset.sigs.k8s.io/subgroup-size";
    public static final String LWS_SUBGROUP_POLICY_TYPE = "leaderworkerset.sigs.k8s.io/subgroup-policy-type";
    public static final String LWS_SUBDOMAIN_POLICY = "leaderworkerset.sigs.k8s.io/subdomainPolicy";
    public static final String LWS_LEADER_REQUESTS_TPUS = "leaderworkerset.sigs.k8s.io/leader-requests-tpus";
    public static final String TPU_RESOURCE = "google.com/tpu";

    // DisaggregatedSet (api/disaggregatedset/v1)
    public static final String DS_NAME = WorkloadLabels.DS_NAME;
    public static final String DS_ROLE = WorkloadLabels.DS_ROLE;
    public static final String DS_REVISION = "disaggregatedset.x-k8s.io/revision";

    // Kubernetes apps/v1
    public static final String STS_POD_NAME = "statefulset.kubernetes.io/pod-name";
    public static final String POD_INDEX = "apps.kubernetes.io/pod-index";
    public static final String STS_REVISION = "controller-revision-hash";
    public static final String POD_TEMPLATE_HASH = WorkloadLabels.POD_TEMPLATE_HASH;
    public static final String DEPLOYMENT_REVISION = "deployment.kubernetes.io/revision";
    public static final String DEPLOYMENT_REVISION_HISTORY = "deployment.kubernetes.io/revision-history";
    public static final String DEPLOYMENT_DESIRED = "deployment.kubernetes.io/desired-replicas";
    public static final String DEPLOYMENT_MAX = "deployment.kubernetes.io/max-replicas";
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
    public static final String DEPRECATED_ROLLBACK_TO = "deprecated.deployment.rollback.to";

    private static final Pattern ORDINAL = Pattern.compile("(.*)-([0-9]+)$");

    /** The ordinal at the end of a StatefulSet pod's name ({@code -1} when there is none, as in Kubernetes). */
    public static int ordinal(String podName) {
        Matcher m = ORDINAL.matcher(podName);
        if (!m.matches()) {
            return -1;
        }
        try {
            return Integer.parseInt(m.group(2));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Whether an object is not being deleted (a controller counts only those). */
    public static boolean live(HasMetadata object) {
        return object.getMetadata().getDeletionTimestamp() == null;
    }

    /** Whether a pod counts as active: not being deleted, not Succeeded or Failed. */
    public static boolean activePod(HasMetadata pod) {
        if (!live(pod)) {
            return false;
        }
        String phase = pod instanceof Pod typed && typed.getStatus() != null
                ? typed.getStatus().getPhase()
                : null;
        return !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    /** The owner that controls an object. */
    public static Optional<OwnerReference> controllerOf(HasMetadata object) {
        return Workload.controller(object.getMetadata());
    }

    /**
     * An int-or-percent field scaled against {@code total} as {@code intstr.GetScaledValueFromIntOrPercent} does
     * (percentages rounded up or down); {@code absent} when the field is not set.
     */
    public static long scaled(JsonNode node, String field, long total, boolean roundUp, String absent) {
        String value;
        if (node == null || node.isNull() || node.isMissingNode()) {
            value = absent;
        } else if (node.isIntegralNumber() && node.canConvertToLong()) {
            long n = node.asLong();
            if (n < 0) {
                throw new IllegalArgumentException(field + "=" + n + " is negative");
            }
            return n;
        } else if (node.isTextual() && node.asText().endsWith("%")) {
            value = node.asText();
        } else {
            throw new IllegalArgumentException(
                    field + "=" + UserText.quote(node.toString()) + " is not a number or a percentage");
        }
        if (value.endsWith("%")) {
            long percent;
            try {
                percent = Long.parseLong(value.substring(0, value.length() - 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(field + "=" + UserText.quote(value) + " is not a percentage");
            }
            if (percent < 0 || percent > 1_000_000) {
                throw new IllegalArgumentException(field + "=" + UserText.quote(value) + " is out of range");
            }
            double exact = (double) percent * total / 100.0;
            return roundUp ? (long) Math.ceil(exact) : (long) Math.floor(exact);
        }
        try {
            long n = Long.parseLong(value);
            if (n < 0) {
                throw new IllegalArgumentException(field + "=" + n + " is negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    field + "=" + UserText.quote(value) + " is not a number or a percentage");
        }
    }

    /**
     * {@code maxSurge} as {@code ResolveFenceposts} resolves it in AIBrix and the Deployment controller (the
     * defaults are the caller's).
     */
    public static long surge(JsonNode maxSurge, String field, long replicas, String absent) {
        return scaled(maxSurge, field, replicas, true, absent);
    }

    /** A label or annotation value the controller reads from a map that may lack it (Go's zero value, ""). */
    public static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}

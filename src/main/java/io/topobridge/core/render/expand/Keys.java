package io.topobridge.core.render.expand;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.kind.Workload;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Small readers the workload controllers share (a pod's ordinal, liveness, owner, an int-or-percent field); the keys
 * each controller writes live in its kind's folder.
 */
public final class Keys {

    private Keys() {}

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
     * (percentages rounded up or down); {@code absent} when the field is not set. {@code maxSurge} rounds up, as
     * {@code ResolveFenceposts} resolves it in AIBrix and the Deployment controller.
     */
    public static long scaled(JsonNode node, String field, long total, boolean roundUp, String absent) {
        String value;
        if (node == null || node.isNull() || node.isMissingNode()) {
            value = absent;
        } else if ((node.isIntegralNumber() && node.canConvertToLong())
                || (node.isTextual() && node.asText().endsWith("%"))) {
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

    /** A label or annotation value the controller reads from a map that may lack it (Go's zero value, ""). */
    public static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}

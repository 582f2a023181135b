package io.topobridge.core.node;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A pod's toleration, matched against a node's taints as Kubernetes matches them: an empty effect matches every
 * effect, otherwise the effects must be equal; an empty key (with operator {@code Exists}) matches every key,
 * otherwise the keys must be equal; operator {@code Exists} matches any value, {@code Equal} (or none) an equal value.
 * Any other operator tolerates nothing. {@code tolerationSeconds} only bounds how long a running pod stays on a
 * {@code NoExecute} node; for placing a pod the toleration counts in full.
 *
 * @param key empty for every key
 * @param operator {@code Exists}, {@code Equal} or empty (Equal)
 * @param effect empty for every effect
 */
public record Toleration(String key, String operator, String value, String effect) {

    public static final String EXISTS = "Exists";
    public static final String EQUAL = "Equal";

    public Toleration {
        key = key == null ? "" : key;
        operator = operator == null ? "" : operator;
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }

    public boolean tolerates(Taint taint) {
        if (!effect.isEmpty() && !effect.equals(taint.effect())) {
            return false;
        }
        if (!key.isEmpty() && !key.equals(taint.key())) {
            return false;
        }
        return switch (operator) {
            case EXISTS -> true;
            case EQUAL, "" -> value.equals(taint.value());
            default -> false;
        };
    }

    public static boolean tolerated(Collection<Toleration> tolerations, Taint taint) {
        return tolerations.stream().anyMatch(t -> t.tolerates(taint));
    }

    /**
     * The toleration Kubernetes' {@code ExtendedResourceToleration} admission plugin gives a pod that requests an
     * extended resource ({@code key} the resource, {@code Exists}, {@code NoSchedule}): nodes tainted with the name of
     * their device resource take the pods that request it. GKE and EKS run the plugin; on clusters that do not, pods
     * need the toleration in their template anyway to land there.
     */
    public static Toleration forExtendedResource(String resource) {
        return new Toleration(resource, EXISTS, "", Taint.NO_SCHEDULE);
    }

    /**
     * A pod's tolerations as the scheduler sees them: those it declares and, for each extended resource it requests,
     * the one {@link #forExtendedResource} describes.
     */
    public static List<Toleration> forPod(Collection<Toleration> declared, Collection<String> requested) {
        return Stream.concat(
                        declared.stream(),
                        requested.stream().filter(Toleration::extendedResource).map(Toleration::forExtendedResource))
                .collect(Collectors.toUnmodifiableList());
    }

    public static Toleration of(io.fabric8.kubernetes.api.model.Toleration t) {
        return new Toleration(t.getKey(), t.getOperator(), t.getValue(), t.getEffect());
    }

    /** Tolerations of the Kubernetes model (none for null). */
    public static List<Toleration> of(List<io.fabric8.kubernetes.api.model.Toleration> tolerations) {
        return tolerations == null
                ? List.of()
                : tolerations.stream()
                        .filter(Objects::nonNull)
                        .map(Toleration::of)
                        .collect(Collectors.toUnmodifiableList());
    }

    /** Whether a resource name is an extended resource (a domain-prefixed name outside {@code kubernetes.io}). */
    public static boolean extendedResource(String resource) {
        int slash = resource.indexOf('/');
        if (slash <= 0) {
            return false;
        }
        String domain = resource.substring(0, slash);
        return !domain.equals("kubernetes.io")
                && !domain.endsWith(".kubernetes.io")
                && !resource.startsWith("requests.");
    }
}

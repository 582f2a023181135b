package io.topobridge.core.workload.kind;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/** What a pod being created tells of its place: its labels, its controlling owner, its LWS group and part. */
public final class Pods {

    private static final Pattern INDEX = Pattern.compile("[0-9]{1,9}");

    public static Map<String, String> labels(Pod pod) {
        return Objects.requireNonNullElse(pod.getMetadata().getLabels(), Map.of());
    }

    public static String namespace(Pod pod) {
        return Objects.requireNonNullElse(pod.getMetadata().getNamespace(), "");
    }

    /** The owner controlling the pod, when it is of the given built-in kind ({@code ReplicaSet}, {@code StatefulSet}). */
    public static Optional<OwnerReference> controller(Pod pod, String kind) {
        return Workload.controller(pod.getMetadata()).filter(o -> kind.equals(o.getKind()) && o.getName() != null);
    }

    /** The LWS group key the pod carries (its group-key label), or null when it carries none. */
    public static String groupKey(Pod pod) {
        String key = labels(pod).get(WorkloadLabels.LWS_GROUP_KEY);
        return key == null || key.isEmpty() ? null : key;
    }

    /** A group index or slice as LWS and DisaggregatedSet write it: a small non-negative number, else -1. */
    public static int index(String value) {
        return value != null && INDEX.matcher(value).matches() ? Integer.parseInt(value) : -1;
    }

    /**
     * The leader is worker 0; before LWS's own webhook labelled it, the owner tells: the leader StatefulSet is
     * named after the LWS, a worker StatefulSet after its leader pod ({@code <lws>-<group>}).
     */
    public static boolean isLeader(Pod pod, String lws) {
        String index = labels(pod).get(WorkloadLabels.LWS_WORKER_INDEX);
        if (index != null) {
            return "0".equals(index);
        }
        Optional<OwnerReference> owner = controller(pod, "StatefulSet");
        if (owner.isPresent()) {
            return lws.equals(owner.get().getName());
        }
        String name = pod.getMetadata().getName();
        return name != null && name.startsWith(lws + "-") && index(name.substring(lws.length() + 1)) >= 0;
    }

    /** The LWS group index: the label, else the leader's ordinal, else the worker StatefulSet's suffix; -1 if unknown. */
    public static int groupIndex(Pod pod, String lws, boolean leader) {
        String candidate = labels(pod).get(WorkloadLabels.LWS_GROUP_INDEX);
        if (candidate == null) {
            String name = pod.getMetadata().getName();
            Optional<OwnerReference> owner = controller(pod, "StatefulSet");
            if (leader && name != null && name.startsWith(lws + "-")) {
                candidate = name.substring(lws.length() + 1);
            } else if (!leader && owner.isPresent() && owner.get().getName().startsWith(lws + "-")) {
                candidate = owner.get().getName().substring(lws.length() + 1);
            }
        }
        return index(candidate);
    }

    /**
     * A pod's index: its {@code label}, else the ordinal its name carries after its StatefulSet's name (the StatefulSet
     * controller names its pods so before any webhook labels them); null when neither says.
     */
    public static String index(Pod pod, String label) {
        String value = labels(pod).get(label);
        if (value != null) {
            return value;
        }
        String name = pod.getMetadata() == null ? null : pod.getMetadata().getName();
        return controller(pod, "StatefulSet")
                .map(owner -> owner.getName() + "-")
                .filter(prefix -> name != null && name.startsWith(prefix))
                .map(prefix -> name.substring(prefix.length()))
                .filter(suffix -> INDEX.matcher(suffix).matches())
                .orElse(null);
    }
}

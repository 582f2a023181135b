package io.topobridge.core.workload.changes;

import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.NativeGang;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.translate.ScopeResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Finds the pods of a gang that do not name its PodGroup: pods created while the pod webhook was unreachable (its
 * failure policy lets them in untouched) or before their workload was annotated. Volcano reads the group name only
 * from the pod, and only as it was at creation, so such a pod never joins the gang: each one is reported on the
 * gang's workloads until it is gone (deleted, and recreated by its controller through the webhook).
 */
public final class UntiedPods {

    /** How many pod names a finding lists; the count covers the rest. */
    public static final int LISTED = 5;

    /**
     * A live pod of the scope's namespace.
     *
     * @param groupName the PodGroup it names ({@code scheduling.k8s.io/group-name}), null when none
     * @param gang the PodGroup its gang's plan counts it in
     * @param nativeGang the Kubernetes gang it is in ({@link NativeGang#describe()}), null when none: such a pod is
     *     left out of Volcano's gang on purpose, not untied
     */
    public record PodTie(String name, String groupName, String gang, String nativeGang) {
        public PodTie {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(gang, "gang");
        }

        /** Whether the pod names the PodGroup of its gang. */
        public boolean tied() {
            return gang.equals(groupName);
        }

        /** Whether the pod runs outside its gang by mistake: neither tied nor in a Kubernetes gang of its own. */
        public boolean untied() {
            return !tied() && nativeGang == null;
        }
    }

    /**
     * One warning per workload of the scope and per PodGroup the scope keeps that has untied pods ({@code key}: the
     * PodGroup), naming the count and the first {@value #LISTED} pods by name with what each names instead.
     */
    public static List<Finding> findings(ScopeResult result, List<PodTie> pods) {
        Map<String, List<PodTie>> untied = new TreeMap<>();
        Map<String, List<PodTie>> inNativeGangs = new TreeMap<>();
        for (DesiredPodGroup pg : result.podGroups()) {
            untied.put(pg.name(), new ArrayList<>());
            inNativeGangs.put(pg.name(), new ArrayList<>());
        }
        for (PodTie pod : pods) {
            if (!pod.tied() && untied.containsKey(pod.gang())) {
                (pod.untied() ? untied : inNativeGangs).get(pod.gang()).add(pod);
            }
        }
        List<Finding> out = new ArrayList<>();
        warn(out, result, inNativeGangs, WorkloadReason.PODS_IN_NATIVE_GANG, UntiedPods::nativeMessage);
        warn(out, result, untied, WorkloadReason.UNTIED_PODS, UntiedPods::message);
        return out;
    }

    /** One warning per subject for each PodGroup that has pods in {@code byPodGroup}, listed by name. */
    private static void warn(
            List<Finding> out,
            ScopeResult result,
            Map<String, List<PodTie>> byPodGroup,
            WorkloadReason reason,
            BiFunction<String, List<PodTie>, String> message) {
        byPodGroup.forEach((podGroup, list) -> {
            if (list.isEmpty()) {
                return;
            }
            list.sort(Comparator.comparing(PodTie::name));
            out.addAll(WorkloadReason.warnings(reason, result.subjects(), podGroup, message.apply(podGroup, list)));
        });
    }

    private static String nativeMessage(String podGroup, List<PodTie> pods) {
        boolean one = pods.size() == 1;
        return pods.size() + (one ? " pod is" : " pods are") + " in a Kubernetes gang of "
                + (one ? "its" : "their") + " own (spec.schedulingGroup, gang scheduling of the workload API), so the"
                + " bridge leaves " + (one ? "it" : "them") + " out of gang " + podGroup + ": kube-scheduler gangs "
                + (one ? "it" : "them") + ", and the gang's tier and size do not apply; drop the workload's"
                + " topobridge.io/ annotations or the pod template's schedulingGroup: "
                + listed(pods, PodTie::nativeGang);
    }

    private static String message(String podGroup, List<PodTie> untied) {
        boolean one = untied.size() == 1;
        return untied.size() + (one ? " pod runs" : " pods run") + " outside gang " + podGroup + " (no "
                + VolcanoApi.GROUP_NAME_ANNOTATION + "=" + podGroup + ": created while the pod webhook was unreachable,"
                + " or before the workload was annotated), so Volcano places " + (one ? "it" : "them")
                + " one by one, ignoring the gang's size and topology; delete " + (one ? "it" : "them") + " so "
                + (one ? "its" : "their") + " controller recreates " + (one ? "it" : "them") + " in the gang: "
                + listed(
                        untied,
                        pod -> pod.groupName() == null ? "no group name" : "in " + UserText.quote(pod.groupName()));
    }

    /** The first {@link #LISTED} pods by name, each with {@code detail} in brackets, and how many more there are. */
    private static String listed(List<PodTie> pods, Function<PodTie, String> detail) {
        String names = pods.stream()
                .limit(LISTED)
                .map(pod -> UserText.identifier(pod.name()) + " (" + detail.apply(pod) + ")")
                .collect(Collectors.joining(", "));
        int more = pods.size() - LISTED;
        return names + (more > 0 ? " and " + more + " more" : "");
    }
}

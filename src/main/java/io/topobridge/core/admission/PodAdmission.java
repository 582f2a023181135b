package io.topobridge.core.admission;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.Reason;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.NativeGang;
import io.topobridge.core.workload.PodAssignment;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Pure pod admission: the pod as admission lets it in, tied to its gang. Shared by the mutating webhook and
 * {@code render}, so the two can never disagree.
 *
 * <p>A pod of a managed gang already in a Kubernetes gang of its own ({@link NativeGang}) is left untouched. For any
 * other pod of a managed gang (as {@link WorkloadTranslator#tie} finds it) the admitted pod carries the
 * gang's PodGroup in the annotation {@code scheduling.k8s.io/group-name}, the configured scheduler when it
 * named none or {@code default-scheduler}, the role's {@code volcano.sh/task-spec} and the labels the gang's
 * subGroupPolicy selects on. A group name the pod already carries is never changed (AIBrix and LWS stamp their
 * own); such a pod is completed only when it names the very PodGroup the bridge adopted. Values the pod
 * already has win over the bridge's (a pod's own task-spec, a label a Service may select on): the bridge only
 * adds, and reports what it could not add. Nothing else in the pod changes.
 */
public final class PodAdmission {

    /** What admission noticed about a pod. */
    public enum Reasons implements Reason {
        /** The pod names another scheduler; Volcano will not place it, and its gang may wait for it. */
        FOREIGN_SCHEDULER,
        /** The pod already names a PodGroup other than its gang's; it keeps its own. */
        FOREIGN_GROUP_NAME,
        /** The pod already carries a label the gang's subGroupPolicy needs with another value. */
        SUBGROUP_LABEL_CONFLICT,
        /**
         * A pod of a managed gang that is already in a Kubernetes gang of its own ({@code spec.schedulingGroup}, the
         * workload API's gang scheduling): it is left untouched, not tied to the gang's Volcano PodGroup.
         */
        NATIVE_GANG
    }

    /** How admission treated a pod. */
    public enum Outcome {
        /** No managed gang: the pod passes untouched. */
        UNMANAGED,
        /** Tied to its gang by the bridge. */
        ASSIGNED,
        /** It already named its gang's PodGroup (made by AIBrix or LWS); completed where needed. */
        ADOPTED,
        /** It names another PodGroup and keeps it untouched. */
        KEPT,
        /**
         * It is in a Kubernetes gang of its own ({@code spec.schedulingGroup}): untouched, so kube-scheduler gangs it (tied
         * to a Volcano PodGroup too, neither scheduler would).
         */
        NATIVE_GANG
    }

    /**
     * The admitted pod (a copy; the input is never mutated), how it was treated, the PodGroup it names (null
     * when unmanaged) and what was noticed on the way.
     */
    public record Result(Pod pod, Outcome outcome, String podGroup, List<Finding> findings) {
        public Result {
            Objects.requireNonNull(pod, "pod");
            Objects.requireNonNull(outcome, "outcome");
            findings = List.copyOf(findings);
        }
    }

    /**
     * Finds the gang of a pod being created, and why a pod of a managed gang is left untied: the translator's
     * {@code tie}.
     */
    @FunctionalInterface
    public interface Assigner {
        WorkloadTranslator.Tie tie(Pod pod, TierCatalog tiers, WorkloadLookup lookup);
    }

    private final AdmissionSettings settings;
    private final Assigner assigner;

    public PodAdmission(AdmissionSettings settings, Assigner assigner) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.assigner = Objects.requireNonNull(assigner, "assigner");
    }

    public Result admit(Pod pod, TierCatalog tiers, WorkloadLookup lookup) {
        Pod admitted = new PodBuilder(pod).build();
        if (admitted.getMetadata() == null) {
            admitted.setMetadata(new ObjectMeta());
        }
        ObjectMeta meta = admitted.getMetadata();
        String existing =
                meta.getAnnotations() == null ? null : meta.getAnnotations().get(VolcanoApi.GROUP_NAME_ANNOTATION);
        WorkloadTranslator.Tie tie = assigner.tie(pod, tiers, lookup);
        Optional<PodAssignment> found = tie.assigned();
        if (found.isEmpty()) {
            return new Result(admitted, existing == null ? Outcome.UNMANAGED : Outcome.KEPT, existing, tie.findings());
        }
        PodAssignment assignment = found.get();
        ObjectRef ref = ref(pod);
        Optional<NativeGang> nativeGang = NativeGang.of(pod);
        if (nativeGang.isPresent()) {
            return new Result(
                    admitted,
                    Outcome.NATIVE_GANG,
                    null,
                    List.of(Finding.warning(
                            Reasons.NATIVE_GANG,
                            ref,
                            "pod is in a Kubernetes gang of its own, "
                                    + nativeGang.get().describe()
                                    + ": it is left untouched and not tied to PodGroup "
                                    + assignment.podGroupName()
                                    + " (in both gangs, neither kube-scheduler nor Volcano would gang it); its"
                                    + " workload's topobridge.io/ settings do not apply to it")));
        }
        if (existing != null && !existing.equals(assignment.podGroupName())) {
            return new Result(
                    admitted,
                    Outcome.KEPT,
                    existing,
                    List.of(Finding.info(
                            Reasons.FOREIGN_GROUP_NAME,
                            ref,
                            "pod already names PodGroup " + UserText.quote(existing) + " in "
                                    + VolcanoApi.GROUP_NAME_ANNOTATION + "; it keeps it and is not tied to PodGroup "
                                    + assignment.podGroupName())));
        }

        List<Finding> findings = new ArrayList<>();
        Map<String, String> annotations = mutable(meta.getAnnotations());
        annotations.putIfAbsent(VolcanoApi.GROUP_NAME_ANNOTATION, assignment.podGroupName());
        if (assignment.taskSpec() != null) {
            annotations.putIfAbsent(VolcanoApi.TASK_SPEC_ANNOTATION, assignment.taskSpec());
        }
        meta.setAnnotations(annotations);
        addLabels(meta, assignment, ref, findings);
        setScheduler(admitted, assignment, ref, findings);
        return new Result(
                admitted, existing == null ? Outcome.ASSIGNED : Outcome.ADOPTED, assignment.podGroupName(), findings);
    }

    /** The labels the gang's subGroupPolicy selects on; a value the pod has already is kept, and said. */
    private static void addLabels(ObjectMeta meta, PodAssignment assignment, ObjectRef ref, List<Finding> findings) {
        if (assignment.labels().isEmpty()) {
            return;
        }
        Map<String, String> labels = mutable(meta.getLabels());
        assignment.labels().forEach((key, value) -> {
            String own = labels.putIfAbsent(key, value);
            if (own != null && !own.equals(value)) {
                findings.add(Finding.warning(
                                Reasons.SUBGROUP_LABEL_CONFLICT,
                                ref,
                                "pod label " + key + "="
                                        + UserText.quote(own) + " is kept, but the subGroupPolicy of PodGroup "
                                        + assignment.podGroupName() + " expects " + key + "="
                                        + UserText.quote(value)
                                        + "; the pod may join the wrong subgroup")
                        .withKey(key));
            }
        });
        meta.setLabels(labels);
    }

    /** The configured scheduler where the pod named none or the default one; another one is left, and said. */
    private void setScheduler(Pod admitted, PodAssignment assignment, ObjectRef ref, List<Finding> findings) {
        if (admitted.getSpec() == null) {
            admitted.setSpec(new PodSpec());
        }
        String scheduler = admitted.getSpec().getSchedulerName();
        if (scheduler == null || scheduler.isBlank() || AdmissionSettings.DEFAULT_SCHEDULER.equals(scheduler)) {
            admitted.getSpec().setSchedulerName(settings.schedulerName());
        } else if (!scheduler.equals(settings.schedulerName())) {
            findings.add(Finding.warning(
                    Reasons.FOREIGN_SCHEDULER,
                    ref,
                    "pod names scheduler " + UserText.quote(scheduler)
                            + ", not " + settings.schedulerName()
                            + ": it is left alone, Volcano will not place it, and PodGroup "
                            + assignment.podGroupName() + " may wait for it"));
        }
    }

    private static Map<String, String> mutable(Map<String, String> map) {
        return map == null ? new LinkedHashMap<>() : new LinkedHashMap<>(map);
    }

    /** Pods made by controllers have no name yet at admission, only a {@code generateName} prefix. */
    static ObjectRef ref(Pod pod) {
        ObjectMeta meta = pod.getMetadata();
        String name = meta == null ? null : meta.getName();
        if ((name == null || name.isEmpty()) && meta != null && meta.getGenerateName() != null) {
            name = meta.getGenerateName() + "*";
        }
        return new ObjectRef(
                "v1",
                "Pod",
                meta == null ? null : meta.getNamespace(),
                name == null || name.isEmpty() ? "<unnamed>" : name,
                meta == null ? null : meta.getUid());
    }
}

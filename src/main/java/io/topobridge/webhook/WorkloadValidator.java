package io.topobridge.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.finding.UserText;
import io.topobridge.core.topology.TierCatalog;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadLookup;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The validating webhook on the managed workload kinds: rejects a workload whose {@code topobridge.io/}
 * annotations the reconciler would reject, with the reconciler's own messages: {@link WorkloadTranslator#validate}
 * runs the reconciler's translation over the cached cluster with the incoming object laid over it.
 *
 * <p>It never stands in the way of what it cannot fix: an UPDATE is denied only for rejections the old object
 * did not already have, compared by their identity (object, reason, key), not their text, so scaling or relabelling
 * an object that was invalid before the bridge arrived still works (it is warned that it is still refused), objects
 * being deleted and objects made by another controller (their owner was checked) pass. While
 * no tiers are known (the topology is not built yet, or the labelled nodes have not joined, as with a node
 * autoscaler) a tier cannot be checked, so rejections are returned as warnings and the reconciler reports them
 * once the tiers exist.
 */
public final class WorkloadValidator extends AdmissionWebhook {

    private static final Logger LOG = Logger.getLogger(WorkloadValidator.class);
    public static final String PATH = "/validate/workloads";
    /** The kinds users write; PodSets and ReplicaSets are made by controllers from a checked parent. */
    public static final List<WorkloadKind> KINDS = List.of(
            WorkloadKind.STORM_SERVICE,
            WorkloadKind.ROLE_SET,
            WorkloadKind.LEADER_WORKER_SET,
            WorkloadKind.DISAGGREGATED_SET,
            WorkloadKind.DEPLOYMENT,
            WorkloadKind.STATEFUL_SET);

    /** Rejections and warnings for one workload; {@link WorkloadTranslator#validate} in production. */
    @FunctionalInterface
    public interface Validation {
        List<Finding> validate(HasMetadata workload, TierCatalog tiers, WorkloadLookup lookup);
    }

    static final String NO_TIERS = "not checked, no tiers are known yet: ";
    static final String STILL_REFUSED = "still refused (as before this change), the bridge keeps what it had: ";

    private final Validation validation;
    private final FindingLog findings = new FindingLog(LOG);

    public WorkloadValidator(Validation validation, Context context) {
        super("workloads", PATH, context);
        this.validation = validation;
    }

    @Override
    public AdmissionAnswer review(AdmissionRequest request) {
        boolean update = "UPDATE".equals(request.operation());
        if (!update && !"CREATE".equals(request.operation())) {
            return AdmissionAnswer.skipped();
        }
        String apiVersion = request.group().isEmpty() ? request.version() : request.group() + "/" + request.version();
        WorkloadKind kind = WorkloadKind.of(apiVersion, request.kind())
                .filter(KINDS::contains)
                .orElse(null);
        if (kind == null) {
            LOG.warnf(
                    "workload webhook received %s: its configuration should only send managed workload kinds",
                    request.describe());
            return AdmissionAnswer.skipped();
        }
        if (request.object() == null) {
            throw new AdmissionRequest.MalformedException("request.object is missing (a " + request.operation()
                    + " of a " + UserText.identifier(request.kind()) + " carries the object)");
        }
        if (request.inAny(context.ignoredNamespaces())) {
            return AdmissionAnswer.skipped();
        }
        HasMetadata workload = read(kind, request.object(), request);
        if (workload.getMetadata() == null
                || workload.getMetadata().getDeletionTimestamp() != null
                || controlled(workload)) {
            return AdmissionAnswer.skipped();
        }
        TierCatalog catalog = context.tiers().get();
        List<Finding> found = validation.validate(workload, catalog, context.lookup());
        // a rejection the old object had already is the same finding (object, reason, key) whatever its message
        // says now: a min-member refusal names the pod count, which a scale changes
        Set<Finding.Id> before = new HashSet<>();
        if (update && request.oldObject() != null) {
            validation.validate(read(kind, request.oldObject(), request), catalog, context.lookup()).stream()
                    .filter(f -> f.isRejection() || badValue(f))
                    .map(Finding::id)
                    .forEach(before::add);
        }
        // a tier that cannot be checked because no tier is known yet is not the user's mistake: warn, admit
        List<String> warnings = new java.util.ArrayList<>(found.stream()
                .filter(f -> f.severity() == Severity.WARNING && !(badValue(f) && !before.contains(f.id())))
                .map(Finding::message)
                .toList());
        found.stream()
                .filter(f -> f.isRejection() && f.reason() == WorkloadReason.TIERS_UNKNOWN)
                .map(f -> NO_TIERS + f.message())
                .distinct()
                .forEach(warnings::add);
        // refusals the old object had already stay refusals for the reconciler: said, but not in the way
        found.stream()
                .filter(f -> f.isRejection() && f.reason() != WorkloadReason.TIERS_UNKNOWN)
                .filter(f -> before.contains(f.id()))
                .map(f -> STILL_REFUSED + f.message())
                .distinct()
                .forEach(warnings::add);
        List<Finding> refused = found.stream()
                .filter(f -> (f.isRejection() && f.reason() != WorkloadReason.TIERS_UNKNOWN) || badValue(f))
                .filter(f -> !before.contains(f.id()))
                .toList();
        if (refused.isEmpty()) {
            return AdmissionAnswer.allow("allowed", warnings);
        }
        refused.forEach(findings::log);
        List<String> rejections =
                refused.stream().map(Finding::message).distinct().toList();
        return AdmissionAnswer.deny(String.join("; ", rejections), warnings);
    }

    /**
     * A bad value the reconciler only warns about, its default holding (a bad {@code topobridge.io/on-domain-loss} or
     * {@code domain-loss-grace}): refused here, where the user can still correct it, like any other bad value.
     */
    private static boolean badValue(Finding f) {
        return f.severity() == Severity.WARNING
                && (f.reason() == WorkloadReason.INVALID_ANNOTATION
                        || f.reason() == WorkloadReason.CONFLICTING_ANNOTATIONS);
    }

    private HasMetadata read(WorkloadKind kind, ObjectNode raw, AdmissionRequest request) {
        ObjectNode object = raw.deepCopy();
        if (!object.hasNonNull("apiVersion")) {
            object.put("apiVersion", kind.apiVersion());
        }
        if (!object.hasNonNull("kind")) {
            object.put("kind", kind.kind());
        }
        if (request.namespace() != null
                && object.path("metadata").isObject()
                && !object.path("metadata").hasNonNull("namespace")) {
            ((ObjectNode) object.get("metadata")).put("namespace", request.namespace());
        }
        return AdmissionRequest.read(context.serialization(), object, kind.type(), kind.kind());
    }

    private static boolean controlled(HasMetadata workload) {
        List<OwnerReference> owners = workload.getMetadata().getOwnerReferences();
        return owners != null && owners.stream().anyMatch(o -> Boolean.TRUE.equals(o.getController()));
    }
}

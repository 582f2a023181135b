package io.topobridge.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.admission.JsonPatch;
import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.finding.Finding;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The mutating webhook on Pod CREATE: runs {@link PodAdmission} (the code {@code render} runs) on the pod and
 * answers with the JSON patch from the pod as sent to the pod as admitted. Pods of no managed gang, pods in
 * ignored namespaces and other operations are allowed without a patch.
 */
public final class PodMutator extends AdmissionWebhook {

    private static final Logger LOG = Logger.getLogger(PodMutator.class);
    public static final String PATH = "/mutate/pods";

    private final PodAdmission admission;
    private final FindingLog findings = new FindingLog(LOG);

    public PodMutator(PodAdmission admission, Context context) {
        super("pods", PATH, context);
        this.admission = admission;
    }

    /** The paths admission may touch: annotations, labels, the scheduler name (or the map holding them, when absent). */
    static boolean owned(JsonPatch.Operation op) {
        if ("remove".equals(op.op())) {
            return false;
        }
        String path = op.path();
        return path.equals("/metadata/annotations")
                || path.startsWith("/metadata/annotations/")
                || path.equals("/metadata/labels")
                || path.startsWith("/metadata/labels/")
                || path.equals("/spec/schedulerName")
                || (op.op().equals("add") && (path.equals("/metadata") || path.equals("/spec")));
    }

    @Override
    public AdmissionAnswer review(AdmissionRequest request) {
        if (!"CREATE".equals(request.operation())) {
            return AdmissionAnswer.skipped();
        }
        if (!"Pod".equals(request.kind()) || !request.group().isEmpty()) {
            LOG.warnf("pod webhook received %s: its configuration should only send pods", request.describe());
            return AdmissionAnswer.skipped();
        }
        if (request.object() == null) {
            throw new AdmissionRequest.MalformedException("request.object is missing (a Pod CREATE carries the pod)");
        }
        if (request.inAny(context.ignoredNamespaces())) {
            return AdmissionAnswer.skipped();
        }
        Pod pod = AdmissionRequest.read(context.serialization(), request.object(), Pod.class, "Pod");
        if (pod.getMetadata() != null && pod.getMetadata().getNamespace() == null) {
            // pods made by controllers often carry no namespace yet; the request says where they are created
            pod.getMetadata().setNamespace(request.namespace());
        }
        PodAdmission.Result result = admission.admit(pod, context.tiers().get(), context.lookup());
        JsonNode before = context.serialization().convertValue(pod, JsonNode.class);
        JsonNode after = context.serialization().convertValue(result.pod(), JsonNode.class);
        List<JsonPatch.Operation> patch = JsonPatch.diff(before, after);
        List<JsonPatch.Operation> foreign =
                patch.stream().filter(op -> !owned(op)).toList();
        if (!foreign.isEmpty()) {
            // admission only ever adds the group, task-spec, labels and scheduler; anything else is a bug, and
            // letting it through could drop a field of the user's pod
            throw new IllegalStateException("admission would change fields it does not own: " + foreign);
        }
        result.findings().forEach(findings::log);
        if (!patch.isEmpty()) {
            LOG.debugf("%s tied to PodGroup %s (%s)", request.describe(), result.podGroup(), result.outcome());
        }
        return AdmissionAnswer.patch(
                patch, result.findings().stream().map(Finding::message).toList());
    }
}

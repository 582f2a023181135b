package io.topobridge.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.admission.JsonPatch;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The mutating webhook on PodGroup CREATE and UPDATE by other controllers: a PodGroup the bridge adopts (AIBrix's,
 * LWS's provider's) gets the bridge's {@code spec.networkTopology} and {@code spec.subGroupPolicy} in the very
 * write, so AIBrix's rewrite of its whole spec on every reconcile does not drop them and LWS's PodGroup carries them
 * from its creation, before the scheduler sees it. Everything else passes unchanged.
 */
public final class PodGroupMutator extends AdmissionWebhook {

    private static final Logger LOG = Logger.getLogger(PodGroupMutator.class);
    public static final String PATH = "/mutate/podgroups";

    private final WorkloadTranslator translator;

    public PodGroupMutator(WorkloadTranslator translator, Context context) {
        super("podgroups", PATH, context);
        this.translator = translator;
    }

    @Override
    public AdmissionAnswer review(AdmissionRequest request) {
        if (!"CREATE".equals(request.operation()) && !"UPDATE".equals(request.operation())) {
            return AdmissionAnswer.skipped();
        }
        if (!VolcanoApi.PODGROUP_KIND.equals(request.kind()) || !VolcanoApi.SCHEDULING_GROUP.equals(request.group())) {
            LOG.warnf("PodGroup webhook received %s: its configuration should only send PodGroups", request.describe());
            return AdmissionAnswer.skipped();
        }
        if (request.object() == null) {
            throw new AdmissionRequest.MalformedException("request.object is missing (a PodGroup write carries it)");
        }
        if (request.inAny(context.ignoredNamespaces())) {
            return AdmissionAnswer.skipped();
        }
        GenericKubernetesResource podGroup = AdmissionRequest.read(
                context.serialization(), request.object(), GenericKubernetesResource.class, "PodGroup");
        if (podGroup.getMetadata() == null) {
            throw new AdmissionRequest.MalformedException("request.object has no metadata");
        }
        if (podGroup.getMetadata().getNamespace() == null) {
            podGroup.getMetadata().setNamespace(request.namespace());
        }
        Optional<DesiredPodGroup> wanted =
                translator.adoptedFields(podGroup, context.tiers().get(), context.lookup());
        if (wanted.isEmpty()) {
            return AdmissionAnswer.allow("unchanged", List.of());
        }
        JsonNode before = request.object();
        ObjectNode after = before.deepCopy();
        ObjectNode spec = after.with("spec");
        JsonNode desired = context.serialization().convertValue(wanted.get().spec(), JsonNode.class);
        for (String field : List.of("networkTopology", "subGroupPolicy")) {
            if (desired.hasNonNull(field)) {
                spec.set(field, desired.get(field));
            }
        }
        // how the bridge chose the tiers it adds (highest-tier: auto), as on the PodGroups it owns
        for (String key : List.of(Topobridge.CHOSEN_TIER, Topobridge.CHOSEN_SUBGROUP_TIER)) {
            String explanation = wanted.get().annotations().get(key);
            if (explanation != null) {
                after.with("metadata").with("annotations").put(key, explanation);
            }
        }
        List<JsonPatch.Operation> patch = JsonPatch.diff(before, after);
        if (!patch.isEmpty()) {
            LOG.debugf("%s: the bridge's topology fields added to an adopted PodGroup", request.describe());
        }
        return AdmissionAnswer.patch(patch, List.of());
    }
}

package io.topobridge.core.kinds.aibrix;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.expand.Controller;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * AIBrix's PodSet controller (v0.7.0, {@code createPodFromTemplate}): {@code podGroupSize} pods {@code <podset>-<i>}
 * (shortened to 63 characters) with the template's labels and annotations, the PodSet name and pod index, and every
 * label and annotation of the PodSet the template does not set, owned by the PodSet. The PodSet CRD takes sizes from 2
 * to 100.
 */
public final class PodSetController extends Controller {

    public PodSetController() {
        super(WorkloadKind.POD_SET, false);
    }

    private static long size(JsonNode spec) {
        JsonNode node = spec.get("podGroupSize");
        if (node == null || node.isNull()) {
            throw new IllegalArgumentException("spec.podGroupSize is missing: the API server refuses the PodSet");
        }
        long size = Workload.integer(node, "spec.podGroupSize", 0);
        if (size < 2 || size > RoleSetController.MAX_POD_GROUP_SIZE) {
            throw new IllegalArgumentException("spec.podGroupSize=" + size + ": the API server refuses PodSets of fewer"
                    + " than 2 or more than " + RoleSetController.MAX_POD_GROUP_SIZE + " pods");
        }
        return size;
    }

    @Override
    public void reconcile(HasMetadata podSet, Context ctx, Sink sink) {
        JsonNode spec = ctx.view(podSet).spec();
        long size = size(spec);
        Build.Template template = Build.Template.read(spec.get("template"), "spec.template");
        String ns = Build.ns(podSet);
        Set<String> present = new HashSet<>();
        for (HasMetadata pod : ctx.index.podsWith(ns, WorkloadLabels.AIBRIX_POD_SET, Build.name(podSet))) {
            if (Build.activePod(pod)) {
                present.add(Build.orEmpty(Build.labels(pod).get(Aibrix.AIBRIX_POD_GROUP_INDEX)));
            }
        }
        for (long i = 0; i < size; i++) {
            if (present.contains(String.valueOf(i))) {
                continue;
            }
            String name = RoleSetController.shorten(ctx.compose(Build.name(podSet), "-" + i), ctx);
            if (!ctx.index.has("/Pod", ns, name) && !sink.create(pod(podSet, template, name, i))) {
                return;
            }
        }
    }

    @Override
    public long weight(HasMetadata podSet, Context ctx) {
        return size(ctx.view(podSet).spec());
    }

    private static Pod pod(HasMetadata podSet, Build.Template template, String name, long index) {
        Map<String, String> labels = new LinkedHashMap<>(template.labels());
        labels.put(WorkloadLabels.AIBRIX_POD_SET, Build.name(podSet));
        labels.put(Aibrix.AIBRIX_POD_GROUP_INDEX, String.valueOf(index));
        Build.labels(podSet).forEach(labels::putIfAbsent);
        Map<String, String> annotations = new LinkedHashMap<>(template.annotations());
        Build.annotations(podSet).forEach(annotations::putIfAbsent);
        return Build.pod(
                Build.child(name, null, podSet, labels, annotations),
                template.spec(),
                name,
                Build.labels(podSet).get(WorkloadLabels.AIBRIX_STORM_SERVICE));
    }
}

package io.topobridge.core.kinds.lws;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.expand.Controller;
import io.topobridge.core.expand.Index;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * LeaderWorkerSet's pod controller (v0.9.0, {@code constructWorkerStatefulSetApplyConfiguration}): for a group's leader
 * pod {@code <lws>-<group>}, the worker StatefulSet of the same name (ordinals from 1, {@code size - 1} workers) with
 * the group index, LWS name, group key and revision of its leader, the size and leader-name annotations (and the
 * exclusive-topology, subgroup and TPU ones), owned by the leader pod. Under {@code LeaderReady} LWS makes it once the
 * leader runs; under exclusive placement once the leader is scheduled (then with a node selector render cannot know):
 * render shows the running state.
 */
public final class LeaderPodController extends Controller {

    public LeaderPodController() {
        super(null, false);
    }

    @Override
    public boolean actsOn(HasMetadata object) {
        Map<String, String> labels = Build.labels(object);
        return "/Pod".equals(Index.kindOf(object))
                && labels.containsKey(WorkloadLabels.LWS_NAME)
                && "0".equals(labels.get(WorkloadLabels.LWS_WORKER_INDEX));
    }

    @Override
    public void reconcile(HasMetadata leader, Context ctx, Sink sink) {
        lws(leader, ctx).ifPresent(lws -> sink.create(workers(leader, lws, LwsShape.of(lws, ctx))));
    }

    @Override
    public long weight(HasMetadata leader, Context ctx) {
        // the worker StatefulSet and its size - 1 workers
        return lws(leader, ctx).map(lws -> LwsShape.of(lws, ctx).size()).orElse(0L);
    }

    /** The leader's LWS when it needs a worker StatefulSet (size above 1, none yet). */
    private static Optional<HasMetadata> lws(HasMetadata leader, Context ctx) {
        String ns = Build.ns(leader);
        String mistake = Build.annotations(leader).get(LwsShape.LWS_LEADER_NAME);
        if (mistake != null && !mistake.isEmpty()) {
            return Optional.empty();
        }
        return ctx.index
                .get(
                        Index.kindOf(WorkloadKind.LEADER_WORKER_SET),
                        ns,
                        Build.labels(leader).get(WorkloadLabels.LWS_NAME))
                .filter(lws -> LwsShape.of(lws, ctx).size() != 1
                        && !ctx.index.has("apps/StatefulSet", ns, Build.name(leader)));
    }

    private static StatefulSet workers(HasMetadata leader, HasMetadata lws, LwsShape shape) {
        Map<String, String> leaderLabels = Build.labels(leader);
        String lwsName = leaderLabels.get(WorkloadLabels.LWS_NAME);
        String name = Build.name(leader);

        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(WorkloadLabels.LWS_GROUP_INDEX, Build.orEmpty(leaderLabels.get(WorkloadLabels.LWS_GROUP_INDEX)));
        labels.put(WorkloadLabels.LWS_NAME, lwsName);
        labels.put(WorkloadLabels.LWS_GROUP_KEY, Build.orEmpty(leaderLabels.get(WorkloadLabels.LWS_GROUP_KEY)));
        labels.put(WorkloadLabels.LWS_REVISION, Build.orEmpty(leaderLabels.get(WorkloadLabels.LWS_REVISION)));
        Map<String, String> selector = new LinkedHashMap<>(labels);
        selector.remove(WorkloadLabels.LWS_REVISION);

        Map<String, String> podLabels = Build.merged(shape.worker().labels(), labels);
        Map<String, String> podAnnotations = shape.podAnnotations(shape.worker(), Build.annotations(lws));
        podAnnotations.put(LwsShape.LWS_LEADER_NAME, name);
        if (Build.requests(Build.MAPPER.valueToTree(leader).path("spec"), LwsShape.TPU_RESOURCE)) {
            podAnnotations.put(LwsShape.LWS_LEADER_REQUESTS_TPUS, "true");
        }

        ObjectNode spec = Build.MAPPER.createObjectNode();
        spec.put("serviceName", LwsShape.UNIQUE_PER_REPLICA.equals(shape.subdomainPolicy()) ? name : lwsName);
        spec.put("replicas", (int) (shape.size() - 1));
        spec.put("podManagementPolicy", "Parallel");
        spec.putObject("ordinals").put("start", 1);
        spec.set("template", Build.template(shape.worker(), podLabels, podAnnotations));
        spec.putObject("selector").set("matchLabels", Build.MAPPER.valueToTree(Build.sorted(selector)));
        return Build.apps(
                StatefulSet.class,
                Build.meta(
                        name,
                        null,
                        Build.namespace(leader),
                        labels,
                        null,
                        List.of(Build.owner(Build.POD_API_VERSION, leader, true))),
                spec);
    }
}

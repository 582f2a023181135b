package io.topobridge.core.kinds.lws;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.topobridge.core.render.expand.Build;
import io.topobridge.core.render.expand.Context;
import io.topobridge.core.render.expand.Controller;
import io.topobridge.core.render.expand.Index;
import io.topobridge.core.render.expand.Keys;
import io.topobridge.core.workload.WorkloadKind;
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
public final class LeaderPodController implements Controller {

    @Override
    public boolean actsOn(HasMetadata object) {
        Map<String, String> labels = Build.labels(object);
        return "/Pod".equals(Index.kindOf(object))
                && labels.containsKey(LwsKeys.LWS_NAME)
                && "0".equals(labels.get(LwsKeys.LWS_WORKER_INDEX));
    }

    @Override
    public void reconcile(HasMetadata leader, Context ctx, Sink sink) {
        shape(leader, ctx).ifPresent(shape -> sink.create(workers(leader, shape, ctx)));
    }

    @Override
    public long weight(HasMetadata leader, Context ctx) {
        // the worker StatefulSet and its size - 1 workers
        return shape(leader, ctx).map(LwsShape::size).orElse(0L);
    }

    @Override
    public boolean divisible() {
        return false;
    }

    /** The shape of the leader's LWS when it needs a worker StatefulSet (size above 1, none yet). */
    private static Optional<LwsShape> shape(HasMetadata leader, Context ctx) {
        Map<String, String> leaderLabels = Build.labels(leader);
        String ns = Build.ns(leader);
        String lwsName = leaderLabels.get(LwsKeys.LWS_NAME);
        Optional<HasMetadata> found = ctx.index.get(
                Index.kindOf(WorkloadKind.LEADER_WORKER_SET.apiVersion(), WorkloadKind.LEADER_WORKER_SET.kind()),
                ns,
                lwsName);
        String mistake = Build.annotations(leader).get(LwsKeys.LWS_LEADER_NAME);
        if (found.isEmpty() || (mistake != null && !mistake.isEmpty())) {
            return Optional.empty();
        }
        LwsShape shape = LwsShape.of(found.get(), ctx);
        if (shape.size() == 1 || ctx.index.has("apps/StatefulSet", ns, Build.name(leader))) {
            return Optional.empty();
        }
        return Optional.of(shape);
    }

    /** The worker StatefulSet of a leader pod. */
    private static StatefulSet workers(HasMetadata leader, LwsShape shape, Context ctx) {
        Map<String, String> leaderLabels = Build.labels(leader);
        String lwsName = leaderLabels.get(LwsKeys.LWS_NAME);
        HasMetadata lws = ctx.index
                .get(
                        Index.kindOf(
                                WorkloadKind.LEADER_WORKER_SET.apiVersion(), WorkloadKind.LEADER_WORKER_SET.kind()),
                        Build.ns(leader),
                        lwsName)
                .orElseThrow();
        String name = Build.name(leader);

        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LwsKeys.LWS_GROUP_INDEX, Keys.orEmpty(leaderLabels.get(LwsKeys.LWS_GROUP_INDEX)));
        labels.put(LwsKeys.LWS_NAME, lwsName);
        labels.put(LwsKeys.LWS_GROUP_KEY, Keys.orEmpty(leaderLabels.get(LwsKeys.LWS_GROUP_KEY)));
        labels.put(LwsKeys.LWS_REVISION, Keys.orEmpty(leaderLabels.get(LwsKeys.LWS_REVISION)));
        Map<String, String> selector = new LinkedHashMap<>(labels);
        selector.remove(LwsKeys.LWS_REVISION);

        Map<String, String> podLabels = Build.merged(shape.worker().labels(), labels);
        Map<String, String> podAnnotations = new LinkedHashMap<>(shape.worker().annotations());
        podAnnotations.put(LwsKeys.LWS_SIZE, String.valueOf(shape.size()));
        podAnnotations.put(LwsKeys.LWS_LEADER_NAME, name);
        String exclusive = Build.annotations(lws).get(LwsKeys.LWS_EXCLUSIVE);
        if (exclusive != null && !exclusive.isEmpty()) {
            podAnnotations.put(LwsKeys.LWS_EXCLUSIVE, exclusive);
        }
        if (shape.subGroupSize() != null) {
            podAnnotations.put(LwsKeys.LWS_SUBGROUP_SIZE, String.valueOf(shape.subGroupSize()));
            String subExclusive = Build.annotations(lws).get(LwsKeys.LWS_SUBGROUP_EXCLUSIVE);
            if (subExclusive != null && !subExclusive.isEmpty()) {
                podAnnotations.put(LwsKeys.LWS_SUBGROUP_EXCLUSIVE, subExclusive);
            }
        }
        if (Build.requests(Build.spec(leader), LwsKeys.TPU_RESOURCE)) {
            podAnnotations.put(LwsKeys.LWS_LEADER_REQUESTS_TPUS, "true");
        }

        ObjectNode spec = Build.MAPPER.createObjectNode();
        spec.put("serviceName", LwsShape.UNIQUE_PER_REPLICA.equals(shape.subdomainPolicy()) ? name : lwsName);
        spec.put("replicas", (int) (shape.size() - 1));
        spec.put("podManagementPolicy", "Parallel");
        spec.putObject("ordinals").put("start", 1);
        spec.set("template", Build.template(shape.worker(), podLabels, podAnnotations));
        spec.putObject("selector").set("matchLabels", Build.MAPPER.valueToTree(Build.sorted(selector)));
        return Build.statefulSet(
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

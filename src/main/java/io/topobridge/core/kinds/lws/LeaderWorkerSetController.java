package io.topobridge.core.kinds.lws;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.expand.Controller;
import io.topobridge.core.expand.Names;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * LeaderWorkerSet's LWS controller (v0.9.0, {@code constructLeaderStatefulSetApplyConfiguration}): the leader
 * StatefulSet {@code <lws>} (labels {@code name} and {@code template-revision-hash}, generated here; annotation
 * {@code replicas}; Parallel, one leader per group) whose pod template is the leader template (else the worker
 * template) with {@code worker-index: "0"}, the LWS name and revision, and the size, exclusive-topology, subgroup and
 * subdomain annotations, owned by the LWS. The StatefulSet controller makes the leader pods from it.
 */
public final class LeaderWorkerSetController extends Controller {

    public LeaderWorkerSetController() {
        super(WorkloadKind.LEADER_WORKER_SET, true);
    }

    @Override
    public void reconcile(HasMetadata lws, Context ctx, Sink sink) {
        LwsShape shape = LwsShape.of(lws, ctx);
        if (ctx.index.has("apps/StatefulSet", Build.ns(lws), Build.name(lws))) {
            return;
        }
        sink.create(leaderStatefulSet(lws, shape, ctx));
    }

    @Override
    public long weight(HasMetadata lws, Context ctx) {
        return LwsShape.of(lws, ctx).weight();
    }

    /** The template revision the LWS controller records, a hash of the spec it dumps from Go (generated here). */
    public static String revision(HasMetadata lws, LwsShape shape, Context ctx) {
        String seed = Build.ns(lws) + "/" + Build.name(lws) + "/" + Names.canonical(shape.networkConfig()) + "/"
                + Names.canonical(shape.leaderWorkerTemplate());
        return ctx.compose(ctx.token(Names.hash(seed), Names.HASH_PATTERN, "LeaderWorkerSet template-revision-hash"));
    }

    private static StatefulSet leaderStatefulSet(HasMetadata lws, LwsShape shape, Context ctx) {
        String name = Build.name(lws);
        String revision = revision(lws, shape, ctx);
        Build.Template template = shape.leaderOrWorker();

        Map<String, String> podLabels = new LinkedHashMap<>(template.labels());
        podLabels.put(WorkloadLabels.LWS_WORKER_INDEX, "0");
        podLabels.put(WorkloadLabels.LWS_NAME, name);
        podLabels.put(WorkloadLabels.LWS_REVISION, revision);
        Map<String, String> podAnnotations = shape.podAnnotations(template, Build.annotations(lws));
        if (shape.subGroupSize() != null) {
            podAnnotations.put(LwsShape.LWS_SUBGROUP_POLICY_TYPE, shape.subGroupType());
        }
        if (LwsShape.UNIQUE_PER_REPLICA.equals(shape.subdomainPolicy())) {
            podAnnotations.put(LwsShape.LWS_SUBDOMAIN_POLICY, LwsShape.UNIQUE_PER_REPLICA);
        }

        ObjectNode spec = Build.MAPPER.createObjectNode();
        spec.put("serviceName", name);
        spec.put("replicas", (int) shape.replicas());
        spec.put("podManagementPolicy", "Parallel");
        spec.set("template", Build.template(template, podLabels, podAnnotations));
        ObjectNode strategy = spec.putObject("updateStrategy");
        strategy.put("type", shape.rolloutType());
        ObjectNode rolling = strategy.putObject("rollingUpdate");
        rolling.put("maxUnavailable", (int) Math.min(
                Integer.MAX_VALUE, Math.max(1, shape.maxUnavailable() + Math.min(shape.maxSurge(), shape.replicas()))));
        rolling.put("partition", (int) shape.partition());
        ObjectNode selector = spec.putObject("selector").putObject("matchLabels");
        selector.put(WorkloadLabels.LWS_NAME, name);
        selector.put(WorkloadLabels.LWS_WORKER_INDEX, "0");

        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(WorkloadLabels.LWS_NAME, name);
        labels.put(WorkloadLabels.LWS_REVISION, revision);
        return Build.apps(
                StatefulSet.class,
                Build.child(name, null, lws, labels, Map.of(LwsShape.LWS_REPLICAS, String.valueOf(shape.replicas()))),
                spec);
    }
}

package io.topobridge.core.kinds.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.expand.Controller;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.kind.Workload;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Kubernetes' ReplicaSet controller (v1.35, {@code GetPodFromTemplate}): pods named by {@code generateName}
 * {@code <replicaset>-} (the API server keeps 58 characters of it and adds five random ones, generated here), with the
 * template's labels and annotations, owned by the ReplicaSet. Pods it already has count, and so do pods its selector
 * matches that no controller owns (it adopts them).
 */
public final class ReplicaSetController extends Controller {

    public ReplicaSetController() {
        super(WorkloadKind.REPLICA_SET, true);
    }

    @Override
    public void reconcile(HasMetadata rs, Context ctx, Sink sink) {
        JsonNode spec = ctx.view(rs).spec();
        long replicas = Workload.integer(spec.get("replicas"), "spec.replicas", 1);
        Build.Selector selector = Build.Selector.read(spec.get("selector"), "spec.selector", false);
        Build.Template template = Build.Template.read(spec.get("template"), "spec.template");
        String ns = Build.ns(rs);
        long have = 0;
        for (HasMetadata pod : ctx.index.list("/Pod", ns)) {
            if (!Build.activePod(pod)) {
                continue;
            }
            Optional<OwnerReference> owner = Workload.controller(pod.getMetadata());
            boolean ours = owner.map(o ->
                            "ReplicaSet".equals(o.getKind()) && Build.name(rs).equals(o.getName()))
                    .orElse(false);
            if (ours || (owner.isEmpty() && selector.matches(Build.labels(pod)))) {
                have++;
            }
        }
        String prefix = ctx.compose(Build.name(rs), "-");
        AtomicInteger attempts = new AtomicInteger();
        for (long i = have; i < replicas; i++) {
            String seed = ns + "/" + Build.name(rs) + "/" + i;
            String name = ctx.generateName(prefix, "/Pod", ns, seed, attempts, "pod name suffixes");
            var pod = Build.pod(
                    Build.child(name, prefix, rs, template.labels(), template.annotations()),
                    template.spec(),
                    null,
                    null);
            if (!sink.create(pod)) {
                return;
            }
        }
    }

    @Override
    public long weight(HasMetadata rs, Context ctx) {
        JsonNode spec = ctx.view(rs).spec();
        return Workload.integer(spec.get("replicas"), "spec.replicas", 1);
    }
}

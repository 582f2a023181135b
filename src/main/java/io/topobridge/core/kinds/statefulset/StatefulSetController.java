package io.topobridge.core.kinds.statefulset;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.expand.Controller;
import io.topobridge.core.expand.Names;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.kind.Workload;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kubernetes' StatefulSet controller (v1.35, {@code newStatefulSetPod}): pods {@code <sts>-<ordinal>} for the ordinals
 * from {@code spec.ordinals.start}, with the template's labels and annotations, {@code statefulset.kubernetes.io/pod-name},
 * {@code apps.kubernetes.io/pod-index} and {@code controller-revision-hash} ({@code <sts>-<hash>}, generated here),
 * hostname and subdomain, owned by the StatefulSet. An OrderedReady set makes them one after another; render shows
 * them all.
 */
public final class StatefulSetController extends Controller {

    private static final String STS_POD_NAME = "statefulset.kubernetes.io/pod-name";
    private static final String POD_INDEX = "apps.kubernetes.io/pod-index";
    private static final String STS_REVISION = "controller-revision-hash";

    /** What the controller reads of a StatefulSet. */
    public record Shape(long replicas, long start, Build.Template template, String serviceName) {
        static Shape of(JsonNode spec) {
            long replicas = Workload.integer(spec.get("replicas"), "spec.replicas", 1);
            JsonNode ordinals = Workload.object(spec.get("ordinals"), "spec.ordinals");
            long start = Workload.integer(ordinals.get("start"), "spec.ordinals.start", 0);
            return new Shape(
                    replicas,
                    start,
                    Build.Template.read(spec.get("template"), "spec.template"),
                    Workload.text(spec.get("serviceName"), "spec.serviceName", ""));
        }
    }

    public StatefulSetController() {
        super(WorkloadKind.STATEFUL_SET, true);
    }

    @Override
    public void reconcile(HasMetadata sts, Context ctx, Sink sink) {
        Shape shape = ctx.view(sts).memo("sts", () -> Shape.of(ctx.view(sts).spec()));
        String revision = revision(sts, shape, ctx);
        for (long i = 0; i < shape.replicas(); i++) {
            long ordinal = shape.start() + i;
            String name = ctx.compose(Build.name(sts), "-" + ordinal);
            if (!ctx.index.has("/Pod", Build.ns(sts), name) && !sink.create(pod(sts, shape, name, ordinal, revision))) {
                return;
            }
        }
    }

    @Override
    public long weight(HasMetadata sts, Context ctx) {
        Shape shape = ctx.view(sts).memo("sts", () -> Shape.of(ctx.view(sts).spec()));
        if (shape.replicas() == 0) {
            return 0;
        }
        // what the controllers of its pods make: a pod with the template's metadata tells (its spec does not matter)
        Pod sample = Build.pod(
                Build.child(
                        ctx.compose(Build.name(sts), "-" + shape.start()),
                        null,
                        sts,
                        shape.template().labels(),
                        shape.template().annotations()),
                null,
                null,
                null);
        return Build.times(shape.replicas(), Build.add(1, ctx.weight(sample)));
    }

    /** {@code <sts>-<hash>}: the ControllerRevision's name, a hash of the template the controller dumps from Go. */
    private static String revision(HasMetadata sts, Shape shape, Context ctx) {
        String name = Build.name(sts);
        String prefix = name.length() > 223 ? ctx.cut(name, 0, 223) : name;
        String seed = Build.ns(sts) + "/" + name + "/"
                + Names.canonical(shape.template().tree());
        return ctx.compose(
                prefix, "-", ctx.token(Names.hash(seed), Names.HASH_PATTERN, "StatefulSet controller-revision-hash"));
    }

    private static Pod pod(HasMetadata sts, Shape shape, String name, long ordinal, String revision) {
        Map<String, String> labels = new LinkedHashMap<>(shape.template().labels());
        labels.put(STS_POD_NAME, name);
        labels.put(POD_INDEX, String.valueOf(ordinal));
        labels.put(STS_REVISION, revision);
        return Build.pod(
                Build.child(name, null, sts, labels, shape.template().annotations()),
                shape.template().spec(),
                name,
                shape.serviceName());
    }
}

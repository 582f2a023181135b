package io.topobridge.core.kinds.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.expand.Controller;
import io.topobridge.core.expand.ExpansionReason;
import io.topobridge.core.expand.Names;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Kubernetes' Deployment controller (v1.35, {@code getNewReplicaSet}) for a new Deployment: ReplicaSet
 * {@code <deployment>-<pod-template-hash>} (the hash of the template dumped from Go, generated here; the name of the
 * ReplicaSet the input's pods name when they name one), labelled and selecting with {@code pod-template-hash}, with
 * the Deployment's annotations (but the kubectl and revision ones), {@code deployment.kubernetes.io/revision: "1"},
 * {@code desired-replicas} and {@code max-replicas} ({@code replicas + maxSurge}), owned by the Deployment. A paused
 * Deployment gets none.
 */
public final class DeploymentController extends Controller {

    private static final String DEPLOYMENT_REVISION = "deployment.kubernetes.io/revision";
    private static final String DEPLOYMENT_REVISION_HISTORY = "deployment.kubernetes.io/revision-history";
    private static final String DEPLOYMENT_DESIRED = "deployment.kubernetes.io/desired-replicas";
    private static final String DEPLOYMENT_MAX = "deployment.kubernetes.io/max-replicas";
    private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
    private static final String DEPRECATED_ROLLBACK_TO = "deprecated.deployment.rollback.to";

    private static final Set<String> NOT_COPIED = Set.of(
            LAST_APPLIED,
            DEPLOYMENT_REVISION,
            DEPLOYMENT_REVISION_HISTORY,
            DEPLOYMENT_DESIRED,
            DEPLOYMENT_MAX,
            DEPRECATED_ROLLBACK_TO);

    public DeploymentController() {
        super(WorkloadKind.DEPLOYMENT, true);
    }

    @Override
    public void reconcile(HasMetadata deployment, Context ctx, Sink sink) {
        JsonNode spec = ctx.view(deployment).spec();
        if (spec.path("paused").asBoolean(false)) {
            ctx.note(
                    Severity.INFO,
                    ExpansionReason.NOTHING_TO_MAKE,
                    deployment,
                    "spec.paused: the Deployment controller makes no ReplicaSet for a paused Deployment");
            return;
        }
        // once the Deployment has its ReplicaSet, the ReplicaSet controller makes its pods
        boolean made = ctx.index.list("apps/ReplicaSet", Build.ns(deployment)).stream()
                .anyMatch(rs -> Build.live(rs)
                        && Workload.controller(rs.getMetadata())
                                .filter(o -> "Deployment".equals(o.getKind())
                                        && Build.name(deployment).equals(o.getName()))
                                .isPresent());
        if (!made) {
            sink.create(replicaSet(deployment, spec, ctx));
        }
    }

    @Override
    public long weight(HasMetadata deployment, Context ctx) {
        JsonNode spec = ctx.view(deployment).spec();
        return spec.path("paused").asBoolean(false)
                ? 0
                : Build.add(1, Workload.integer(spec.get("replicas"), "spec.replicas", 1));
    }

    private static ReplicaSet replicaSet(HasMetadata deployment, JsonNode spec, Context ctx) {
        long replicas = Workload.integer(spec.get("replicas"), "spec.replicas", 1);
        Build.Selector selector = Build.Selector.read(spec.get("selector"), "spec.selector", false);
        Build.Template template = Build.Template.read(spec.get("template"), "spec.template");
        String hash = referencedHash(deployment, selector, ctx)
                .orElseGet(() -> ctx.compose(ctx.token(
                        Names.hash(Build.ns(deployment) + "/" + Build.name(deployment) + "/"
                                + Names.canonical(template.tree())),
                        Names.HASH_PATTERN,
                        "ReplicaSet pod-template-hash")));
        String deploymentName = Build.name(deployment);
        int max = 253 - 1 - hash.length();
        String name = ctx.compose(
                deploymentName.length() > max && max > 0 ? deploymentName.substring(0, max) : deploymentName,
                "-",
                hash);

        Map<String, String> labels = new LinkedHashMap<>(template.labels());
        labels.put(WorkloadLabels.POD_TEMPLATE_HASH, hash);
        Map<String, String> annotations = new LinkedHashMap<>(Build.annotations(deployment));
        annotations.keySet().removeAll(NOT_COPIED);
        annotations.put(DEPLOYMENT_REVISION, "1");
        annotations.put(DEPLOYMENT_DESIRED, String.valueOf(replicas));
        annotations.put(DEPLOYMENT_MAX, String.valueOf(Build.add(replicas, maxSurge(spec, replicas))));

        ObjectNode rsSpec = Build.MAPPER.createObjectNode();
        rsSpec.put("replicas", (int) replicas);
        if (spec.has("minReadySeconds")) {
            rsSpec.set("minReadySeconds", spec.get("minReadySeconds"));
        }
        ObjectNode rsSelector = Build.copy(spec.get("selector"));
        Build.objectAt(rsSelector, "matchLabels").put(WorkloadLabels.POD_TEMPLATE_HASH, hash);
        rsSpec.set("selector", rsSelector);
        rsSpec.set("template", Build.template(template, labels, null));
        return Build.apps(ReplicaSet.class, Build.child(name, null, deployment, labels, annotations), rsSpec);
    }

    /** {@code maxSurge} of a RollingUpdate Deployment (25% by default), 0 for Recreate. */
    private static long maxSurge(JsonNode spec, long replicas) {
        JsonNode strategy = Workload.object(spec.get("strategy"), "spec.strategy");
        String type = Workload.text(strategy.get("type"), "spec.strategy.type", "RollingUpdate");
        if (!"RollingUpdate".equals(type)) {
            return 0;
        }
        JsonNode rolling = Workload.object(strategy.get("rollingUpdate"), "spec.strategy.rollingUpdate");
        long surge =
                Build.scaled(rolling.get("maxSurge"), "spec.strategy.rollingUpdate.maxSurge", replicas, true, "25%");
        // validated alongside: a percentage or a count
        Build.scaled(
                rolling.get("maxUnavailable"), "spec.strategy.rollingUpdate.maxUnavailable", replicas, false, "25%");
        return surge;
    }

    /**
     * The {@code pod-template-hash} of the ReplicaSet the input's pods already name (hand-written pods of this
     * Deployment): render then makes that ReplicaSet, not a second one.
     */
    private static Optional<String> referencedHash(HasMetadata deployment, Build.Selector selector, Context ctx) {
        String prefix = Build.name(deployment) + "-";
        return ctx.index.list("/Pod", Build.ns(deployment)).stream()
                .flatMap(pod -> Workload.controller(pod.getMetadata())
                        .filter(o -> "ReplicaSet".equals(o.getKind())
                                && o.getName() != null
                                && o.getName().startsWith(prefix)
                                && o.getName().length() != prefix.length()
                                && selector.matches(Build.labels(pod)))
                        .stream())
                .findFirst()
                .map(o -> o.getName().substring(prefix.length()));
    }
}

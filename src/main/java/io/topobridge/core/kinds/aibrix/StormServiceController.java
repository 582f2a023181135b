package io.topobridge.core.kinds.aibrix;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.expand.Controller;
import io.topobridge.core.expand.ExpansionReason;
import io.topobridge.core.expand.Index;
import io.topobridge.core.expand.Names;
import io.topobridge.core.finding.Severity;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * AIBrix's StormService controller (v0.7.0, {@code scaling} and {@code renderRoleSet}) for a new StormService: the
 * RoleSets it lacks, named by {@code generateName} {@code <storm>-roleset-} (five random characters, generated here),
 * with the template's labels and annotations, {@code storm-service-name}, the revision ({@code <storm>-<hash>} of the
 * template dumped from Go, generated here, as label, annotation and per-role annotation with revision number 1) and
 * {@code roleset-index}, owned by the StormService. As in AIBrix, the RoleSets it counts are those its selector
 * matches in any namespace, an unset {@code replicas} makes none, and the RoleSets of one pass are indexed from 0.
 */
public final class StormServiceController extends Controller {

    static final String ROLE_SET_KIND = Index.kindOf(WorkloadKind.ROLE_SET);
    static final String POD_SET_KIND = Index.kindOf(WorkloadKind.POD_SET);

    /** What AIBrix reads of a StormService. */
    private record Shape(
            long replicas,
            boolean replicasSet,
            Build.Selector selector,
            Map<String, String> labels,
            Map<String, String> annotations,
            JsonNode template,
            JsonNode roleSetSpec,
            List<String> roles,
            long maxSurge) {

        static Shape of(JsonNode spec) {
            JsonNode replicasNode = spec.get("replicas");
            boolean replicasSet = replicasNode != null && !replicasNode.isNull();
            long replicas = Workload.integer(replicasNode, "spec.replicas", 0);
            Build.Selector selector = Build.Selector.read(spec.get("selector"), "spec.selector", true);
            JsonNode template = Workload.object(spec.get("template"), "spec.template");
            JsonNode metadata = Workload.object(template.get("metadata"), "spec.template.metadata");
            JsonNode roleSetSpec = Workload.object(template.get("spec"), "spec.template.spec");
            if (roleSetSpec.isMissingNode()) {
                throw new IllegalArgumentException("spec.template.spec is missing: AIBrix makes no RoleSet");
            }
            List<String> roles = Build.each(
                    roleSetSpec.get("roles"),
                    "spec.template.spec.roles",
                    (role, at) -> Workload.text(role.get("name"), at + ".name", ""));
            JsonNode strategy = Workload.object(spec.get("updateStrategy"), "spec.updateStrategy");
            String type = Workload.text(strategy.get("type"), "spec.updateStrategy.type", "");
            long maxSurge = 0;
            if ((type.isEmpty() || "RollingUpdate".equals(type)) && replicas > 0) {
                maxSurge = Build.scaled(strategy.get("maxSurge"), "spec.updateStrategy.maxSurge", replicas, true, "0");
                Build.scaled(
                        strategy.get("maxUnavailable"), "spec.updateStrategy.maxUnavailable", replicas, false, "0");
            }
            return new Shape(
                    replicas,
                    replicasSet,
                    selector,
                    Workload.strings(metadata.get("labels"), "spec.template.metadata.labels"),
                    Workload.strings(metadata.get("annotations"), "spec.template.metadata.annotations"),
                    template,
                    roleSetSpec,
                    roles,
                    maxSurge);
        }
    }

    public StormServiceController() {
        super(WorkloadKind.STORM_SERVICE, true);
    }

    @Override
    public void reconcile(HasMetadata storm, Context ctx, Sink sink) {
        Shape shape =
                ctx.view(storm).memo("storm", () -> Shape.of(ctx.view(storm).spec()));
        if (!shape.replicasSet()) {
            ctx.note(
                    Severity.INFO,
                    ExpansionReason.NOTHING_TO_MAKE,
                    storm,
                    "spec.replicas is not set: AIBrix v0.7.0 reads it as 0 and makes no RoleSet");
            return;
        }
        if (!shape.selector().matches(shape.labels())) {
            throw new IllegalArgumentException(
                    "the labels of spec.template.metadata do not match spec.selector: AIBrix makes no RoleSet");
        }
        long all = 0;
        long active = 0;
        for (HasMetadata roleSet : ctx.index.listAll(ROLE_SET_KIND)) {
            if (shape.selector().matches(Build.labels(roleSet))) {
                all++;
                active += Build.live(roleSet) ? 1 : 0;
            }
        }
        long toMake = Math.min(shape.replicas() - active, shape.replicas() + shape.maxSurge() - all);
        if (toMake <= 0) {
            return;
        }
        String revision = revision(storm, shape, ctx);
        long made = 0;
        for (var referenced : referenced(storm, ctx).entrySet()) {
            if (made >= toMake
                    || !sink.create(roleSet(storm, shape, referenced.getKey(), referenced.getValue(), revision))) {
                return;
            }
            made++;
        }
        for (long i = 0; made < toMake; i++, made++) {
            if (!sink.create(roleSet(storm, shape, generatedName(storm, i, ctx), String.valueOf(i), revision))) {
                return;
            }
        }
    }

    @Override
    public long weight(HasMetadata storm, Context ctx) {
        Shape shape = Shape.of(ctx.view(storm).spec());
        if (!shape.replicasSet() || shape.replicas() == 0 || !shape.selector().matches(shape.labels())) {
            return 0;
        }
        HasMetadata sample = roleSet(storm, shape, generatedName(storm, 0, ctx), "0", revision(storm, shape, ctx));
        return Build.times(shape.replicas(), Build.add(1, ctx.weight(sample)));
    }

    /**
     * The revision name: the StormService's {@code status.updateRevision} when it has one (an object read from a
     * cluster), else {@code <storm>-<hash>} generated.
     */
    private static String revision(HasMetadata storm, Shape shape, Context ctx) {
        JsonNode status = Build.MAPPER.valueToTree(storm).path("status");
        String known = status.path("updateRevision").isTextual()
                ? status.path("updateRevision").asText()
                : "";
        if (!known.isEmpty()) {
            return known;
        }
        String name = Build.name(storm);
        String seed = Build.ns(storm) + "/" + name + "/" + Names.canonical(shape.template());
        return ctx.compose(
                name.length() > 223 ? ctx.cut(name, 0, 223) : name,
                "-",
                ctx.token(Names.hash(seed), Names.HASH_PATTERN, "StormService revision"));
    }

    /** {@code <storm>-roleset-} cut as AIBrix and the API server cut it, and five characters generated here. */
    private static String generatedName(HasMetadata storm, long index, Context ctx) {
        return ctx.generateName(
                ctx.compose(Build.name(storm), "-roleset-"),
                ROLE_SET_KIND,
                Build.ns(storm),
                Build.ns(storm) + "/" + Build.name(storm) + "/roleset/" + index,
                new AtomicInteger(),
                "RoleSet name suffixes");
    }

    /**
     * RoleSets the input's pods or PodSets name (labelled with this StormService) that the input does not hold, with
     * the index those pods carry: render makes them under that name, not others beside them.
     */
    private static Map<String, String> referenced(HasMetadata storm, Context ctx) {
        Map<String, String> out = new TreeMap<>();
        String ns = Build.ns(storm);
        List<HasMetadata> candidates =
                new ArrayList<>(ctx.index.podsWith(ns, WorkloadLabels.AIBRIX_STORM_SERVICE, Build.name(storm)));
        for (HasMetadata podSet : ctx.index.list(POD_SET_KIND, ns)) {
            if (Build.name(storm).equals(Build.labels(podSet).get(WorkloadLabels.AIBRIX_STORM_SERVICE))) {
                candidates.add(podSet);
            }
        }
        for (HasMetadata object : candidates) {
            String roleSet = Build.labels(object).get(WorkloadLabels.AIBRIX_ROLE_SET);
            if (roleSet == null || roleSet.isEmpty() || ctx.index.has(ROLE_SET_KIND, ns, roleSet)) {
                continue;
            }
            String index = Build.annotations(object).get(Aibrix.AIBRIX_ROLE_SET_INDEX);
            out.putIfAbsent(roleSet, index == null ? "0" : index);
        }
        return out;
    }

    private static HasMetadata roleSet(HasMetadata storm, Shape shape, String name, String index, String revision) {
        Map<String, String> labels = new LinkedHashMap<>(shape.labels());
        labels.put(WorkloadLabels.AIBRIX_STORM_SERVICE, Build.name(storm));
        labels.put(Aibrix.AIBRIX_REVISION_LABEL, revision);
        Map<String, String> annotations = new LinkedHashMap<>(shape.annotations());
        annotations.put(Aibrix.AIBRIX_REVISION_ANNOTATION, revision);
        for (String role : shape.roles()) {
            annotations.put(Aibrix.AIBRIX_ROLE_REVISION + "." + role, "1");
            annotations.put(Aibrix.AIBRIX_ROLE_REVISION_NAME + "." + role, revision);
        }
        annotations.put(Aibrix.AIBRIX_ROLE_SET_INDEX, index);
        return Build.custom(
                WorkloadKind.ROLE_SET, Build.child(name, null, storm, labels, annotations), shape.roleSetSpec());
    }
}

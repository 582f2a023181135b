package io.topobridge.core.kinds.aibrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.expand.Build;
import io.topobridge.core.expand.Context;
import io.topobridge.core.expand.Controller;
import io.topobridge.core.expand.Names;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.kind.Workload;
import io.topobridge.core.workload.kind.WorkloadLabels;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * AIBrix's RoleSet controller (v0.7.0, the role syncers' {@code Scale}) for every role in order: a role with
 * {@code podGroupSize > 1} gets a PodSet per replica ({@code <roleset>-<role>-<hash>-<i>}, shortened to 63
 * characters), a stateful role a pod per replica ({@code <roleset>-<role>-<hash>-<i>}), a stateless one pods named by
 * {@code generateName} {@code <roleset>-<role>-}; all with AIBrix's labels (roleset and role names, the role template
 * hash, generated here, the StormService name, the replica index, the scheduling strategy's PodGroup name, the role
 * revision) and annotations (RoleSet index, replica index, PodGroup name), owned by the RoleSet. A role whose pods the
 * API server would refuse stops the pass there, as in AIBrix.
 */
public final class RoleSetController extends Controller {

    /** The PodSet CRD's limit on {@code podGroupSize}. */
    static final long MAX_POD_GROUP_SIZE = 100;

    /** What AIBrix reads of one role. */
    public record Role(
            String name,
            long replicas,
            long podGroupSize,
            boolean stateful,
            JsonNode templateNode,
            JsonNode strategy,
            JsonNode updateStrategy,
            String at) {

        boolean podSets() {
            return podGroupSize > 1;
        }

        Build.Template template() {
            return Build.Template.read(templateNode, at + ".template");
        }
    }

    public static List<Role> roles(JsonNode spec) {
        return Build.each(
                spec.get("roles"),
                "spec.roles",
                (role, at) -> new Role(
                        Workload.text(role.get("name"), at + ".name", ""),
                        Workload.integer(role.get("replicas"), at + ".replicas", 0),
                        Workload.integer(role.get("podGroupSize"), at + ".podGroupSize", 1),
                        role.path("stateful").asBoolean(false),
                        role.get("template"),
                        Workload.object(role.get("schedulingStrategy"), at + ".schedulingStrategy"),
                        Workload.object(role.get("updateStrategy"), at + ".updateStrategy"),
                        at));
    }

    public RoleSetController() {
        super(WorkloadKind.ROLE_SET, false);
    }

    @Override
    public void reconcile(HasMetadata roleSet, Context ctx, Sink sink) {
        JsonNode spec = ctx.view(roleSet).spec();
        JsonNode strategy = Workload.object(spec.get("schedulingStrategy"), "spec.schedulingStrategy");
        for (Role role : ctx.view(roleSet).memo("roles", () -> roles(spec))) {
            if (role.replicas() == 0) {
                continue;
            }
            boolean more = role.podSets()
                    ? podSets(roleSet, role, strategy, ctx, sink)
                    : role.stateful()
                            ? statefulPods(roleSet, role, strategy, ctx, sink)
                            : statelessPods(roleSet, role, strategy, ctx, sink);
            if (!more) {
                return;
            }
        }
    }

    @Override
    public long weight(HasMetadata roleSet, Context ctx) {
        JsonNode spec = ctx.view(roleSet).spec();
        // per replica a PodSet and its pods, or a pod
        long sum = 0;
        for (Role role : ctx.view(roleSet).memo("roles", () -> roles(spec))) {
            sum = Build.add(
                    sum,
                    role.podSets() ? Build.times(role.replicas(), Build.add(1, role.podGroupSize())) : role.replicas());
        }
        return sum;
    }

    /** AIBrix's {@code role-template-hash}: a hash of the role's pod template dumped from Go (generated here). */
    private static String templateHash(HasMetadata roleSet, Role role, Context ctx) {
        String seed = Build.ns(roleSet) + "/" + Build.name(roleSet) + "/" + role.name() + "/"
                + Names.canonical(role.templateNode());
        return ctx.compose(ctx.token(Names.shortHash(seed), Names.SHORT_HASH_PATTERN, "AIBrix role-template-hash"));
    }

    // ---------------------------------------------------------------- PodSets

    private static boolean podSets(
            HasMetadata roleSet, Role role, JsonNode rsStrategy, Context ctx, Controller.Sink sink) {
        if (role.podGroupSize() > MAX_POD_GROUP_SIZE) {
            throw new IllegalArgumentException(role.at() + ".podGroupSize=" + role.podGroupSize()
                    + ": the API server refuses PodSets of more than " + MAX_POD_GROUP_SIZE + " pods");
        }
        Build.Template template = role.template();
        String ns = Build.ns(roleSet);
        Map<Long, String> slots = new HashMap<>();
        for (HasMetadata podSet : ctx.index.list(StormServiceController.POD_SET_KIND, ns)) {
            Map<String, String> labels = Build.labels(podSet);
            if (Build.live(podSet)
                    && Build.name(roleSet).equals(labels.get(WorkloadLabels.AIBRIX_ROLE_SET))
                    && role.name().equals(labels.get(WorkloadLabels.AIBRIX_ROLE))) {
                slots.putIfAbsent(index(labels.get(Aibrix.AIBRIX_ROLE_REPLICA_INDEX)), Build.name(podSet));
            }
        }
        // PodSets the input's pods name (hand-written pods of this role): made under that name
        Map<Long, String> referenced = new HashMap<>();
        for (HasMetadata pod : ctx.index.podsWith(ns, WorkloadLabels.AIBRIX_ROLE_SET, Build.name(roleSet))) {
            Map<String, String> labels = Build.labels(pod);
            String podSet = labels.get(WorkloadLabels.AIBRIX_POD_SET);
            if (role.name().equals(labels.get(WorkloadLabels.AIBRIX_ROLE)) && podSet != null && !podSet.isEmpty()) {
                referenced.putIfAbsent(index(labels.get(Aibrix.AIBRIX_ROLE_REPLICA_INDEX)), podSet);
            }
        }
        String hash = templateHash(roleSet, role, ctx);
        for (long i = 0; i < role.replicas(); i++) {
            if (slots.containsKey(i)) {
                continue;
            }
            String name = referenced.get(i);
            if (name == null || ctx.index.has(StormServiceController.POD_SET_KIND, ns, name)) {
                name = shorten(ctx.compose(Build.name(roleSet), "-" + role.name() + "-", hash, "-" + i), ctx);
            }
            if (!sink.create(podSet(roleSet, role, rsStrategy, template, name, hash, i))) {
                return false;
            }
        }
        return true;
    }

    /** AIBrix's {@code Shorten(name, false, false)}: a name of 63 or more keeps its first and last 62 characters. */
    static String shorten(String name, Context ctx) {
        if (name.length() < 63) {
            return name;
        }
        return ctx.compose(ctx.cut(name, 0, 1), ctx.cut(name, name.length() - 62, name.length()));
    }

    private static long index(String value) {
        try {
            return value == null ? -1 : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static HasMetadata podSet(
            HasMetadata roleSet,
            Role role,
            JsonNode rsStrategy,
            Build.Template template,
            String name,
            String hash,
            long i) {
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        roleKeys(roleSet, role, hash, i, labels, annotations);
        strategyKeys(rsStrategy, Build.name(roleSet), labels, annotations);
        strategyKeys(role.strategy(), name, labels, annotations);

        ObjectNode spec = Build.MAPPER.createObjectNode();
        spec.put("podGroupSize", (int) role.podGroupSize());
        spec.set("template", Build.copy(template.tree()));
        if (role.stateful()) {
            spec.put("stateful", true);
        }
        if (!role.strategy().isMissingNode()) {
            spec.set("schedulingStrategy", role.strategy());
        }
        return Build.custom(WorkloadKind.POD_SET, Build.child(name, null, roleSet, labels, annotations), spec);
    }

    /**
     * The keys AIBrix puts on what a RoleSet makes for a role: the RoleSet, role, template hash and StormService
     * labels, the RoleSet index annotation and, for a replica with an index ({@code index} 0 or more), that index as
     * label and annotation.
     */
    private static void roleKeys(
            HasMetadata roleSet,
            Role role,
            String hash,
            long index,
            Map<String, String> labels,
            Map<String, String> annotations) {
        labels.put(WorkloadLabels.AIBRIX_ROLE_SET, Build.name(roleSet));
        labels.put(WorkloadLabels.AIBRIX_ROLE, role.name());
        labels.put(Aibrix.AIBRIX_TEMPLATE_HASH, hash);
        labels.put(
                WorkloadLabels.AIBRIX_STORM_SERVICE,
                Build.orEmpty(Build.labels(roleSet).get(WorkloadLabels.AIBRIX_STORM_SERVICE)));
        annotations.put(
                Aibrix.AIBRIX_ROLE_SET_INDEX,
                Build.orEmpty(Build.annotations(roleSet).get(Aibrix.AIBRIX_ROLE_SET_INDEX)));
        if (index >= 0) {
            labels.put(Aibrix.AIBRIX_ROLE_REPLICA_INDEX, String.valueOf(index));
            annotations.put(Aibrix.AIBRIX_ROLE_REPLICA_INDEX, String.valueOf(index));
        }
    }

    /**
     * The PodGroup name a PodSet or pod carries for a scheduling strategy (coscheduling: a label; Godel, Volcano: both).
     */
    private static void strategyKeys(
            JsonNode strategy, String podGroup, Map<String, String> labels, Map<String, String> annotations) {
        if (has(strategy, "coschedulingSchedulingStrategy")) {
            labels.put(Aibrix.COSCHEDULING_POD_GROUP, podGroup);
        }
        if (has(strategy, "godelSchedulingStrategy")) {
            annotations.put(Aibrix.GODEL_POD_GROUP, podGroup);
            labels.put(Aibrix.GODEL_POD_GROUP, podGroup);
        }
        if (has(strategy, "volcanoSchedulingStrategy")) {
            annotations.put(Aibrix.VOLCANO_POD_GROUP, podGroup);
            labels.put(Aibrix.VOLCANO_POD_GROUP, podGroup);
        }
    }

    private static boolean has(JsonNode strategy, String field) {
        JsonNode node = strategy.get(field);
        return node != null && !node.isNull();
    }

    // ---------------------------------------------------------------- pods

    private static boolean statefulPods(
            HasMetadata roleSet, Role role, JsonNode rsStrategy, Context ctx, Controller.Sink sink) {
        Build.Template template = role.template();
        String ns = Build.ns(roleSet);
        Map<Long, Boolean> slots = new HashMap<>();
        for (HasMetadata pod : rolePods(roleSet, role, ctx)) {
            if (Build.activePod(pod)) {
                slots.put(index(Build.annotations(pod).get(Aibrix.AIBRIX_ROLE_REPLICA_INDEX)), true);
            }
        }
        String hash = templateHash(roleSet, role, ctx);
        for (long i = 0; i < role.replicas(); i++) {
            if (slots.containsKey(i)) {
                continue;
            }
            String name = ctx.compose(Build.name(roleSet), "-" + role.name() + "-", hash, "-" + i);
            if (name.length() > 63) {
                throw new IllegalArgumentException("pod " + name + " of role " + role.name()
                        + " would have a hostname longer than 63 characters, which the API server refuses");
            }
            if (!ctx.index.has("/Pod", ns, name)
                    && !sink.create(pod(roleSet, role, rsStrategy, template, name, null, hash, i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean statelessPods(
            HasMetadata roleSet, Role role, JsonNode rsStrategy, Context ctx, Controller.Sink sink) {
        Build.Template template = role.template();
        String ns = Build.ns(roleSet);
        long active = 0;
        long terminating = 0;
        for (HasMetadata pod : rolePods(roleSet, role, ctx)) {
            if (Build.activePod(pod)) {
                active++;
            } else if (!Build.live(pod)) {
                terminating++;
            }
        }
        long surge = Build.scaled(
                role.updateStrategy().get("maxSurge"),
                role.at() + ".updateStrategy.maxSurge",
                role.replicas(),
                true,
                "0");
        long budget = Math.min(role.replicas() - active, role.replicas() + surge - active - terminating);
        String hash = templateHash(roleSet, role, ctx);
        String prefix = ctx.compose(Build.name(roleSet), "-" + role.name() + "-");
        AtomicInteger attempts = new AtomicInteger();
        for (long i = 0; i < budget; i++) {
            String seed = ns + "/" + Build.name(roleSet) + "/" + role.name() + "/" + i;
            String name = ctx.generateName(prefix, "/Pod", ns, seed, attempts, "pod name suffixes");
            if (!sink.create(pod(roleSet, role, rsStrategy, template, name, prefix, hash, -1))) {
                return false;
            }
        }
        return true;
    }

    private static List<HasMetadata> rolePods(HasMetadata roleSet, Role role, Context ctx) {
        return ctx.index.podsWith(
                Build.ns(roleSet),
                Map.of(WorkloadLabels.AIBRIX_ROLE_SET, Build.name(roleSet), WorkloadLabels.AIBRIX_ROLE, role.name()));
    }

    /** A pod as {@code renderStormServicePod} makes it; {@code index} -1 for a stateless role. */
    private static Pod pod(
            HasMetadata roleSet,
            Role role,
            JsonNode rsStrategy,
            Build.Template template,
            String name,
            String generateName,
            String hash,
            long index) {
        Map<String, String> rsLabels = Build.labels(roleSet);
        Map<String, String> rsAnnotations = Build.annotations(roleSet);
        Map<String, String> labels = new LinkedHashMap<>(template.labels());
        Map<String, String> annotations = new LinkedHashMap<>(template.annotations());
        roleKeys(roleSet, role, hash, index, labels, annotations);
        for (String inherited : List.of("name", "previous-owner")) {
            if (rsLabels.containsKey(inherited)) {
                labels.put(inherited, rsLabels.get(inherited));
            }
        }
        strategyKeys(rsStrategy, Build.name(roleSet), labels, annotations);
        for (String key : List.of(Aibrix.AIBRIX_ROLE_REVISION, Aibrix.AIBRIX_ROLE_REVISION_NAME)) {
            String revision = rsAnnotations.get(key + "." + role.name());
            if (revision != null) {
                labels.put(key, revision);
            }
        }
        return Build.pod(
                Build.child(name, generateName, roleSet, labels, annotations),
                template.spec(),
                index >= 0 ? name : null,
                rsLabels.get(WorkloadLabels.AIBRIX_STORM_SERVICE));
    }
}

package io.topobridge.core.diagnosis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.GangDomain;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.finding.ObjectRef;
import io.topobridge.core.finding.UserText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks an installation before it bites: Volcano's CRDs new enough for what the bridge writes, the scheduler
 * plugins that enforce topology and sub-gangs, Volcano's own label discovery not fighting the bridge over nodes,
 * the queues workloads name, a HyperNode forest Volcano can use, the bridge's webhook configurations with the
 * current CA, accelerator nodes that lie in no topology tree, and nodes that take no new pods (their resources are no
 * room for gangs), with the running gangs whose domain lost capacity that way. Pure: the same checks serve {@code /api/doctor}, the
 * {@code doctor} command, findings, metrics and readiness.
 */
public final class Doctor {

    /** The Volcano release that introduced every field the bridge writes. */
    public static final String VOLCANO_NEEDED = "v1.14";

    static final String GANG_PLUGIN = "gang";
    static final String HOSTNAME_LABEL = "kubernetes.io/hostname";
    private static final int MAX_NAMED = 10;
    private static final YAMLMapper YAML = new YAMLMapper();

    private Doctor() {}

    /** Every check, in a fixed order. */
    public static List<DoctorCheck> run(DoctorInputs in) {
        return List.of(
                crds(in),
                scheduler(in),
                schedulerActions(in),
                labelDiscovery(in),
                queues(in),
                forest(in),
                webhooks(in),
                gpuNodes(in),
                nodeRoom(in));
    }

    // ---- Volcano's CRDs ----------------------------------------------------------------------------

    static DoctorCheck crds(DoctorInputs in) {
        List<Finding> findings = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        requireFields(
                in,
                VolcanoApi.PODGROUP_CRD,
                List.of("spec.networkTopology", "spec.subGroupPolicy"),
                findings,
                problems);
        requireFields(in, VolcanoApi.HYPERNODE_CRD, List.of("spec.tierName"), findings, problems);
        if (problems.isEmpty()) {
            return DoctorCheck.ok(
                    "volcano-crds",
                    "PodGroup and HyperNode CRDs have networkTopology, subGroupPolicy and" + " tierName (Volcano "
                            + VOLCANO_NEEDED + " or later)");
        }
        return new DoctorCheck(
                "volcano-crds",
                DoctorCheck.Status.FAILURE,
                String.join("; ", problems) + ": Volcano " + VOLCANO_NEEDED + " or later is needed",
                findings);
    }

    private static void requireFields(
            DoctorInputs in, String crd, List<String> paths, List<Finding> findings, List<String> problems) {
        ObjectRef ref = ObjectRef.cluster("CustomResourceDefinition", crd);
        JsonNode schema = in.crdSchemas().get(crd);
        if (schema == null) {
            problems.add(crd + " is not installed");
            findings.add(Finding.warning(
                    DoctorReason.VOLCANO_CRD_MISSING,
                    ref,
                    "Volcano's CRD " + crd + " is not installed; Volcano " + VOLCANO_NEEDED + " or later is needed"));
            return;
        }
        List<String> missing = new ArrayList<>();
        for (String path : paths) {
            JsonNode at = schema;
            for (String part : path.split("\\.")) {
                at = at.path("properties").path(part);
            }
            if (at.isMissingNode()) {
                missing.add(path);
            }
        }
        if (!missing.isEmpty()) {
            problems.add(crd + " lacks " + String.join(", ", missing));
            findings.add(Finding.warning(
                    DoctorReason.VOLCANO_CRD_TOO_OLD,
                    ref,
                    "Volcano's CRD " + crd + " lacks "
                            + String.join(", ", missing)
                            + ", which the bridge writes: the API server drops them, so topology is"
                            + " silently lost; Volcano " + VOLCANO_NEEDED + " or later is needed"));
        }
    }

    // ---- scheduler configuration -------------------------------------------------------------------

    static DoctorCheck scheduler(DoctorInputs in) {
        ObjectRef ref = in.schedulerConfigMap();
        String where = "ConfigMap " + ref.namespace() + "/" + ref.name();
        if (in.schedulerError() != null || in.schedulerData() == null) {
            String why = in.schedulerError() != null
                    ? "cannot be read: " + UserText.excerpt(in.schedulerError())
                    : "does not exist";
            return warning(
                    "scheduler-config",
                    DoctorReason.SCHEDULER_CONFIG_UNKNOWN,
                    ref,
                    "the Volcano scheduler " + where + " " + why + "; whether hard topology is enforced is unknown");
        }
        String conf = in.schedulerData().get(in.schedulerConfigKey());
        JsonNode root = null;
        if (conf != null) {
            try {
                root = YAML.readTree(conf);
            } catch (JsonProcessingException e) {
                root = null;
            }
        }
        if (root == null || !root.path("tiers").isArray()) {
            return warning(
                    "scheduler-config",
                    DoctorReason.SCHEDULER_CONFIG_UNKNOWN,
                    ref,
                    where + " key '" + in.schedulerConfigKey() + "' holds no scheduler configuration with tiers");
        }
        Map<String, JsonNode> plugins = new TreeMap<>();
        for (JsonNode tier : root.path("tiers")) {
            for (JsonNode plugin : tier.path("plugins")) {
                plugins.putIfAbsent(plugin.path("name").asText(""), plugin);
            }
        }
        List<String> problems = new ArrayList<>();
        if (!plugins.containsKey(VolcanoApi.NETWORK_TOPOLOGY_PLUGIN)) {
            problems.add("the " + VolcanoApi.NETWORK_TOPOLOGY_PLUGIN + " plugin is not enabled, so hard topology is not"
                    + " enforced");
        } else if (plugins.get(VolcanoApi.NETWORK_TOPOLOGY_PLUGIN)
                .path("enabledHyperNodeGradient")
                .asText("")
                .equals("false")) {
            problems.add(VolcanoApi.NETWORK_TOPOLOGY_PLUGIN + " has enabledHyperNodeGradient: false, so gangs are not"
                    + " steered into HyperNodes");
        }
        if (!plugins.containsKey(GANG_PLUGIN)) {
            problems.add("the gang plugin is not enabled, so gangs and subgroups are not placed all-or-nothing");
        }
        if (problems.isEmpty()) {
            return DoctorCheck.ok(
                    "scheduler-config",
                    where + " enables " + VolcanoApi.NETWORK_TOPOLOGY_PLUGIN + " and " + GANG_PLUGIN);
        }
        String message = where + ": " + String.join("; ", problems);
        return new DoctorCheck(
                "scheduler-config",
                DoctorCheck.Status.FAILURE,
                message,
                List.of(Finding.warning(DoctorReason.SCHEDULER_PLUGIN_MISSING, ref, message)));
    }

    // ---- scheduler actions -------------------------------------------------------------------------

    /** The actions Volcano v1.15 knows; any other name makes it refuse the whole configuration. */
    static final Set<String> KNOWN_ACTIONS =
            Set.of("enqueue", "allocate", "backfill", "preempt", "reclaim", "gangpreempt", "gangreclaim", "shuffle");

    /**
     * Actions Volcano v1.15 added (gang-aware eviction): a v1.14 scheduler knows no action of that name, so it refuses
     * the whole configuration (docs/compatibility.md).
     */
    static final Set<String> ACTIONS_SINCE_V1_15 = Set.of("gangpreempt", "gangreclaim");

    /** The actions the installation guide recommends for gangs, in the order Volcano should run them. */
    static final List<String> RECOMMENDED_ACTIONS = List.of("enqueue", "allocate", "backfill");

    /**
     * The scheduler's {@code actions}: Volcano runs them in the order written, splitting on commas; an unknown name
     * (or none at all) makes it refuse the whole file and keep the configuration it had (its built-in one at start,
     * which has no {@code network-topology-aware}). Without {@code allocate} no pod is placed; without
     * {@code enqueue} allocate admits every PodGroup at once, whether or not its queue has room for its
     * minResources; without {@code backfill} pods that request nothing are never placed. {@code preempt} and
     * {@code reclaim} are not part of the recommendation and are only named.
     */
    static DoctorCheck schedulerActions(DoctorInputs in) {
        ObjectRef ref = in.schedulerConfigMap();
        String where = "ConfigMap " + ref.namespace() + "/" + ref.name();
        JsonNode root = schedulerRoot(in);
        if (root == null) {
            return DoctorCheck.ok(
                    "scheduler-actions", "no scheduler configuration to read actions from (see scheduler-config)");
        }
        JsonNode actions = root.path("actions");
        List<String> names = new ArrayList<>();
        if (actions.isTextual()) {
            for (String part : actions.asText().split(",", -1)) {
                names.add(part.trim());
            }
        }
        List<String> unknown = names.stream()
                .filter(n -> !KNOWN_ACTIONS.contains(n))
                .map(n -> n.isEmpty() ? "an empty name" : UserText.quote(n))
                .distinct()
                .toList();
        if (!actions.isTextual() || names.stream().allMatch(String::isEmpty)) {
            return actionProblem(
                    ref,
                    DoctorCheck.Status.FAILURE,
                    where + " sets no actions (recommended: \"" + String.join(", ", RECOMMENDED_ACTIONS)
                            + "\"): Volcano refuses the whole configuration and keeps the one it had (at start its"
                            + " built-in one, without network-topology-aware)");
        }
        if (!unknown.isEmpty()) {
            return actionProblem(
                    ref,
                    DoctorCheck.Status.FAILURE,
                    where + " names unknown action(s) " + named(unknown)
                            + ": Volcano refuses the whole configuration and keeps the one it had (at start its"
                            + " built-in one, without network-topology-aware)");
        }
        List<String> missing =
                RECOMMENDED_ACTIONS.stream().filter(a -> !names.contains(a)).toList();
        List<String> problems = new ArrayList<>();
        if (missing.contains("allocate")) {
            problems.add("no allocate: no pod is placed at all");
        }
        if (missing.contains("enqueue")) {
            problems.add("no enqueue: allocate admits every PodGroup at once, whether or not its queue has room for its"
                    + " minResources");
        } else if (!missing.contains("allocate") && names.indexOf("enqueue") > names.indexOf("allocate")) {
            problems.add("enqueue runs after allocate: a gang admitted waits a whole scheduling cycle more");
        }
        if (missing.contains("backfill")) {
            problems.add("no backfill: pods that request no resources are never placed");
        }
        List<String> extra = names.stream()
                .filter(n -> !RECOMMENDED_ACTIONS.contains(n))
                .distinct()
                .toList();
        String also = extra.isEmpty() ? "" : "; it also runs " + String.join(", ", extra);
        List<String> newer =
                extra.stream().filter(ACTIONS_SINCE_V1_15::contains).toList();
        if (!newer.isEmpty()) {
            also += " (" + String.join(", ", newer) + ": Volcano v1.15 or later; a v1.14 scheduler refuses the whole"
                    + " configuration and keeps the one it had)";
        }
        if (problems.isEmpty() && newer.isEmpty()) {
            return DoctorCheck.ok(
                    "scheduler-actions",
                    where + " runs " + String.join(", ", RECOMMENDED_ACTIONS) + " as recommended for gangs" + also);
        }
        if (problems.isEmpty()) {
            return actionProblem(
                    ref,
                    DoctorCheck.Status.WARNING,
                    where + " runs " + String.join(", ", RECOMMENDED_ACTIONS) + " as recommended for gangs" + also);
        }
        return actionProblem(
                ref,
                missing.contains("allocate") ? DoctorCheck.Status.FAILURE : DoctorCheck.Status.WARNING,
                where + " actions \""
                        + String.join(", ", names.stream().distinct().toList())
                        + "\" miss what gangs need (recommended: \"" + String.join(", ", RECOMMENDED_ACTIONS) + "\"): "
                        + String.join("; ", problems) + also);
    }

    private static DoctorCheck actionProblem(ObjectRef ref, DoctorCheck.Status status, String message) {
        return new DoctorCheck(
                "scheduler-actions",
                status,
                message,
                List.of(Finding.warning(DoctorReason.SCHEDULER_ACTION_MISSING, ref, message)));
    }

    /** The scheduler configuration as YAML, or null when it is missing, unreadable or not YAML. */
    private static JsonNode schedulerRoot(DoctorInputs in) {
        if (in.schedulerError() != null || in.schedulerData() == null) {
            return null;
        }
        String conf = in.schedulerData().get(in.schedulerConfigKey());
        if (conf == null) {
            return null;
        }
        try {
            JsonNode root = YAML.readTree(conf);
            return root != null && root.isObject() ? root : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    // ---- Volcano's label discovery -----------------------------------------------------------------

    static DoctorCheck labelDiscovery(DoctorInputs in) {
        List<String> read = new ArrayList<>();
        Set<String> theirs = new TreeSet<>();
        List<String> overlaps = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        for (DoctorInputs.ConfigMapData cm : in.controllerConfigs()) {
            ObjectRef ref = cm.ref();
            String where = "ConfigMap " + ref.namespace() + "/" + ref.name();
            String conf = cm.data().get(in.controllerConfigKey());
            if (conf == null || conf.isBlank()) {
                continue;
            }
            read.add(where);
            JsonNode root;
            try {
                root = YAML.readTree(conf);
            } catch (JsonProcessingException e) {
                continue; // not YAML: Volcano reads no discovery from it either
            }
            Set<String> ours = new TreeSet<>();
            for (JsonNode source : root.path("networkTopologyDiscovery")) {
                if (!"label".equals(source.path("source").asText())
                        || !source.path("enabled").asBoolean(false)) {
                    continue;
                }
                source.path("config")
                        .path("networkTopologyTypes")
                        .forEach(type -> type.forEach(level -> {
                            String key = level.path("nodeLabel").asText("");
                            if (!key.isEmpty() && !HOSTNAME_LABEL.equals(key)) {
                                theirs.add(UserText.excerpt(key));
                                if (in.readsLabel().test(key)) {
                                    ours.add(key);
                                }
                            }
                        }));
            }
            if (!ours.isEmpty()) {
                String message = "Volcano's label discovery (" + where + ") makes HyperNodes from "
                        + named(List.copyOf(ours)) + ", which the bridge reads too: nodes get two parents and"
                        + " Volcano stops placing topology-aware gangs; turn one of them off";
                overlaps.add(message);
                findings.add(Finding.warning(DoctorReason.LABEL_DISCOVERY_OVERLAP, ref, message));
            }
        }
        if (!overlaps.isEmpty()) {
            return new DoctorCheck(
                    "label-discovery", DoctorCheck.Status.FAILURE, String.join("; ", overlaps), findings);
        }
        if (read.isEmpty()) {
            return DoctorCheck.ok("label-discovery", "Volcano's HyperNode label discovery is not configured");
        }
        if (theirs.isEmpty()) {
            return DoctorCheck.ok(
                    "label-discovery", "Volcano's HyperNode label discovery is off (" + String.join(", ", read) + ")");
        }
        return DoctorCheck.ok(
                "label-discovery",
                "Volcano's label discovery reads " + named(List.copyOf(theirs))
                        + ", none of which the bridge's tiers read");
    }

    // ---- queues ------------------------------------------------------------------------------------

    static DoctorCheck queues(DoctorInputs in) {
        if (in.queueStates() == null) {
            return new DoctorCheck("queues", DoctorCheck.Status.WARNING, "Volcano's queues cannot be read", List.of());
        }
        List<Finding> findings = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        new TreeMap<>(in.queuesNamedBy()).forEach((queue, namers) -> {
            String state = in.queueStates().get(queue);
            String by = " (named by " + named(namers) + ")";
            ObjectRef ref = new ObjectRef(VolcanoApi.PODGROUP_API_VERSION, "Queue", null, queue, null);
            if (state == null) {
                problems.add("queue " + UserText.quote(queue) + " does not exist" + by);
                findings.add(Finding.warning(
                        DoctorReason.QUEUE_NOT_FOUND,
                        ref,
                        "Volcano queue " + UserText.quote(queue) + " does not exist" + by
                                + "; Volcano refuses PodGroups in it"));
            } else if (!state.isEmpty() && !"Open".equals(state)) {
                problems.add("queue " + UserText.quote(queue) + " is " + UserText.quote(state) + by);
                findings.add(Finding.warning(
                        DoctorReason.QUEUE_CLOSED,
                        ref,
                        "Volcano queue " + UserText.quote(queue) + " is " + UserText.quote(state) + ", not Open" + by
                                + "; Volcano refuses new PodGroups in it"));
            }
        });
        if (problems.isEmpty()) {
            return DoctorCheck.ok(
                    "queues",
                    in.queuesNamedBy().isEmpty()
                            ? "no queue is named"
                            : "every named queue exists and is Open: "
                                    + String.join(
                                            ", ",
                                            new TreeSet<>(in.queuesNamedBy().keySet())));
        }
        return new DoctorCheck("queues", DoctorCheck.Status.FAILURE, String.join("; ", problems), findings);
    }

    // ---- the HyperNode forest ----------------------------------------------------------------------

    static DoctorCheck forest(DoctorInputs in) {
        Forest forest = Forest.of(in.hyperNodes());
        List<Forest.Problem> problems = forest.problems();
        if (problems.isEmpty()) {
            return DoctorCheck.ok(
                    "hypernode-forest",
                    in.hyperNodes().size() + " HyperNodes form trees: one parent each," + " no cycle, one depth");
        }
        List<Finding> findings = new ArrayList<>();
        for (Forest.Problem p : problems) {
            int slash = p.subject().indexOf('/');
            String kind = p.subject().substring(0, slash);
            ObjectRef ref = "Node".equals(kind)
                    ? ObjectRef.node(p.subject().substring(slash + 1))
                    : new ObjectRef(
                            VolcanoApi.HYPERNODE_API_VERSION,
                            kind,
                            null,
                            p.subject().substring(slash + 1),
                            null);
            findings.add(Finding.warning(
                            DoctorReason.HYPER_NODE_FOREST_BROKEN,
                            ref,
                            p.message() + "; Volcano cannot place topology-aware gangs while this lasts")
                    .withKey(p.kind()));
        }
        List<String> lines =
                problems.stream().limit(MAX_NAMED).map(Forest.Problem::message).toList();
        return new DoctorCheck(
                "hypernode-forest",
                DoctorCheck.Status.FAILURE,
                problems.size() + " problem(s): " + String.join("; ", lines)
                        + (problems.size() > MAX_NAMED ? "; …" : ""),
                findings);
    }

    // ---- webhooks ----------------------------------------------------------------------------------

    static DoctorCheck webhooks(DoctorInputs in) {
        DoctorInputs.Webhooks w = in.webhooks();
        if (!w.expected()) {
            return DoctorCheck.ok("webhooks", "admission is disabled; no webhook configuration is expected");
        }
        List<String> problems = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        for (String kind : List.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")) {
            ObjectRef ref = new ObjectRef("admissionregistration.k8s.io/v1", kind, null, w.name(), null);
            List<String> bundles = w.found().get(kind);
            String problem = null;
            if (bundles == null) {
                problem = kind + " " + w.name() + " does not exist";
            } else if (w.caBundle() == null) {
                problem = null;
            } else if (bundles.isEmpty() || bundles.stream().anyMatch(b -> !samePem(b, w.caBundle()))) {
                problem = kind + " " + w.name() + " does not carry the current CA in its caBundle";
            }
            if (problem != null) {
                problems.add(problem);
                findings.add(
                        Finding.warning(
                                DoctorReason.WEBHOOK_CONFIGURATION_STALE,
                                ref,
                                problem
                                        + "; the API server cannot call the bridge, and pods are admitted untied from their gangs"));
            }
        }
        if (problems.isEmpty()) {
            return DoctorCheck.ok(
                    "webhooks",
                    "webhook configurations " + w.name() + " exist"
                            + (w.caBundle() == null ? " (the current CA is unknown)" : " and carry the current CA"));
        }
        return new DoctorCheck("webhooks", DoctorCheck.Status.FAILURE, String.join("; ", problems), findings);
    }

    static boolean samePem(String a, String b) {
        return a != null && b != null && a.replaceAll("\\s", "").equals(b.replaceAll("\\s", ""));
    }

    // ---- accelerator nodes ---------------------------------------------------------------------------

    static DoctorCheck gpuNodes(DoctorInputs in) {
        Forest forest = Forest.of(in.hyperNodes());
        List<String> outside = new ArrayList<>();
        int gpus = 0;
        for (NodeView node : in.nodes()) {
            if (node.accelerator(in.accelerators())) {
                gpus++;
                if (!forest.placed(node.name())) {
                    outside.add(node.name());
                }
            }
        }
        outside.sort(null);
        if (outside.isEmpty()) {
            return DoctorCheck.ok("gpu-nodes", gpus + " accelerator node(s), every one in a topology tree");
        }
        // each node is already a GpuNodeOutsideTopology finding of the topology (one Event per node is enough)
        return new DoctorCheck(
                "gpu-nodes",
                DoctorCheck.Status.WARNING,
                outside.size() + " of " + gpus
                        + " accelerator node(s) in no topology tree, so hard-topology gangs can never use them: "
                        + named(outside),
                List.of());
    }

    // ---- nodes that take no new pods -----------------------------------------------------------------

    /**
     * Nodes whose resources are no room for new pods: cordoned (on purpose, so said but not a problem), not ready (a
     * warning: a broken kubelet or node), and accelerator nodes with NoSchedule/NoExecute taints, whose room only
     * pods that tolerate them get. {@code auto} and explain leave all of them out of a gang's room.
     */
    static DoctorCheck nodeRoom(DoctorInputs in) {
        List<String> cordoned = new ArrayList<>();
        List<String> notReady = new ArrayList<>();
        Map<String, List<String>> taintedBy = new TreeMap<>();
        int accelerators = 0;
        for (NodeView node : in.nodes()) {
            boolean accelerator = node.accelerator(in.accelerators());
            accelerators += accelerator ? 1 : 0;
            if (node.state().cordoned()) {
                cordoned.add(node.name());
            } else if (!node.state().isReady()) {
                notReady.add(node.name() + " (Ready=" + node.state().ready() + ")");
            } else if (accelerator && !node.state().taints().isEmpty()) {
                taintedBy
                        .computeIfAbsent(node.state().taints().get(0).toString(), k -> new ArrayList<>())
                        .add(node.name());
            }
        }
        int total = in.nodes().size();
        List<String> parts = new ArrayList<>();
        if (!cordoned.isEmpty()) {
            parts.add(cordoned.size() + " cordoned (" + named(cordoned) + ")");
        }
        if (!notReady.isEmpty()) {
            parts.add(notReady.size() + " not ready (" + named(notReady) + ")");
        }
        String message;
        if (parts.isEmpty()) {
            message = total + " node(s), every one takes new pods";
        } else {
            message = (cordoned.size() + notReady.size()) + " of " + total + " node(s) take no new pods, so their"
                    + " resources are no room for any gang: " + String.join("; ", parts);
        }
        if (!taintedBy.isEmpty()) {
            List<String> taints = new ArrayList<>();
            taintedBy.forEach((taint, nodes) -> taints.add(taint + " on " + nodes.size() + " (" + named(nodes) + ")"));
            int tainted = taintedBy.values().stream().mapToInt(List::size).sum();
            message += "; " + tainted + " of " + accelerators + " accelerator node(s) are tainted, room only for pods"
                    + " that tolerate it: " + String.join("; ", taints);
        }
        // running hard-tier gangs whose domain lost capacity: worst first, each with its domain and what it lost
        List<Map.Entry<String, GangDomain>> gangs =
                new ArrayList<>(in.gangDomains().entrySet());
        gangs.sort(Map.Entry.comparingByValue(GangDomain.WORST_FIRST));
        boolean stuck = false;
        if (!gangs.isEmpty()) {
            List<String> shown = new ArrayList<>();
            for (Map.Entry<String, GangDomain> e : gangs) {
                GangDomain d = e.getValue();
                stuck |= d.stuck();
                List<String> what = new ArrayList<>();
                if (d.stuck()) {
                    what.add(
                            switch (d.verdict()) {
                                case DOMAIN_LOST -> PendingReason.DOMAIN_LOST.reason();
                                case REPLACEMENT_BLOCKED -> PendingReason.REPLACEMENT_BLOCKED.reason();
                                default -> PendingReason.NO_ROOM_IN_DOMAIN.reason();
                            });
                }
                if (!d.pending().isEmpty()) {
                    what.add(d.pending().size() + " pod(s) pending" + (d.since() == null ? "" : " since " + d.since()));
                }
                if (!d.unusable().isEmpty()) {
                    what.add("no new pods on " + String.join(", ", d.unusable()));
                }
                if (!d.lost().isEmpty()) {
                    what.add("lost " + String.join(", ", d.lost()));
                }
                shown.add(e.getKey() + " in " + (d.domain() == null ? "a domain no longer there" : d.domain()) + " ("
                        + String.join("; ", what) + ")");
            }
            message += "; " + gangs.size() + " running gang(s) whose domain lost capacity: "
                    + String.join(", ", shown.subList(0, Math.min(MAX_NAMED, shown.size())))
                    + (shown.size() > MAX_NAMED ? " and " + (shown.size() - MAX_NAMED) + " more" : "");
        }
        return new DoctorCheck(
                "node-room",
                notReady.isEmpty() && !stuck ? DoctorCheck.Status.OK : DoctorCheck.Status.WARNING,
                message,
                List.of());
    }

    private static String named(List<String> names) {
        List<String> sorted = new ArrayList<>(new TreeSet<>(names));
        String shown = String.join(", ", sorted.subList(0, Math.min(MAX_NAMED, sorted.size())));
        return sorted.size() > MAX_NAMED ? shown + " and " + (sorted.size() - MAX_NAMED) + " more" : shown;
    }

    private static DoctorCheck warning(String name, DoctorReason reason, ObjectRef ref, String message) {
        return new DoctorCheck(
                name, DoctorCheck.Status.WARNING, message, List.of(Finding.warning(reason, ref, message)));
    }
}

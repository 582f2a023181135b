package io.topobridge.core.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.capacity.Amounts;
import io.topobridge.core.capacity.Forest;
import io.topobridge.core.capacity.HyperNodeView;
import io.topobridge.core.capacity.NodeView;
import io.topobridge.core.capacity.PodView;
import io.topobridge.core.capacity.TierDomains;
import io.topobridge.core.expand.Expansion;
import io.topobridge.core.expand.Index;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.kinds.Kinds;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.Toleration;
import io.topobridge.core.resources.PodRequests;
import io.topobridge.core.resources.Quantities;
import io.topobridge.core.topology.DesiredHyperNode;
import io.topobridge.core.topology.ForeignHyperNode;
import io.topobridge.core.topology.NodeInfo;
import io.topobridge.core.topology.TopologyBuilder;
import io.topobridge.core.topology.TopologyResult;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadReason;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.changes.PodGroupChanges;
import io.topobridge.core.workload.changes.QueueStates;
import io.topobridge.core.workload.changes.Reservations;
import io.topobridge.core.workload.reconcile.ClusterFacts;
import io.topobridge.core.workload.reconcile.Outcome;
import io.topobridge.core.workload.reconcile.PassFacts;
import io.topobridge.core.workload.reconcile.ReconcileSettings;
import io.topobridge.core.workload.reconcile.ScopeReconciler;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.volcano.model.HyperNodeSpec;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The offline pipeline behind {@code render}: the controller's own steps applied to a fixed set of objects. Nodes
 * give the tiers and the cluster's capacity; workloads, Namespaces, Queues, ResourceQuotas and existing PodGroups go
 * through the very {@link ScopeReconciler} the controller runs (opt-in, queues, bounds, reservations included); every
 * Pod is shown as admission would let it in. What the input does not give is not assumed: it is said once, as a
 * note, and that check is left out. {@link #render(List, Expansion.Limits)} first adds what the workload controllers
 * would make for the input ({@link Expansion}), so a workload renders with its RoleSets' PodGroups and its pods tied.
 */
public final class Renderer {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final TopologyBuilder topology;
    private final ScopeReconciler reconciler;
    private final PodAdmission admission;
    private final Clock clock;
    private final Accelerators accelerators;

    /** As the controller runs: gangs sized by {@code accelerators} when a tier is chosen for them. */
    public Renderer(
            TopologySettings topology,
            WorkloadSettings workloads,
            AdmissionSettings admission,
            ReconcileSettings reconcile,
            Reservations.Settings reservations,
            Accelerators accelerators,
            Clock clock) {
        this.accelerators = accelerators;
        this.topology = new TopologyBuilder(topology);
        WorkloadTranslator translator = new WorkloadTranslator(workloads, Kinds.adapters(), clock);
        this.reconciler = new ScopeReconciler(translator, reconcile, reservations);
        this.admission = new PodAdmission(admission, translator::tie);
        this.clock = clock;
    }

    /**
     * The input's workloads first expanded into the objects their controllers would make (bounded by {@code limits};
     * objects given are never made again), then everything rendered as {@link #render(List)} does. The objects made
     * other than pods are in {@link RenderOutput#expanded()}, the pods made among {@link RenderOutput#pods()} as
     * admitted, and the expansion's notes (generated names, caps, what was not expanded) among the notes, one line
     * each ({@code SEVERITY Kind/ns/name Reason: message}).
     */
    public RenderOutput render(List<? extends HasMetadata> inputs, Expansion.Limits limits) {
        Expansion.Result expansion = Kinds.expansion().expand(inputs, limits);
        List<HasMetadata> all = new ArrayList<>(inputs);
        all.addAll(expansion.created());
        RenderOutput rendered = render(all);
        List<HasMetadata> made =
                expansion.created().stream().filter(o -> !(o instanceof Pod)).toList();
        List<String> notes = new ArrayList<>(rendered.notes());
        expansion.notes().stream().sorted(Finding.ORDER).map(Finding::line).forEach(notes::add);
        return new RenderOutput(
                rendered.hyperNodes(),
                rendered.podGroups(),
                made,
                rendered.pods(),
                rendered.findings(),
                notes,
                rendered.refused());
    }

    /** The input as it is: nothing is expanded (a workload's pods and RoleSets are those given). */
    public RenderOutput render(List<? extends HasMetadata> inputs) {
        Inputs in = Inputs.sort(inputs, accelerators);
        List<Finding> findings = new ArrayList<>();
        TopologyResult topo = topology.build(in.nodes, in.foreign);
        findings.addAll(topo.findings());

        var lookup = new InMemoryLookup(in.known, domains(inputs, topo.hyperNodes(), in.foreign, accelerators));
        Amounts cluster = clusterAllocatable(inputs);
        QueueStates queueStates = queueStates(in.queues);
        List<String> notes = unchecked(in, cluster, queueStates, lookup);
        PassFacts facts = new PassFacts(
                topo.tiers(),
                in.nodes.isEmpty() ? null : topo.tiers(),
                cluster,
                queueStates,
                clock.instant(),
                ClusterFacts.NONE);
        List<Outcome> outcomes =
                reconciler.reconcile(reconciler.scopesOf(in.workloads, lookup.allPodGroups(), lookup), lookup, facts);
        List<DesiredPodGroup> podGroups = podGroups(outcomes, findings);
        List<String> refused = refused(outcomes, lookup);
        List<Pod> admitted = admitted(in.pods, topo, lookup, findings, refused);
        refused.stream()
                .filter(r -> r.startsWith(POD_GROUP))
                .forEach(r -> notes.add(r + " is not made (a finding says why): its pods are printed untied"));

        var hyperNodes = new ArrayList<>(topo.hyperNodes());
        hyperNodes.sort(Comparator.comparing((DesiredHyperNode h) -> -h.spec().getTier())
                .thenComparing(DesiredHyperNode::name));
        podGroups.sort(Comparator.comparing(DesiredPodGroup::namespace).thenComparing(DesiredPodGroup::name));
        admitted.sort(Comparator.comparing(
                        (Pod p) -> Objects.requireNonNullElse(p.getMetadata().getNamespace(), ""))
                .thenComparing(p -> Objects.requireNonNullElse(p.getMetadata().getName(), "")));
        List<Finding> unique = new ArrayList<>(new java.util.LinkedHashSet<>(findings));
        unique.sort(Finding.ORDER);
        return new RenderOutput(hyperNodes, podGroups, List.of(), admitted, unique, notes, refused);
    }

    private static final String POD_GROUP = "PodGroup/";

    /**
     * What the controller refuses to make: {@code PodGroup/namespace/name} for each PodGroup a gang wants that no step
     * applies and the input does not hold, and the workloads of a namespace that did not opt in (no PodGroup is even
     * planned for them). A scope that waits for its group's other members is not judged yet, so not refused.
     */
    private static List<String> refused(List<Outcome> outcomes, InMemoryLookup lookup) {
        Set<String> existing = lookup.allPodGroups().stream()
                .map(p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName())
                .collect(Collectors.toSet());
        Set<String> out = new TreeSet<>();
        for (Outcome outcome : outcomes) {
            if (outcome.deferred()) {
                continue;
            }
            Set<String> applied = outcome.steps().stream()
                    .filter(PodGroupChanges.Apply.class::isInstance)
                    .map(step -> ((PodGroupChanges.Apply) step).podGroup())
                    .map(p -> p.namespace() + "/" + p.name())
                    .collect(Collectors.toSet());
            outcome.translation().podGroups().stream()
                    .filter(p -> p.ownership() == DesiredPodGroup.Ownership.OWNED)
                    .map(p -> p.namespace() + "/" + p.name())
                    .filter(id -> !applied.contains(id) && !existing.contains(id))
                    .forEach(id -> out.add(POD_GROUP + id));
            outcome.findings().stream()
                    .filter(f -> f.reason() == WorkloadReason.NAMESPACE_NOT_OPTED_IN)
                    .forEach(f -> out.add(f.object().toString()));
        }
        return List.copyOf(out);
    }

    /** The input sorted by what render does with each object. */
    private static final class Inputs {
        final List<NodeInfo> nodes = new ArrayList<>();
        final List<HasMetadata> workloads = new ArrayList<>();
        final List<Pod> pods = new ArrayList<>();
        final List<ForeignHyperNode> foreign = new ArrayList<>();
        final List<HasMetadata> known = new ArrayList<>();
        final List<HasMetadata> queues = new ArrayList<>();

        static Inputs sort(List<? extends HasMetadata> inputs, Accelerators accelerators) {
            Inputs in = new Inputs();
            for (HasMetadata object : inputs) {
                if (object instanceof Node node) {
                    in.nodes.add(new NodeInfo(
                            node.getMetadata().getName(),
                            node.getMetadata().getLabels(),
                            NodeView.of(node).accelerator(accelerators)));
                } else if (Index.kindOf(object).equals(VolcanoApi.TOPOLOGY_GROUP + "/HyperNode")
                        && !Topobridge.ours(object)) {
                    // a HyperNode the bridge did not make: its name is taken and overlaps are findings
                    in.foreign.add(new ForeignHyperNode(
                            object.getMetadata().getName(), object.getMetadata().getLabels(), hyperNodeSpec(object)));
                } else if (object instanceof Pod pod) {
                    in.pods.add(pod);
                } else if (WorkloadKind.of(object.getApiVersion(), object.getKind())
                        .isPresent()) {
                    in.workloads.add(object);
                    in.known.add(object);
                } else if (Index.kindOf(object).equals(VolcanoApi.SCHEDULING_GROUP + "/Queue")) {
                    in.queues.add(object);
                } else {
                    // Namespaces, ResourceQuotas and PodGroups that exist already
                    in.known.add(object);
                }
            }
            return in;
        }
    }

    /** What the input does not give, so the checks that need it are left out: said once each. */
    private List<String> unchecked(Inputs in, Amounts cluster, QueueStates queueStates, InMemoryLookup lookup) {
        List<String> notes = new ArrayList<>();
        boolean judged = !in.workloads.isEmpty();
        if (cluster == null && judged) {
            notes.add("no Node with status.allocatable given: gangs are not checked against the cluster's capacity"
                    + " (" + WorkloadReason.GANG_EXCEEDS_CLUSTER.reason() + ", "
                    + WorkloadReason.GANG_EXCEEDS_DOMAIN.reason()
                    + ", a namespace's share of it)");
        }
        if (!queueStates.known() && judged) {
            notes.add("no Queue objects given: queues (missing, closed) and their capability are not checked");
        }
        if (reconciler.settings().requireNamespaceOptIn() && !lookup.hasNamespaces() && judged) {
            notes.add("no Namespace objects given: namespace opt-in ("
                    + reconciler.settings().namespaceLabel() + "=true) is not checked");
        }
        return notes;
    }

    /** The PodGroups the outcomes apply, and those AIBrix or LWS will make with the fields the bridge adds. */
    private static List<DesiredPodGroup> podGroups(List<Outcome> outcomes, List<Finding> findings) {
        List<DesiredPodGroup> podGroups = new ArrayList<>();
        for (Outcome outcome : outcomes) {
            findings.addAll(outcome.findings());
            for (PodGroupChanges.Step step : outcome.steps()) {
                if (step instanceof PodGroupChanges.Apply apply) {
                    podGroups.add(apply.podGroup());
                }
            }
            // the topology fields of a PodGroup AIBrix or LWS will make: shown as the bridge will add them
            outcome.translation().podGroups().stream()
                    .filter(p -> p.ownership() == DesiredPodGroup.Ownership.ADOPTED)
                    .filter(p -> podGroups.stream()
                            .noneMatch(q -> q.namespace().equals(p.namespace())
                                    && q.name().equals(p.name())))
                    .forEach(podGroups::add);
        }
        return podGroups;
    }

    /**
     * Every pod as admission lets it in (the webhook sees only the pods of namespaces that opted in); a pod the bridge
     * would tie to a PodGroup that is {@code refused} is printed as it came, untied.
     */
    private List<Pod> admitted(
            List<Pod> pods, TopologyResult topo, InMemoryLookup lookup, List<Finding> findings, List<String> refused) {
        List<Pod> admitted = new ArrayList<>();
        for (Pod pod : pods) {
            String namespace = Objects.requireNonNullElse(pod.getMetadata().getNamespace(), "");
            if (!reconciler.optedIn(namespace, lookup)) {
                admitted.add(pod);
                continue;
            }
            PodAdmission.Result result = admission.admit(pod, topo.tiers(), lookup);
            if (result.outcome() == PodAdmission.Outcome.ASSIGNED
                    && refused.contains(POD_GROUP + namespace + "/" + result.podGroup())) {
                admitted.add(pod);
                continue;
            }
            admitted.add(result.pod());
            findings.addAll(result.findings());
        }
        return admitted;
    }

    /** The allocatable resources of the input's Nodes together; null when none gives any. */
    static Amounts clusterAllocatable(List<? extends HasMetadata> inputs) {
        Amounts sum = Amounts.NONE;
        for (HasMetadata object : inputs) {
            if (object instanceof Node node
                    && node.getStatus() != null
                    && node.getStatus().getAllocatable() != null) {
                Map<String, String> allocatable = new TreeMap<>();
                node.getStatus().getAllocatable().forEach((k, v) -> allocatable.put(k, v.toString()));
                try {
                    sum = sum.plus(Amounts.parse(allocatable));
                } catch (IllegalArgumentException e) {
                    // a node whose allocatable cannot be read adds nothing
                }
            }
        }
        return sum.isEmpty() ? null : sum;
    }

    /** Volcano queues of the input: their state ({@code status.state}, empty when not written) and capability. */
    static QueueStates queueStates(List<HasMetadata> queues) {
        if (queues.isEmpty()) {
            return QueueStates.UNKNOWN;
        }
        Map<String, String> states = new TreeMap<>();
        Map<String, Map<String, java.math.BigDecimal>> capability = new TreeMap<>();
        for (HasMetadata queue : queues) {
            var tree = JSON.valueToTree(queue);
            String name = queue.getMetadata().getName();
            states.put(name, tree.path("status").path("state").asText(""));
            var limits = tree.path("spec").path("capability");
            if (limits.isObject()) {
                Map<String, java.math.BigDecimal> amounts = new TreeMap<>();
                limits.fields().forEachRemaining(e -> {
                    try {
                        amounts.put(e.getKey(), Quantities.amount(e.getValue().asText()));
                    } catch (IllegalArgumentException ignored) {
                        // Volcano's webhook refuses such a capability: it limits nothing
                    }
                });
                if (!amounts.isEmpty()) {
                    capability.put(name, amounts);
                }
            }
        }
        return new QueueStates(true, states, capability);
    }

    /**
     * The domains of the HyperNodes {@code render} would apply and those in its input, sized from the input's Nodes
     * ({@code status.allocatable}; cordoned, not-Ready and tainted ones as {@link NodeView#of} reads them) and used by
     * its Pods that name a node: what the controller reads from the cluster. Gangs are sized by {@code accelerators}.
     */
    public static TierDomains domains(
            List<? extends HasMetadata> inputs,
            List<DesiredHyperNode> built,
            List<ForeignHyperNode> foreign,
            Accelerators accelerators) {
        List<NodeView> nodes = new ArrayList<>();
        List<PodView> pods = new ArrayList<>();
        for (HasMetadata object : inputs) {
            if (object instanceof Node node && node.getMetadata().getName() != null) {
                nodes.add(NodeView.of(node));
            } else if (object instanceof Pod pod
                    && pod.getSpec() != null
                    && pod.getSpec().getNodeName() != null
                    && pod.getMetadata().getName() != null) {
                var annotations = pod.getMetadata().getAnnotations();
                pods.add(new PodView(
                        Objects.requireNonNullElse(pod.getMetadata().getNamespace(), ""),
                        pod.getMetadata().getName(),
                        pod.getSpec().getNodeName(),
                        Amounts.parse(PodRequests.of(pod.getSpec()).canonical()),
                        pod.getMetadata().getLabels(),
                        null,
                        annotations == null ? null : annotations.get(VolcanoApi.GROUP_NAME_ANNOTATION),
                        Toleration.of(pod.getSpec().getTolerations()),
                        null,
                        false,
                        null));
            }
        }
        List<HyperNodeView> views = new ArrayList<>();
        built.forEach(h -> views.add(HyperNodeView.of(h.name(), h.labels(), h.spec())));
        foreign.forEach(h -> views.add(HyperNodeView.of(h.name(), h.labels(), h.spec())));
        return TierDomains.of(nodes, pods, Forest.of(views), accelerators);
    }

    private static HyperNodeSpec hyperNodeSpec(HasMetadata object) {
        try {
            var tree = JSON.valueToTree(object).path("spec");
            return tree.isObject() ? JSON.treeToValue(tree, HyperNodeSpec.class) : null;
        } catch (IllegalArgumentException | com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }
}

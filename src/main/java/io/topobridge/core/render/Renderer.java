package io.topobridge.core.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.admission.AdmissionSettings;
import io.topobridge.core.admission.PodAdmission;
import io.topobridge.core.diagnosis.Amounts;
import io.topobridge.core.diagnosis.Forest;
import io.topobridge.core.diagnosis.HyperNodeView;
import io.topobridge.core.diagnosis.NodeView;
import io.topobridge.core.diagnosis.PodView;
import io.topobridge.core.diagnosis.TierDomains;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.node.Accelerators;
import io.topobridge.core.node.Toleration;
import io.topobridge.core.topology.DesiredHyperNode;
import io.topobridge.core.topology.ForeignHyperNode;
import io.topobridge.core.topology.NodeInfo;
import io.topobridge.core.topology.TopologyBuilder;
import io.topobridge.core.topology.TopologyResult;
import io.topobridge.core.topology.TopologySettings;
import io.topobridge.core.workload.DesiredPodGroup;
import io.topobridge.core.workload.WorkloadKind;
import io.topobridge.core.workload.WorkloadSettings;
import io.topobridge.core.workload.resources.PodRequests;
import io.topobridge.core.workload.translate.TranslationResult;
import io.topobridge.core.workload.translate.WorkloadTranslator;
import io.topobridge.volcano.model.HyperNodeSpec;
import io.topobridge.volcano.model.MemberSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The offline pipeline behind {@code render}: the same builder, translator and admission code the controller
 * runs, applied to a fixed set of objects. Nodes give the tiers, workloads give PodGroups, and every Pod is
 * shown as admission would let it in.
 */
public final class Renderer {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final TopologyBuilder topology;
    private final WorkloadTranslator translator;
    private final PodAdmission admission;

    public Renderer(TopologySettings topology, WorkloadSettings workloads, AdmissionSettings admission) {
        this.topology = new TopologyBuilder(topology);
        this.translator = new WorkloadTranslator(workloads);
        this.admission = new PodAdmission(admission, this.translator);
    }

    public RenderOutput render(List<? extends HasMetadata> inputs) {
        List<NodeInfo> nodes = new ArrayList<>();
        List<HasMetadata> workloads = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        List<ForeignHyperNode> foreign = new ArrayList<>();
        List<HasMetadata> namespaces = new ArrayList<>();
        for (HasMetadata object : inputs) {
            if (object instanceof Node node) {
                nodes.add(new NodeInfo(
                        node.getMetadata().getName(), node.getMetadata().getLabels(), gpu(node)));
            } else if (isForeignHyperNode(object)) {
                foreign.add(new ForeignHyperNode(
                        object.getMetadata().getName(), object.getMetadata().getLabels(), hyperNodeSpec(object)));
            } else if (object instanceof Pod pod) {
                pods.add(pod);
            } else if (WorkloadKind.of(object.getApiVersion(), object.getKind()).isPresent()) {
                workloads.add(object);
            } else if ("Namespace".equals(object.getKind())) {
                // the queues a namespace's workloads may use, and its default queue
                namespaces.add(object);
            }
        }
        List<Finding> findings = new ArrayList<>();
        TopologyResult topo = topology.build(nodes, foreign);
        findings.addAll(topo.findings());

        List<HasMetadata> known = new ArrayList<>(workloads);
        known.addAll(namespaces);
        var lookup = new InMemoryLookup(known, domains(inputs, topo.hyperNodes(), foreign));
        TranslationResult translated = translator.translate(workloads, topo.tiers(), lookup);
        findings.addAll(translated.findings());

        List<Pod> admitted = new ArrayList<>();
        for (Pod pod : pods) {
            PodAdmission.Result result = admission.admit(pod, topo.tiers(), lookup);
            admitted.add(result.pod());
            findings.addAll(result.findings());
        }

        var hyperNodes = new ArrayList<>(topo.hyperNodes());
        hyperNodes.sort(Comparator.comparing((DesiredHyperNode h) -> -h.spec().getTier())
                .thenComparing(DesiredHyperNode::name));
        var podGroups = new ArrayList<>(translated.podGroups());
        podGroups.sort(Comparator.comparing(DesiredPodGroup::namespace).thenComparing(DesiredPodGroup::name));
        admitted.sort(Comparator.comparing(
                        (Pod p) -> Objects.requireNonNullElse(p.getMetadata().getNamespace(), ""))
                .thenComparing(p -> Objects.requireNonNullElse(p.getMetadata().getName(), "")));
        findings.sort(Finding.ORDER);
        return new RenderOutput(hyperNodes, podGroups, admitted, findings);
    }

    /**
     * The domains of the HyperNodes {@code render} would apply and those in its input, sized from the input's Nodes
     * ({@code status.allocatable}; cordoned, not-Ready and tainted ones as {@link NodeView#of} reads them) and used by
     * its Pods that name a node: what the controller reads from the cluster. Gangs are sized by the default
     * accelerators.
     */
    public static TierDomains domains(
            List<? extends HasMetadata> inputs, List<DesiredHyperNode> built, List<ForeignHyperNode> foreign) {
        return domains(inputs, built, foreign, Accelerators.DEFAULT);
    }

    /** As {@link #domains(List, List, List)}, gangs being sized by {@code accelerators}. */
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
                        Toleration.of(pod.getSpec().getTolerations())));
            }
        }
        List<HyperNodeView> views = new ArrayList<>();
        built.forEach(h -> views.add(view(h.name(), h.labels(), h.spec())));
        foreign.forEach(h -> views.add(view(h.name(), h.labels(), h.spec())));
        return TierDomains.of(nodes, pods, Forest.of(views), accelerators);
    }

    private static HyperNodeView view(String name, Map<String, String> labels, HyperNodeSpec spec) {
        List<String> nodeMembers = new ArrayList<>();
        List<String> hyperNodeMembers = new ArrayList<>();
        int other = 0;
        if (spec != null && spec.getMembers() != null) {
            for (MemberSpec m : spec.getMembers()) {
                if (m.getSelector() == null || m.getSelector().getExactMatch() == null) {
                    other++;
                } else if (m.getType() == MemberSpec.TypeEnum.NODE) {
                    nodeMembers.add(m.getSelector().getExactMatch().getName());
                } else {
                    hyperNodeMembers.add(m.getSelector().getExactMatch().getName());
                }
            }
        }
        return new HyperNodeView(
                name,
                spec == null || spec.getTier() == null ? 0 : spec.getTier(),
                spec == null ? null : spec.getTierName(),
                labels == null ? null : labels.get(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL),
                nodeMembers,
                hyperNodeMembers,
                other);
    }

    /** HyperNodes in the input that the bridge did not make: their names are taken and overlaps are findings. */
    private static boolean isForeignHyperNode(HasMetadata object) {
        if (!"HyperNode".equals(object.getKind())
                || object.getApiVersion() == null
                || !object.getApiVersion().startsWith(VolcanoApi.TOPOLOGY_GROUP + "/")) {
            return false;
        }
        var labels = object.getMetadata().getLabels();
        return labels == null || !Topobridge.SOURCE.equals(labels.get(VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL));
    }

    private static HyperNodeSpec hyperNodeSpec(HasMetadata object) {
        try {
            var tree = JSON.valueToTree(object).path("spec");
            return tree.isObject() ? JSON.treeToValue(tree, HyperNodeSpec.class) : null;
        } catch (IllegalArgumentException | com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    /**
     * Whether a node has accelerators of the default list (allocatable above zero) or GPU feature discovery's labels.
     */
    public static boolean gpu(Node node) {
        return gpu(node, Accelerators.DEFAULT);
    }

    /** Whether a node has accelerators of the list (allocatable above zero) or GPU feature discovery's labels. */
    public static boolean gpu(Node node, Accelerators accelerators) {
        return NodeView.of(node).accelerator(accelerators);
    }
}

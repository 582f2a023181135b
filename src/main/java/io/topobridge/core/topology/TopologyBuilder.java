package io.topobridge.core.topology;

import io.topobridge.core.finding.Finding;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pure function from nodes (and the HyperNodes of other sources) to the HyperNodes the bridge keeps, the tier
 * catalog workloads resolve names against, and findings. A domain is identified by its whole label path, so
 * equal values under different parents never merge; every node of a tree sits at the same depth; tier-1
 * members are Nodes and higher members are HyperNodes, all by {@code exactMatch}. By construction every
 * HyperNode has at most one parent and the tree has no cycle.
 *
 * <p>NVLink has two levels: the domain (the physical system) and the partitions inside it (the GPUs that can
 * really talk over NVLink). Per tree, when no domain (identified by its label path) holds more than one
 * partition, the two are the same sets of nodes and form one tier, {@code nvlink}, whose HyperNodes are the
 * domains. Otherwise every domain of the tree gets a partition level: {@code nvlink} (partitions) under
 * {@code nvlink-domain} (domains), an unpartitioned domain having one partition with all its nodes, because
 * Volcano needs every node of a tree at the same depth. A node without a partition label in a domain where at least
 * half the nodes name one is left out: its partition is unknown; where most name none, a node naming one is left out.
 *
 * <p>An NVLink domain is named by its value across its tree (a GPU clique's UUID, topograph's domain), not by its path:
 * a domain whose nodes hang off different switches (a rail-cabled rack) stays one HyperNode, hung from the lowest tier
 * that holds all of it through a HyperNode of its own at each tier it skips ({@link RailDomains}).
 *
 * <p>Node labels are input the nodes themselves can write, so no single node decides the shape of a tree for the
 * others: an optional tier is kept while at least half the nodes of its tree carry it (the nodes lacking it are left
 * out, each named), so one node can neither take a tier away from the others nor force one on them, and one node
 * relabelled changes only the HyperNodes that list it.
 */
public final class TopologyBuilder {

    private final TopologySettings settings;
    private final SchemeDetection schemes;

    public TopologyBuilder(TopologySettings settings) {
        this.settings = settings;
        this.schemes = new SchemeDetection(settings);
    }

    /** Whether a node label key can change the tree (node events touching only other labels are ignored). */
    public boolean readsLabel(String key) {
        return schemes.reads(key);
    }

    public TopologyResult build(Collection<NodeInfo> nodes, Collection<ForeignHyperNode> foreign) {
        List<Finding> findings = new ArrayList<>();
        Map<String, NodeInfo> byName = new HashMap<>(nodes.size() * 2);
        for (NodeInfo node : nodes) {
            byName.put(node.name(), node);
        }

        Forest forest = new Forest();
        for (var entry : schemes.sort(byName.values(), findings).entrySet()) {
            if (!entry.getValue().isEmpty()) {
                TreePlanter.plant(entry.getKey(), entry.getValue(), forest, findings);
            }
        }
        Set<String> taken = new HashSet<>();
        foreign.forEach(f -> taken.add(f.name()));
        HyperNodeNames.assign(forest.domains(), taken);
        forest.prune(findings);
        List<DesiredHyperNode> hyperNodes = forest.hyperNodes();
        TreeFindings.parentConflicts(forest, findings);
        TreeFindings.partitionConflicts(forest, findings);
        TreeFindings.railDomains(forest, findings);
        TreeFindings.singleDomainTiers(forest, findings);
        ForeignOverlaps.find(foreign, forest, byName, findings);
        TreeFindings.gpuNodesOutside(byName.values(), forest, foreign, findings);

        findings.sort(Finding.ORDER);
        hyperNodes.sort(Comparator.comparing((DesiredHyperNode h) -> -h.spec().getTier())
                .thenComparing(DesiredHyperNode::name));
        return new TopologyResult(hyperNodes, forest.catalog(settings.schemes()), findings, forest.summaries());
    }
}

package io.topobridge.core.topology;

import io.topobridge.core.Topobridge;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.finding.Finding;
import io.topobridge.core.topology.TopologyResult.TreeSummary;
import io.topobridge.volcano.model.ExactMatch;
import io.topobridge.volcano.model.HyperNodeSpec;
import io.topobridge.volcano.model.MemberSelector;
import io.topobridge.volcano.model.MemberSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The trees of all schemes: prunes them to what fits Volcano, and turns their domains into HyperNodes. */
final class Forest {

    /** Estimated serialised size above which a HyperNode is left out (the API server refuses ~1.5 MiB). */
    static final int MAX_HYPERNODE_BYTES = 1_000_000;

    private static final Map<String, String> LABELS = Map.of(
            VolcanoApi.NETWORK_TOPOLOGY_SOURCE_LABEL, Topobridge.SOURCE,
            Topobridge.MANAGED_BY_LABEL, Topobridge.MANAGED_BY);

    final List<Tree> trees = new ArrayList<>();

    Tree tree(LabelScheme scheme, List<String> tierNames, boolean nvlink) {
        Tree tree = new Tree(scheme, tierNames, nvlink);
        trees.add(tree);
        return tree;
    }

    List<Domain> domains() {
        List<Domain> out = new ArrayList<>();
        trees.forEach(t -> out.addAll(t.all));
        return out;
    }

    Set<String> placedNodes() {
        return domains().stream()
                .filter(d -> d.alive && d.level == 0)
                .flatMap(d -> d.nodes.stream())
                .collect(Collectors.toCollection(HashSet::new));
    }

    /** Children before parents: a domain lives while it has members and fits in one object. */
    void prune(List<Finding> findings) {
        for (Tree tree : trees) {
            for (Domain root : tree.roots.values()) {
                prune(root, findings);
            }
        }
    }

    private void prune(Domain d, List<Finding> findings) {
        long bytes = 300;
        int members = 0;
        if (d.level == 0) {
            d.nodes.sort(null);
            for (String node : d.nodes) {
                bytes += node.length() + 60;
            }
            members = d.nodes.size();
            d.nodeCount = members;
        } else {
            for (Domain child : d.children.values()) {
                prune(child, findings);
                if (child.alive) {
                    bytes += child.name.length() + 65;
                    members++;
                    d.nodeCount += child.nodeCount;
                }
            }
        }
        if (members > 0 && bytes > MAX_HYPERNODE_BYTES) {
            findings.add(Finding.warning(
                    TopologyReason.OVERSIZED_DOMAIN,
                    TreeFindings.hyperNodeRef(d.name),
                    d.describe() + " has " + members + " members, too many for one HyperNode object (about "
                            + bytes / 1024 + " KiB); it and its " + d.nodeCount
                            + " nodes are left out of the tree"));
            d.nodeCount = 0;
            members = 0;
        }
        d.alive = members > 0;
    }

    List<DesiredHyperNode> hyperNodes() {
        List<DesiredHyperNode> out = new ArrayList<>();
        for (Domain d : domains()) {
            if (!d.alive) {
                continue;
            }
            List<MemberSpec> members = new ArrayList<>();
            if (d.level == 0) {
                d.nodes.forEach(n -> members.add(member(MemberSpec.TypeEnum.NODE, n)));
            } else {
                d.children.values().stream()
                        .filter(c -> c.alive)
                        .map(c -> c.name)
                        .sorted()
                        .forEach(n -> members.add(member(MemberSpec.TypeEnum.HYPER_NODE, n)));
            }
            HyperNodeSpec spec =
                    new HyperNodeSpec().tier(d.level + 1).tierName(d.tierName()).members(members);
            out.add(new DesiredHyperNode(d.name, LABELS, spec));
        }
        return out;
    }

    private static MemberSpec member(MemberSpec.TypeEnum type, String name) {
        return new MemberSpec().type(type).selector(new MemberSelector().exactMatch(new ExactMatch().name(name)));
    }

    /** The tiers of the trees made, with the names and label keys the configured schemes give them. */
    TierCatalog catalog(List<LabelScheme> schemes) {
        List<TierCatalog.Tier> tiers = new ArrayList<>();
        for (Tree tree : trees) {
            if (tree.roots.values().stream().anyMatch(d -> d.alive)) {
                for (int i = 0; i < tree.tierNames.size(); i++) {
                    tiers.add(new TierCatalog.Tier(i + 1, tree.tierNames.get(i)));
                }
            }
        }
        return TierCatalog.of(tiers, schemes);
    }

    List<TreeSummary> summaries() {
        List<TreeSummary> out = new ArrayList<>();
        for (Tree tree : trees) {
            int nodes = tree.roots.values().stream()
                    .filter(root -> root.alive)
                    .mapToInt(root -> root.nodeCount)
                    .sum();
            long hyperNodes = tree.all.stream().filter(d -> d.alive).count();
            if (hyperNodes > 0) {
                out.add(new TreeSummary(tree.scheme.id(), tree.tierNames, nodes, (int) hyperNodes));
            }
        }
        return out;
    }
}
